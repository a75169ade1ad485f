"""CUDA compiler and version macros: `__CUDA_ARCH__`, `CUDA_VERSION`, `__NVCC__`, ...

HIP-Clang defines none of them, so under a plain rename `#if __CUDA_ARCH__ >= 700` would drop a
device block silently. `__CUDA_ARCH__` becomes a test of `__HIP_DEVICE_COMPILE__` compared as
the CUDA capability `CUDA_ARCH_EQUIVALENT`; version macros get the CUDA API level cass maps from.
CUDA's header guards (`#ifdef __DRIVER_TYPES_H__`, `CUBLAS_API_H_`, `CURAND_H_` ...), which
helper headers test to decide what to define, become the guards of the HIP headers the port
includes (`tables/guards.tsv`); a CUDA-looking guard the table lacks is reported.
"""

from __future__ import annotations

import operator
import re

from cass.models.rules.tables import MappingEntry, guard_table
from cass.models.rules.unit import Unit

CUDA_ARCH_EQUIVALENT = 800  # the CUDA capability whose features AMD targets provide (sm_80)
CUDA_API_LEVEL = 12000  # the CUDA runtime API level the tables map from
ARCH_EXPRESSION = f"(defined(__HIP_DEVICE_COMPILE__) ? {CUDA_ARCH_EQUIVALENT} : 0)"

_VERSION_MACROS = frozenset(("CUDA_VERSION", "CUDART_VERSION"))
_COMPILER_MACROS = frozenset(("__NVCC__", "__CUDACC__"))
_CONDITIONALS = frozenset(("if", "elif", "ifdef", "ifndef", "elifdef", "elifndef"))
_COMPARE = {
    ">=": operator.ge,
    ">": operator.gt,
    "<=": operator.le,
    "<": operator.lt,
    "==": operator.eq,
    "!=": operator.ne,
}


def _directive_kind(unit: Unit, tok_index: int) -> str:
    """'if', 'ifdef', 'define', ... for a token inside a directive ('' outside directives)."""
    tok = unit.code[tok_index]
    if tok.pp == -1:
        return ""
    first = unit.lexed.directives[tok.pp][0]
    return unit.code[first + 1].text if first + 1 < len(unit.code) else ""


def _after_defined(unit: Unit, i: int) -> bool:
    return unit.prev_text(i) == "defined" or (
        unit.prev_text(i) == "(" and unit.prev_text(i, 2) == "defined"
    )


def _check_arch_comparison(unit: Unit, i: int) -> None:
    """Warn when `__CUDA_ARCH__ OP N` is false on the AMD device pass (its block is skipped)."""
    op, value = unit.next_text(i), unit.next_text(i, 2).rstrip("uUlL")
    if op not in _COMPARE or not value.isdigit():
        return
    if not _COMPARE[op](CUDA_ARCH_EQUIVALENT, int(value)):
        tok = unit.code[i]
        unit.report(
            "CASS041",
            tok.start,
            unit.code[i + 2].end,
            f"`__CUDA_ARCH__ {op} {value}` is false on AMD devices (treated as sm_"
            f"{CUDA_ARCH_EQUIVALENT // 10}): the device block it guards is skipped; make sure "
            "another branch provides the device code",
        )


def _rewrite_arch(unit: Unit, i: int, kind: str) -> None:
    tok = unit.code[i]
    if kind in ("ifdef", "ifndef", "elifdef", "elifndef") or _after_defined(unit, i):
        unit.replace(tok.start, tok.end, "__HIP_DEVICE_COMPILE__")
        message = "`__CUDA_ARCH__` (defined in device passes) -> `__HIP_DEVICE_COMPILE__`"
    elif kind:
        unit.replace(tok.start, tok.end, ARCH_EXPRESSION)
        _check_arch_comparison(unit, i)
        message = (
            f"`__CUDA_ARCH__` -> `{ARCH_EXPRESSION}` (sm_{CUDA_ARCH_EQUIVALENT // 10} equivalent)"
        )
    elif unit.in_device(i):
        unit.replace(tok.start, tok.end, str(CUDA_ARCH_EQUIVALENT))
        message = f"`__CUDA_ARCH__` in device code -> {CUDA_ARCH_EQUIVALENT}"
    else:
        unit.replace(tok.start, tok.end, "0")
        message = "`__CUDA_ARCH__` in host code is undefined under CUDA too -> 0"
    unit.report("CASS040", tok.start, tok.end, message)


def _rewrite_version(unit: Unit, i: int, kind: str) -> None:
    tok = unit.code[i]
    if kind in ("ifdef", "ifndef"):
        keyword = unit.code[i - 1]
        value = "1" if kind == "ifdef" else "0"
        unit.replace(keyword.start, tok.end, f"if {value}")
    elif _after_defined(unit, i):
        start = unit.code[i - 1] if unit.prev_text(i) == "defined" else unit.code[i - 2]
        end = unit.code[i + 1] if unit.prev_text(i) == "(" and unit.next_text(i) == ")" else tok
        unit.replace(start.start, end.end, "1")
    else:
        unit.replace(tok.start, tok.end, str(CUDA_API_LEVEL))
    unit.report(
        "CASS042",
        tok.start,
        tok.end,
        f"`{tok.text}` does not exist under HIP; it now reads as {CUDA_API_LEVEL} (the CUDA API "
        "level cass maps from), so version checks keep choosing the CUDA 12 branch",
    )


def rewrite_cuda_macros(unit: Unit) -> None:
    for i in unit.positions(("__CUDA_ARCH__", *_VERSION_MACROS, *_COMPILER_MACROS)):
        tok = unit.code[i]
        text = tok.text
        if text == "__CUDA_ARCH__":
            kind = _directive_kind(unit, i)
            if kind in _CONDITIONALS or kind == "":
                _rewrite_arch(unit, i, kind)
        elif text in _VERSION_MACROS:
            kind = _directive_kind(unit, i)
            if kind != "define" and kind != "undef":
                _rewrite_version(unit, i, kind)
        elif text in _COMPILER_MACROS and _directive_kind(unit, i) not in ("define", "undef"):
            unit.replace(tok.start, tok.end, "__HIP__")
            unit.report(
                "CASS043", tok.start, tok.end, f"`{text}` -> `__HIP__` (defined by HIP-Clang)"
            )


# ---------------------------------------------------------------- header guards

_GUARD_LIKE = re.compile(
    r"_*(cuda|cu_|cublas|cufft|curand|cusparse|cusolver|cudnn|nvrtc|nccl|npp|nv_npp|nvjpeg|nvtx|cupti)"
    r"\w*_H_*",
    re.IGNORECASE,
)
_GUARD_CONDITIONALS = frozenset(("if", "elif", "ifdef", "ifndef", "elifdef", "elifndef"))


def _defined_here(unit: Unit) -> set[str]:
    """Macros this file `#define`s itself (its own include guard, say): never CUDA's."""
    code, found = unit.code, set()
    for first, last in unit.lexed.directives:
        if last - first >= 2 and code[first + 1].text == "define":
            found.add(code[first + 2].text)
    return found


def _replace_guard_value(unit: Unit, i: int, kind: str, value: str) -> None:
    tok = unit.code[i]
    truth = "1" if value not in ("0", "") else "0"
    if kind in ("ifdef", "ifndef", "elifdef", "elifndef"):
        keyword = unit.code[i - 1]
        negate = "!" if kind.endswith("ndef") else ""
        word = "if" if kind.startswith("if") else "elif"
        unit.replace(keyword.start, tok.end, f"{word} {negate}{truth}")
    elif _after_defined(unit, i):
        start = unit.code[i - 1] if unit.prev_text(i) == "defined" else unit.code[i - 2]
        end = unit.code[i + 1] if unit.prev_text(i) == "(" and unit.next_text(i) == ")" else tok
        unit.replace(start.start, end.end, truth)
    else:
        unit.replace(tok.start, tok.end, value)


def _map_guard(unit: Unit, i: int, kind: str, entry: MappingEntry) -> None:
    tok = unit.code[i]
    if entry.status == "unsupported":
        unit.report(
            "CASS078",
            tok.start,
            tok.end,
            f"`{tok.text}` (a CUDA header's guard) has no HIP equivalent: {entry.note}; the code "
            "it guards now reads as if that header were not included",
        )
        return
    if entry.hip.isidentifier():
        unit.replace(tok.start, tok.end, entry.hip)
        told = f"`{entry.hip}`, the guard of the HIP header the port includes"
    else:
        _replace_guard_value(unit, i, kind, entry.hip)
        told = f"{entry.hip}"
    detail = entry.note[len("differs: ") :] if entry.note.startswith("differs: ") else ""
    unit.report(
        "CASS077",
        tok.start,
        tok.end,
        f"`{tok.text}` -> {told}" + (f" ({detail})" if detail else ""),
    )


def rewrite_header_guards(unit: Unit) -> None:
    """CUDA header guards tested in `#if`/`#ifdef`/`defined()` become HIP's (or a value)."""
    table, own = guard_table(), None
    for first, last in unit.lexed.directives:
        texts = unit.lexed.texts
        if last - first < 2 or texts[first + 1] not in _GUARD_CONDITIONALS:
            continue
        kind = texts[first + 1]
        for i in range(first + 2, last + 1):
            tok = unit.code[i]
            if tok.kind != "ident" or unit.is_edited(tok):
                continue
            entry = table.get(tok.text)
            if entry is not None:
                _map_guard(unit, i, kind, entry)
            elif _GUARD_LIKE.fullmatch(tok.text):
                own = _defined_here(unit) if own is None else own
                if tok.text not in own:
                    unit.report(
                        "CASS078",
                        tok.start,
                        tok.end,
                        f"`{tok.text}` looks like a CUDA header's guard, which no HIP header "
                        "defines: the code it guards now reads as if that header were not "
                        "included; test the HIP header's guard instead",
                    )
