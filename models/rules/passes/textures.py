"""Texture calls whose HIP form means something else than CUDA's, rewritten to keep CUDA's meaning.

Both are in HIP 5.2.3's headers (Debian) and, for the gather, in later ROCm/clr headers too:

- `hipCreateChannelDesc<T>()` gives `signed char` the unsigned kind and `uchar1`..`uchar4` the
  signed kind (amd_channel_descriptor.h), so a `uchar4` texture read as normalized floats returns
  SNORM values (200 -> -0.441 instead of 0.784). The port spells the descriptor out.
- `tex2Dgather(textureObject, x, y, comp)` numbers the components 1 = r, 2 = g, 3 = b and
  0 (the default) = a (texture_indirect_functions.h); CUDA's 0..3 are x, y, z, w. The port passes
  `(comp + 1) & 3`. HIP's `tex2Dgather(T*, object, ...)` form samples a layered cube map instead
  of gathering, so the port assigns the value form's result.

- `surf*read`/`surf*write` convert every component by value through float (an int surface reads
  0 for a stored 5 and stores the bits of 5.0f) and the layered forms pass the layer as a mip
  level: the port calls cass helpers that move integral components as bits (shims.py
  "surfaces"), as CUDA does.

Texture references (`texture<T, dim, mode>`, removed from CUDA 12) port as they are: HIP keeps
the template and the binding calls (deprecated). Their constructor takes `hipCreateChannelDesc<T>()`,
so for the element types above the declaration passes CUDA's descriptor explicitly.
"""

from __future__ import annotations

from cass.models.rules.lexer import Token
from cass.models.rules.unit import Unit

# CUDA element type -> (channels, the kind CUDA gives it) where HIP's specialization differs.
CHANNEL_DESCS = {
    "signed char": (1, "hipChannelFormatKindSigned"),
    "uchar1": (1, "hipChannelFormatKindUnsigned"),
    "uchar2": (2, "hipChannelFormatKindUnsigned"),
    "uchar3": (3, "hipChannelFormatKindUnsigned"),
    "uchar4": (4, "hipChannelFormatKindUnsigned"),
}


def _channel_desc(element: str) -> str:
    channels, kind = CHANNEL_DESCS[element]
    bits = ", ".join(["8"] * channels + ["0"] * (4 - channels))
    return f"hipCreateChannelDesc({bits}, {kind})"


def rewrite_texture_reference_descs(unit: Unit) -> None:
    """`texture<uchar4, 2, M> t;` -> `texture<...> t(0, hipFilterModePoint, hipAddressModeClamp,
    hipCreateChannelDesc(8, 8, 8, 8, ...Unsigned));` (CUDA's defaults, CUDA's signedness)."""
    for i in unit.positions(("texture",)):
        if unit.next_text(i) != "<" or unit.prev_text(i) in (".", "->", "::"):
            continue
        close = _closing_angle(unit, i + 1)
        names = _declarators(unit, close) if close is not None else []
        element = []
        for j in range(i + 2, close or i):
            if unit.code[j].text == ",":
                break
            element.append(unit.code[j].text)
        element_text = " ".join(element)
        if element_text not in CHANNEL_DESCS:
            continue
        constructor = (f"(0, hipFilterModePoint, hipAddressModeClamp, "
                       f"{_channel_desc(element_text)})")  # fmt: skip
        for name in names:
            if unit.insert(name.end, constructor):
                unit.report("CASS060", name.start, name.end,
                            f"`texture<{element_text}, ...> {name.text}` given CUDA's channel "
                            f"descriptor: HIP's constructor takes hipCreateChannelDesc<{element_text}>"
                            "(), the other signedness, which changes what normalized-float reads "
                            "return")  # fmt: skip


def _declarators(unit: Unit, close: int) -> list[Token]:
    """The names of `texture<...> a, b;` after the template's `>` (none unless each is plain)."""
    names: list[Token] = []
    j = close + 1
    while j + 1 < len(unit.code) and unit.code[j].kind == "ident":
        names.append(unit.code[j])
        if unit.code[j + 1].text == ";":
            return names
        if unit.code[j + 1].text != ",":
            return []
        j += 2
    return []


def rewrite_channel_descs(unit: Unit) -> None:
    """`cudaCreateChannelDesc<uchar4>()` -> `hipCreateChannelDesc(8, 8, 8, 8, ...Unsigned)`."""
    for i in unit.positions(("cudaCreateChannelDesc",)):
        if unit.next_text(i) != "<" or unit.prev_text(i) in (".", "->"):
            continue
        close = _closing_angle(unit, i + 1)
        if close is None or unit.next_text(close) != "(" or unit.next_text(close, 2) != ")":
            continue
        element = " ".join(unit.code[j].text for j in range(i + 2, close))
        if element not in CHANNEL_DESCS:
            continue
        first, last = unit.code[i], unit.code[close + 2]
        if unit.replace_tokens(first, last, _channel_desc(element)):
            unit.report_tokens("CASS060", first, last,
                               f"`cudaCreateChannelDesc<{element}>()` spelled out: HIP's specialization "
                               f"for `{element}` gives the other signedness, which changes what "
                               "normalized-float reads return")  # fmt: skip


def rewrite_gather_components(unit: Unit) -> None:
    """`tex2Dgather<T>(obj, x, y, comp)` -> HIP's numbering; the pointer form -> the value form."""
    for i in unit.positions(("tex2Dgather",)):
        if unit.prev_text(i) in (".", "->", "::") or unit.is_edited(unit.code[i]):
            continue
        template = unit.next_text(i) == "<"
        open_ = i + 1
        if template:
            close = _closing_angle(unit, i + 1)
            if close is None:
                continue
            open_ = close + 1
        if open_ >= len(unit.code) or unit.code[open_].text != "(":
            continue
        parsed = unit.call_args(open_)
        if parsed is None:
            continue
        args, end = parsed
        # (T*, object, x, y[, comp]): five arguments, or four with an address first (a texture
        # reference call takes at most four: (texref, x, y[, comp]))
        first = unit.arg_text(args[0]).strip()
        pointer = not template and (len(args) == 5 or (len(args) == 4 and first.startswith("&")))
        if pointer:
            _rewrite_pointer_form(unit, i, args, end)
        elif template and len(args) in (3, 4):
            _rewrite_component(unit, args, end, 3)


def _component(unit: Unit, args: list[tuple[int, int]], position: int) -> str:
    if len(args) <= position:
        return "1"  # CUDA's default component 0 (x)
    text = unit.arg_text(args[position]).strip()
    if text.isdigit() and int(text) < 4:
        return str((int(text) + 1) % 4)
    return f"(({text}) + 1) & 3"


def _rewrite_component(unit: Unit, args: list[tuple[int, int]], end: int, position: int) -> None:
    component = _component(unit, args, position)
    if len(args) > position:
        first, last = unit.code[args[position][0]], unit.code[args[position][1]]
        done = unit.replace_tokens(first, last, component)
    else:
        first = last = unit.code[end]
        done = unit.insert(unit.code[end].start, f", {component}")
    if done:
        unit.report_tokens("CASS060", first, last,
                           f"gather component passed as {component}: HIP's tex2Dgather on a texture "
                           "object numbers the components 1 = x, 2 = y, 3 = z, 0 = w")  # fmt: skip


def _closing_angle(unit: Unit, start: int) -> int | None:
    """The `>` closing a short template argument list opened at `start`."""
    for j in range(start + 1, min(start + 12, len(unit.code))):
        if unit.code[j].text in (">", ">>"):
            return j if unit.code[j].text == ">" else None
    return None


def _rewrite_pointer_form(unit: Unit, i: int, args: list[tuple[int, int]], end: int) -> None:
    """`tex2Dgather(&v, obj, x, y, c)` -> `(*(&v) = tex2Dgather<T>(obj, x, y, c'))`, T from `v`;
    the arguments stay in place (later passes still rename what they hold)."""
    pointer = unit.arg_text(args[0]).strip()
    first = unit.code[i]
    head = (f"(*({pointer}) = tex2Dgather<std::remove_reference_t<decltype(*({pointer}))>>(")  # fmt: skip
    if not unit.replace_tokens(first, unit.code[args[1][0] - 1], head):
        return
    _rewrite_component(unit, args, end, 4)
    unit.insert(unit.code[end].end, ")")
    unit.report_tokens("CASS060", first, unit.code[end],
                       "tex2Dgather(T*, ...) written as the value form: HIP's pointer form samples a "
                       "layered cube map")  # fmt: skip


SURFACE_CALLS = tuple(
    f"surf{d}{op}" for d in ("1D", "2D", "3D", "1DLayered", "2DLayered") for op in ("read", "write")
)


def rewrite_surface_calls(unit: Unit) -> None:
    """`surf2Dread(&v, s, x, y)` -> `__cass_surf2Dread(&v, s, x, y)` (and the value form)."""
    for i in unit.positions(SURFACE_CALLS):
        tok = unit.code[i]
        if tok.kind != "ident" or unit.prev_text(i) in (".", "->", "::") or unit.is_edited(tok):
            continue
        if unit.next_text(i) not in ("(", "<"):
            continue
        if unit.replace(tok.start, tok.end, f"__cass_{tok.text}"):
            unit.shims.add("surfaces")
            unit.report("CASS060", tok.start, tok.end,
                        f"`{tok.text}` -> `__cass_{tok.text}` (helper emitted: HIP's converts "
                        "each component through float by value, CUDA moves the raw bits)")  # fmt: skip
