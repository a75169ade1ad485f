"""Renaming by the mapping tables: identifiers, the `cub::` namespace, and `#include`s."""

from __future__ import annotations

import re
from functools import cache

from cass.models.rules.lexer import KINDS, Token
from cass.models.rules.tables import MappingEntry, family_table, header_entry, name_table
from cass.models.rules.unit import Unit

_CUDA_PREFIX = re.compile(r"^(cuda|cu[A-Z]|CU[A-Z_]|cublas|curand|cufft|cusparse|cusolver|nccl)")
_NAMESPACE_RENAMES = {"cub": "hipcub"}
_USER_QUALIFIERS_OK = frozenset(("cub", "hipcub"))


def _is_user_scoped(unit: Unit, i: int) -> bool:
    """`obj.cudaMalloc`, `p->cudaMalloc`, `mylib::cudaMalloc` belong to user code."""
    prev = unit.prev_text(i)
    if prev in (".", "->"):
        return True
    return (
        prev == "::"
        and i >= 2
        and unit.code[i - 2].kind == "ident"
        and unit.code[i - 2].text not in _USER_QUALIFIERS_OK
    )


def needs_newer(unit: Unit, tok: Token, entry: MappingEntry) -> None:
    code = "CASS074" if tok.text.startswith("__nv_") else "CASS011"
    unit.report(
        code,
        tok.start,
        tok.end,
        f"`{tok.text}` maps to `{entry.hip}`, which needs HIP {entry.since} (target is HIP "
        f"{unit.target.hip_version}); port with --hip-version {entry.since} or rewrite it"
        + (f" ({entry.note})" if entry.note else ""),
    )


def _rename_one(
    unit: Unit, tok: Token, entry: MappingEntry, reported: set[tuple[str, int]]
) -> None:
    if entry.status == "unsupported":
        key = (tok.text, unit.position(tok.start)[0])
        if key not in reported:
            reported.add(key)
            detail = f": {entry.note}" if entry.note else ""
            unit.report(
                "CASS010", tok.start, tok.end, f"`{tok.text}` has no HIP equivalent{detail}"
            )
        return
    if not entry.available_in(unit.target.hip_version):
        if entry.status == "supported":
            needs_newer(unit, tok, entry)
        return
    renamed = bool(entry.hip) and entry.hip != tok.text
    if renamed:
        unit.replace(tok.start, tok.end, entry.hip)
    if entry.hip and entry.note.startswith("differs: "):  # a kept name can differ too
        what = f"`{tok.text}` -> `{entry.hip}`" if renamed else f"`{tok.text}`"
        unit.report("CASS012", tok.start, tok.end, f"{what}: {entry.note[len('differs: ') :]}")


def _check_namespace_member(unit: Unit, i: int, reported: set[tuple[str, int]]) -> None:
    """`cub::X` keeps its name in hipCUB unless the CUB table says X has no hipCUB counterpart
    (reported as an error) or only a newer one than the target's (reported with the version)."""
    if unit.next_text(i) != "::" or i + 2 >= len(unit.code):
        return
    member = unit.code[i + 2]
    entry = family_table("cub").get(f"cub::{member.text}")
    if entry is None:
        return
    if entry.available_in(unit.target.hip_version):
        if entry.note.startswith("differs: "):
            note = entry.note[len("differs: ") :]
            unit.report("CASS012", member.start, member.end, f"`cub::{member.text}`: {note}")
        return
    if entry.status == "unsupported":
        key = (f"cub::{member.text}", unit.position(member.start)[0])
        if key not in reported:
            reported.add(key)
            unit.report(
                "CASS010",
                member.start,
                member.end,
                f"`cub::{member.text}` has no HIP equivalent: {entry.note or 'not in hipCUB'}",
            )
    else:
        needs_newer(unit, member, entry)


IDENT = KINDS.index("ident")
_ERROR_CODE = re.compile(r"^(?:cudaError[A-Z]\w*|CUDA_ERROR_[A-Z0-9_]+)$")
# hipError_t's enumerators run from 0 to hipErrorTbd (1054 in HIP 5.2 to 7.x), so its values are
# 0..2047 (C++ [dcl.enum]); an error code HIP lacks is given one of the unused values at the top
HIP_ERROR_TOP = 2047


@cache
def _missing_error_codes() -> dict[str, int]:
    """Each CUDA error enumerator the tables list without a HIP counterpart in every HIP version,
    or with one only in some: a value of hipError_t's range that no HIP version uses."""
    names = sorted(n for n, e in name_table().items()
                   if _ERROR_CODE.match(n) and (e.status == "unsupported" or e.since))  # fmt: skip
    return {name: HIP_ERROR_TOP - k for k, name in enumerate(names)}


def _unreturned_error_case(unit: Unit, i: int, entry: MappingEntry) -> bool:
    """`case cudaErrorX:` where the target HIP has no counterpart of cudaErrorX: no HIP call
    returns it, so the case never matches on HIP; its label becomes a value of hipError_t no HIP
    version uses (CASS094), which keeps a switch over error codes (CUDA Samples' helper_cuda.h
    names dozens) compiling with every other case as it was. True when rewritten so."""
    tok = unit.code[i]
    if entry.available_in(unit.target.hip_version) or not _ERROR_CODE.match(tok.text):
        return False
    if unit.prev_text(i) != "case" or unit.next_text(i) != ":":
        return False
    value = _missing_error_codes().get(tok.text)
    if value is None:
        return False
    later = f" (HIP {entry.since} has `{entry.hip}`)" if entry.since and entry.hip else ""
    unit.replace(tok.start, tok.end, f"static_cast<hipError_t>({value})")
    unit.report("CASS094", tok.start, tok.end,
                f"`{tok.text}` has no counterpart in HIP {unit.target.hip_version}{later}: no HIP "
                f"call returns it, so this case never matches; its label is {value}, a hipError_t "
                "value HIP does not use")  # fmt: skip
    return True


def rename_identifiers(unit: Unit) -> None:
    """Every identifier found in the tables becomes its HIP name (or is reported)."""
    table, reported = name_table(), set()
    code = unit.code
    names = [n for n in unit.index if n in table or n in _NAMESPACE_RENAMES]
    for i in unit.positions(names):
        if code.kinds[i] != IDENT:
            continue
        tok = code[i]
        text = tok.text
        if text in _NAMESPACE_RENAMES and (
            unit.next_text(i) == "::" or unit.prev_text(i) == "namespace"
        ):
            if not unit.is_edited(tok):
                unit.replace(tok.start, tok.end, _NAMESPACE_RENAMES[text])
                _check_namespace_member(unit, i, reported)
            continue
        entry = table.get(text)
        if entry is None or unit.is_edited(tok) or _is_user_scoped(unit, i):
            continue
        if not _unreturned_error_case(unit, i, entry):
            _rename_one(unit, tok, entry, reported)


def report_token_pasting(unit: Unit) -> None:
    """`#define API(n) cuda##n` builds CUDA names no lexer can see."""
    code = unit.code
    for i in unit.positions(("##",)):
        tok = code[i]
        if tok.pp == -1:
            continue
        left = code[i - 1] if i else tok
        if left.kind == "ident" and _CUDA_PREFIX.match(left.text):
            unit.report(
                "CASS013",
                left.start,
                tok.end,
                f"`{left.text}##...` builds CUDA names by token pasting; cass cannot translate "
                "the names it produces: spell them out",
            )


# ---------------------------------------------------------------- headers


def _include_target(unit: Unit, first: int, last: int) -> Token | None:
    """The header-name token of an `#include` directive spanning code[first..last], or None."""
    code = unit.code
    if last - first < 2 or code.texts[first + 1] not in ("include", "include_next"):
        return None
    tok = code[first + 2]
    return tok if tok.kind in ("header", "string") else None


# CUDA's graphics-interop headers and the prefixes of the names they declare
INTEROP_HEADERS = {
    "cuda_gl_interop.h": ("cudaGL", "cudaGraphicsGL", "cudaWGL"),
    "cuda_egl_interop.h": ("cudaEGL", "cudaGraphicsEGL"),
    "cuda_vdpau_interop.h": ("cudaVDPAU", "cudaGraphicsVDPAU"),
    "cuda_d3d9_interop.h": ("cudaD3D9", "cudaGraphicsD3D9"),
    "cuda_d3d10_interop.h": ("cudaD3D10", "cudaGraphicsD3D10"),
    "cuda_d3d11_interop.h": ("cudaD3D11", "cudaGraphicsD3D11"),
}


def _unused_interop(unit: Unit, name: str) -> bool:
    """Whether `name` is a graphics-interop header of which the file names nothing."""
    prefixes = INTEROP_HEADERS.get(name)
    return prefixes is not None and not any(n.startswith(prefixes) for n in unit.index)


def map_headers(unit: Unit) -> None:
    """CUDA headers become HIP headers; libcu++, mma.h and friends are reported."""
    for first, last in unit.lexed.directives:
        tok = _include_target(unit, first, last)
        if tok is None:
            continue
        name, opener, closer = tok.text[1:-1], tok.text[0], tok.text[-1]
        entry = header_entry(name)
        if entry is None:
            if name.startswith("cuda/"):
                unit.report(
                    "CASS072",
                    tok.start,
                    tok.end,
                    f"<{name}> is libcu++, which HIP does not provide",
                )
            continue
        if entry.status == "unsupported" and _unused_interop(unit, name):
            unit.replace(unit.code[first].start, unit.code[last].end,
                         f"// <{name}> removed: no HIP equivalent, and nothing here uses it")  # fmt: skip
            unit.report("CASS095", tok.start, tok.end,
                        f"<{name}> has no HIP equivalent and this file calls none of its "
                        "functions: the include is removed")  # fmt: skip
        elif entry.status == "unsupported":
            code = (
                "CASS073"
                if name == "mma.h"
                else "CASS072"
                if name.startswith("cuda/")
                else "CASS014"
            )
            unit.report(code, tok.start, tok.end, f"<{name}> has no HIP equivalent: {entry.note}")
        elif not entry.available_in(unit.target.hip_version):
            needs_newer(unit, tok, entry)
        else:
            unit.replace(tok.start, tok.end, f"{opener}{entry.hip}{closer}")
