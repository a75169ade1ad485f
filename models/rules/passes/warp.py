"""Warp intrinsics by target HIP version, with 64-bit masks and ballots never truncated.

- HIP < 6.2 has no `*_sync` intrinsics: shuffles/votes become the mask-free forms (`__shfl_xor`,
  `__ballot`, ...) when the mask is the full warp, or a ballot ANDed with the mask otherwise;
  `__match_*_sync`, `__reduce_*_sync` and `__syncwarp` become cass helpers (see shims.py).
- HIP 6.2 .. 6.x has them behind `HIP_ENABLE_WARP_SYNC_BUILTINS` (defined before the include),
  7.0+ by default; both `static_assert` a 64-bit mask, so 32-bit masks are widened.
- A 32-bit variable declared to receive a ballot becomes `unsigned long long`; `__popc`/`__ffs`
  on it become `__popcll`/`__ffsll`.
"""

from __future__ import annotations

import re

from cass.models.rules.tables import parse_version
from cass.models.rules.unit import Unit

FULL_MASK_64 = "0xffffffffffffffffull"
SHUFFLES = {
    "__shfl_sync": "__shfl",
    "__shfl_up_sync": "__shfl_up",
    "__shfl_down_sync": "__shfl_down",
    "__shfl_xor_sync": "__shfl_xor",
}
VOTES = {"__ballot_sync": "__ballot", "__any_sync": "__any", "__all_sync": "__all"}
PARTIAL_VOTES = {
    "__ballot_sync": "(__ballot({arg}) & ({mask}))",
    "__any_sync": "((__ballot({arg}) & ({mask})) != 0)",
    "__all_sync": "((__ballot({arg}) & ({mask})) == ({mask}))",
}
MATCHES = ("__match_any_sync", "__match_all_sync")
REDUCES = tuple(f"__reduce_{op}_sync" for op in ("add", "min", "max", "and", "or", "xor"))
BALLOT_PRODUCERS = frozenset(("__ballot_sync", "__activemask", "__ballot", *MATCHES))
WARP_NAMES = frozenset((*SHUFFLES, *VOTES, *MATCHES, *REDUCES, "__activemask", "__syncwarp"))
_TYPES_32 = frozenset(("unsigned", "int", "uint32_t", "uint", "int32_t", "long"))
_FULL = re.compile(
    r"^(?:0x(?:ffffffff){1,2}|-1|~0|~0x0|\(unsigned(?:int)?\)-1|__activemask\(\)|__ballot\(1\))$"
)


def _object_macros(unit: Unit) -> dict[str, str]:
    """`#define NAME value` and `const[expr] T NAME = value;` with a single-token value."""
    code, found = unit.code, {}
    for first, last in unit.lexed.directives:
        if last - first == 3 and code[first + 1].text == "define":
            found[code[first + 2].text] = code[last].text
    for k in unit.positions(("const", "constexpr")):
        i = next(
            (j for j in range(k + 1, min(k + 6, len(code))) if code[j].text in ("=", ";", "(")),
            None,
        )
        if i is not None and code[i].text == "=" and unit.next_text(i, 2) == ";":
            found[code[i - 1].text] = code[i + 1].text
    return found


class WarpRewriter:
    def __init__(self, unit: Unit) -> None:
        self.unit = unit
        version = parse_version(unit.target.hip_version)
        self.native_sync = version >= (6, 2)
        self.native_late = version >= (7, 0)  # __syncwarp, __reduce_*_sync
        self.macros = _object_macros(unit)
        self.widened: set[str] = set()

    # ------------------------------------------------------------ masks

    def is_full(self, text: str) -> bool:
        """Is the mask expression the whole warp (a literal, a macro for one, __activemask())?"""
        text = re.sub(r"\s+", "", text)
        text = re.sub(r"\s+", "", self.macros.get(text, text)).lower()
        text = re.sub(r"\b(0x[0-9a-f]+|\d+)[ul]+\b", r"\1", text)
        while text.startswith("(") and text.endswith(")") and text.count("(") == 1:
            text = text[1:-1]
        return bool(_FULL.match(text))

    def widen_mask(self, span: tuple[int, int]) -> None:
        """Make the mask argument a 64-bit value (HIP 6.2+ static_asserts it)."""
        unit, text = self.unit, self.unit.arg_text(span)
        first, last = unit.code[span[0]], unit.code[span[1]]
        if self.is_full(text):
            if "activemask" not in text and "ballot" not in text:
                unit.replace(first.start, last.end, FULL_MASK_64)
            return
        unit.insert(first.start, "static_cast<unsigned long long>(")
        unit.insert(last.end, ")")

    def note_partial(self, i: int, mask: str) -> None:
        tok = self.unit.code[i]
        detail = (
            "HIP 5.2's intrinsics act on the active lanes: faithful only if exactly these lanes "
            "are active"
            if not self.native_sync
            else "HIP requires the named lanes to call together from one branch (no independent "
            "thread scheduling)"
        )
        self.unit.report(
            "CASS021", tok.start, tok.end, f"`{tok.text}` with mask `{mask}`: {detail}"
        )

    # ------------------------------------------------------------ rewrites

    def rewrite(self, i: int) -> None:
        unit = self.unit
        name = unit.code[i].text
        parsed = unit.call_args(i + 1)
        if parsed is None:
            return
        args, close = parsed
        if name == "__activemask":
            self.rewrite_activemask(i, close)
        elif name == "__syncwarp":
            if args and not self.is_full(unit.arg_text(args[0])):
                self.note_partial(i, unit.arg_text(args[0]))
            self.rewrite_syncwarp(i, close)
        elif len(args) >= 2 and (name in SHUFFLES or name in VOTES):
            self.rewrite_shuffle_or_vote(i, args, close)
        elif len(args) >= 2 and (name in MATCHES or name in REDUCES):
            self.rewrite_helper_call(i, args)
        self.check_ballot_width(i)

    def rewrite_activemask(self, i: int, close: int) -> None:
        if self.native_sync:
            return self.enable_builtins()
        self.replace_span(i, close, "__ballot(1)", "`__activemask()` -> `__ballot(1)` (64-bit)")

    def rewrite_syncwarp(self, i: int, close: int) -> None:
        if self.native_late:
            return
        self.unit.shims.add("syncwarp")
        self.replace_span(
            i,
            close,
            "__cass_syncwarp()",
            "`__syncwarp` -> `__cass_syncwarp()` (wavefront fence + wave barrier)",
        )

    def rewrite_shuffle_or_vote(self, i: int, args: list[tuple[int, int]], close: int) -> None:
        unit, name = self.unit, self.unit.code[i].text
        mask = unit.arg_text(args[0])
        if self.native_sync:
            self.widen_mask(args[0])
            self.enable_builtins()
            return self.note(
                i, f"`{name}` kept (native in HIP {unit.target.hip_version}) with a 64-bit mask"
            )
        full = self.is_full(mask)
        if not full:
            self.note_partial(i, mask)
        if name in SHUFFLES or full:
            new = SHUFFLES.get(name) or VOTES[name]
            unit.replace(unit.code[i].start, unit.code[args[1][0]].start, f"{new}(")
            return self.note(
                i, f"`{name}` -> `{new}` (HIP {unit.target.hip_version} has no *_sync)"
            )
        template = PARTIAL_VOTES[name]
        head, tail = template.split("{arg}")
        unit.replace(unit.code[i].start, unit.code[args[1][0]].start, head)
        unit.replace(unit.code[close].start, unit.code[close].end, tail.format(mask=mask))
        self.note(i, f"`{name}` -> ballot masked with `{mask}`")

    def rewrite_helper_call(self, i: int, args: list[tuple[int, int]]) -> None:
        unit, name = self.unit, self.unit.code[i].text
        native = self.native_sync if name in MATCHES else self.native_late
        self.widen_mask(args[0])
        if native:
            self.enable_builtins()
            return
        unit.shims.add("match" if name in MATCHES else "reduce")
        tok = unit.code[i]
        unit.replace(tok.start, tok.end, "__cass" + name[1:])
        self.note(
            i,
            f"`{name}` -> `__cass{name[1:]}` (helper emitted: HIP {unit.target.hip_version} lacks it)",
        )

    def replace_span(self, i: int, close: int, text: str, message: str) -> None:
        if self.unit.replace(self.unit.code[i].start, self.unit.code[close].end, text):
            self.note(i, message)

    def note(self, i: int, message: str) -> None:
        tok = self.unit.code[i]
        self.unit.report("CASS020", tok.start, tok.end, message)

    def enable_builtins(self) -> None:
        name = "HIP_ENABLE_WARP_SYNC_BUILTINS"
        if not self.native_late and name not in self.unit.defines and name not in self.unit.text:
            self.unit.defines.append(name)

    # ------------------------------------------------------------ ballot widths

    def check_ballot_width(self, i: int) -> None:
        """`unsigned m = __ballot_sync(...)` -> `unsigned long long m = ...`."""
        unit, code = self.unit, self.unit.code
        if code[i].text not in BALLOT_PRODUCERS or unit.prev_text(i) != "=" or i < 3:
            return
        var, j = code[i - 2], i - 3
        while j >= 0 and code[j].text in _TYPES_32 | {"const"}:
            j -= 1
        types = [t for t in code[j + 1 : i - 2] if t.text != "const"]
        if var.kind != "ident" or any(t.text == "long" for t in types):
            return
        if not types:
            if var.text not in self.widened and unit.target.wave_size == 64:
                unit.report(
                    "CASS023",
                    code[i].start,
                    code[i].end,
                    f"`{var.text}` receives a 64-bit ballot; declare it `unsigned long long`",
                )
            return
        if unit.replace(types[0].start, types[-1].end, "unsigned long long"):
            self.widened.add(var.text)
            unit.report(
                "CASS022",
                types[0].start,
                var.end,
                f"`{var.text}` widened to `unsigned long long` (HIP ballots are 64-bit)",
                fix=(
                    f"Declare `{var.text}` unsigned long long (holds a 32-bit ballot too)",
                    "unsigned long long" + unit.text[types[-1].end : var.end],
                ),
            )

    def widen_bit_counts(self) -> None:
        """`__popc(m)` / `__ffs(m)` on a widened mask or a ballot -> `__popcll` / `__ffsll`."""
        unit = self.unit
        for i in unit.positions(("__popc", "__ffs")):
            tok = unit.code[i]
            if unit.next_text(i) != "(":
                continue
            parsed = unit.call_args(i + 1)
            if parsed is None or len(parsed[0]) != 1:
                continue
            span = parsed[0][0]
            inner = {unit.code[k].text for k in range(span[0], span[1] + 1)}
            if inner & (self.widened | BALLOT_PRODUCERS):
                unit.replace(tok.start, tok.end, tok.text + "ll")


def rewrite_warp_intrinsics(unit: Unit) -> None:
    if not (WARP_NAMES | {"__ballot"}) & unit.index.keys():
        return
    rewriter = WarpRewriter(unit)
    for i in unit.positions(WARP_NAMES | {"__ballot"}):
        tok = unit.code[i]
        if tok.text in WARP_NAMES and unit.next_text(i) == "(":
            if not unit.is_edited(tok):
                rewriter.rewrite(i)
        elif tok.text == "__ballot" and unit.next_text(i) == "(":
            rewriter.check_ballot_width(i)
    rewriter.widen_bit_counts()
