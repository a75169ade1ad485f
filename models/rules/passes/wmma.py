"""`nvcuda::wmma` (mma.h) -> rocWMMA, where the target has it (`tables/wmma.tsv`).

rocWMMA keeps nvcuda::wmma's calls (fragment, fill_fragment, load/store_matrix_sync, mma_sync,
the layout and matrix tags), so the namespace is what changes: `nvcuda::wmma` -> `rocwmma`,
`using namespace nvcuda;` -> `namespace wmma = rocwmma;` (the code's `wmma::` then stays), and
`<mma.h>` -> `<rocwmma/rocwmma.hpp>`. What rocWMMA cannot do is an error at its use (CASS073):
a target it does not support in the target ROCm (RDNA3 only from rocWMMA 1.0, ROCm 5.5), and
fragment shapes or element types it lacks there. On wave64 targets a fragment belongs to a
64-lane wavefront where CUDA's belongs to a 32-thread warp (CASS087).
"""

from __future__ import annotations

from cass.models.rules.tables import family_table, parse_version
from cass.models.rules.unit import Unit

# gfx arch -> first ROCm whose rocWMMA supports it. rocWMMA's CHANGELOG.md (ROCm/rocWMMA at
# 030e8038): 0.7 for ROCm 5.2.0 is the first release (MFMA only: the CDNA gfx908/gfx90a), 1.0 for
# ROCm 5.5.0 "added support for wave32 on gfx11+", 1.3.0 for ROCm 6.0.0 added gfx940/941/942 and
# xfloat32. gfx1200/1201 (6.4) and gfx950/gfx1151 (7.0): rocWMMA's packaged target lists.
ROCWMMA_SINCE = {
    "gfx908": "5.2",
    "gfx90a": "5.2",
    "gfx940": "6.0",
    "gfx941": "6.0",
    "gfx942": "6.0",
    "gfx1100": "5.5",
    "gfx1101": "5.5",
    "gfx1102": "5.5",
    "gfx1200": "6.4",
    "gfx1201": "6.4",
    "gfx950": "7.0",
    "gfx1151": "7.0",
}
_XF32 = ("gfx940", "gfx941", "gfx942")
_INPUT_TYPES = {
    "half": "",
    "__half": "",
    "signed char": "",
    "unsigned char": "",
    "int8_t": "",
    "uint8_t": "",
    "char": "",
    "__nv_bfloat16": "rocWMMA's bf16 input is rocwmma::bfloat16_t (hip_bfloat16): declare the "
    "data and the fragment with it",
}
_ACCUMULATOR_TYPES = ("float", "half", "__half", "int", "int32_t")


def _uses_wmma(unit: Unit) -> list[int]:
    """Indices of `nvcuda` / `wmma` tokens that name the namespace."""
    found = []
    for i in unit.positions(("nvcuda", "wmma")):
        tok = unit.code[i]
        if tok.kind != "ident" or tok.pp != -1:
            continue
        if unit.next_text(i) == "::" and unit.prev_text(i) != "::":
            found.append(i)
        elif tok.text == "nvcuda" and unit.prev_text(i) == "namespace":
            found.append(i)
    return found


def _mma_include(unit: Unit):
    for first, last in unit.lexed.directives:
        code = unit.code
        if last - first >= 2 and code[first + 1].text == "include":
            tok = code[first + 2]
            if tok.kind in ("header", "string") and tok.text[1:-1] == "mma.h":
                return tok
    return None


def _target_problem(unit: Unit) -> str:
    arch, version = unit.target.gfx_arch, unit.target.hip_version
    since = ROCWMMA_SINCE.get(arch)
    if since is None:
        return (
            f"rocWMMA does not support {arch} (no matrix cores it drives; targets: "
            f"{', '.join(ROCWMMA_SINCE)}): port for one of them or rewrite without wmma"
        )
    if parse_version(version) < parse_version(since):
        emulated = (
            " (`cass verify --hip-version` too: without an AMD GPU the port runs on the emulator "
            "with cass's reference rocWMMA)"
            if arch.startswith("gfx11")
            else ""
        )
        return (
            f"rocWMMA supports {arch} from ROCm {since} (target is HIP {version}): port with "
            f"--hip-version {since} or later{emulated}"
        )
    return ""


def _template_args(unit: Unit, open_index: int) -> tuple[list[str], int] | None:
    """Texts of the `<...>` arguments starting at code[open_index] (`<`), and the closer."""
    depth, args, start, i = 0, [], open_index + 1, open_index
    code = unit.code
    while i < len(code):
        text = code[i].text
        if text in ("(", "[", "{"):
            i = unit.matching(i) or i
        elif text == "<":
            depth += 1
        elif text in (">", ">>"):
            depth -= len(text)
            if depth <= 0:
                args.append(unit.text[code[start].start : code[i - 1].end].strip())
                return args, i
        elif text == "," and depth == 1:
            args.append(unit.text[code[start].start : code[i - 1].end].strip())
            start = i + 1
        elif text in (";", "{", "}"):
            return None
        i += 1
    return None


def _shape_problem(unit: Unit, args: list[str]) -> str:
    """Why rocWMMA has no such fragment on the target ('' when it has)."""
    if len(args) < 5:
        return ""
    matrix = args[0].rsplit("::", 1)[-1]
    shape = tuple(a.strip() for a in args[1:4])
    elem = args[4].split("::")[-1].strip()
    arch = unit.target.gfx_arch
    if not all(s.isdigit() for s in shape):
        return ""  # not literals: rocWMMA checks at compile time
    m, n, k = (int(s) for s in shape)
    if "tf32" in args[4]:
        if arch in _XF32 and (m, n, k) == (16, 16, 8):
            return ""
        return f"tf32 fragments: rocWMMA's xfloat32_t runs on gfx940-942 only (target {arch})"
    if (m, n, k) != (16, 16, 16):
        return (
            f"fragment shape {m}x{n}x{k}: rocWMMA blocks are 16x16 (or 32x32 on gfx9); the "
            "16x16x16 shape is the one both have: tile the problem with it"
        )
    if elem in ("double", "s4", "u4", "b1") or args[4].endswith(("precision::s4", "precision::u4")):
        return f"`{args[4]}` elements: no rocWMMA {m}x{n}x{k} fragment of that type on {arch}"
    if matrix == "accumulator" and elem not in _ACCUMULATOR_TYPES:
        return f"accumulator of `{args[4]}`: rocWMMA accumulates in float, half or int32"
    return ""


def _check_fragments(unit: Unit) -> None:
    for i in unit.positions(("fragment",)):
        if unit.next_text(i) != "<" or unit.prev_text(i) != "::":
            continue
        found = _template_args(unit, i + 1)
        if found is None:
            continue
        args, close = found
        tok, last = unit.code[i], unit.code[close]
        problem = _shape_problem(unit, args)
        if problem:
            unit.report(
                "CASS073", tok.start, last.end, f"wmma::fragment<{', '.join(args)}>: " + problem
            )
        elif len(args) >= 5 and _INPUT_TYPES.get(args[4].strip()):
            unit.report("CASS087", tok.start, last.end, _INPUT_TYPES[args[4].strip()])


def _check_members(unit: Unit, uses: list[int]) -> None:
    rows, seen = family_table("wmma"), set()
    for i in uses:
        j = i + 2 if unit.code[i].text == "wmma" else i + 4
        if unit.code[i].text == "nvcuda" and unit.next_text(i, 2) != "wmma":
            continue
        member = unit.code[j] if j < len(unit.code) else None
        if member is not None and member.text == "precision" and _xfloat32(unit, i, j):
            continue
        entry = rows.get(member.text) if member is not None else None
        if entry is not None and entry.status == "unsupported" and member is not None:
            line = unit.position(member.start)[0]
            if line not in seen:
                seen.add(line)
                unit.report(
                    "CASS073", member.start, member.end, f"`wmma::{member.text}`: " + entry.note
                )


def _xfloat32(unit: Unit, first: int, j: int) -> bool:
    """`wmma::precision::tf32` -> `rocwmma::xfloat32_t` where the target has it."""
    if unit.next_text(j) != "::" or unit.next_text(j, 2) != "tf32":
        return False
    if unit.target.gfx_arch not in _XF32:
        return False
    return unit.replace(unit.code[first].start, unit.code[j + 2].end, "rocwmma::xfloat32_t")


def _rename(unit: Unit, uses: list[int]) -> None:
    code = unit.code
    for i in uses:
        tok = code[i]
        if unit.is_edited(tok):
            continue
        if tok.text == "wmma":  # `wmma::` under the namespace alias: unchanged, but ported
            unit.replace(tok.start, tok.end, tok.text)
            continue
        if unit.prev_text(i) == "namespace" and unit.prev_text(i, 2) == "using":
            if unit.next_text(i) == ";":  # using namespace nvcuda;
                unit.replace(code[i - 2].start, code[i + 1].end, "namespace wmma = rocwmma;")
        elif unit.next_text(i, 2) == "wmma":
            unit.replace(tok.start, code[i + 2].end, "rocwmma")


def port_wmma(unit: Unit) -> None:
    """nvcuda::wmma -> rocWMMA where the target has it; what it cannot have is reported."""
    uses = _uses_wmma(unit)
    include = _mma_include(unit)
    if not uses and include is None:
        return
    problem = _target_problem(unit)
    if problem:
        taken = [include, *(unit.code[i] for i in uses)]
        for tok in taken:  # left as they are: the port keeps CUDA's wmma, reported once
            if tok is not None:
                unit.replace(tok.start, tok.end, tok.text)
        reported = [tok for tok in taken if tok is not None][: 2 if include else 1]
        for tok in reported:
            where = "<mma.h>" if tok is include else "nvcuda::wmma (every use in this file)"
            unit.report("CASS073", tok.start, tok.end, f"{where}: {problem}")
        return
    if include is not None:
        unit.replace(include.start, include.end, "<rocwmma/rocwmma.hpp>")
    _check_fragments(unit)
    _check_members(unit, uses)
    _rename(unit, uses)
    if unit.target.gfx_arch.startswith("gfx9") and uses:
        tok = unit.code[uses[0]]
        unit.report(
            "CASS087",
            tok.start,
            tok.end,
            f"{unit.target.gfx_arch} is wave64: each "
            "rocWMMA fragment belongs to a 64-lane wavefront (a CUDA warp is 32 threads): "
            "block sizes and warp indices computed with 32 must use 64 (warpSize)",
        )
