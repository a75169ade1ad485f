"""CUDA compiler and version macros: `__CUDA_ARCH__`, `CUDA_VERSION`, `__NVCC__`, ...

HIP-Clang defines none of them, so under a plain rename `#if __CUDA_ARCH__ >= 700` would drop a
device block silently. `__CUDA_ARCH__` becomes a test of `__HIP_DEVICE_COMPILE__` compared as
the CUDA capability `CUDA_ARCH_EQUIVALENT`; version macros get the CUDA API level cass maps from.
"""

from __future__ import annotations

import operator

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
