"""Renaming by the mapping tables: identifiers, the `cub::` namespace, and `#include`s."""

from __future__ import annotations

import re

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
        if entry.status == "unsupported":
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
