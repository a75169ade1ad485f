"""Warp-size assumptions in device code: correct as written on wave32 (RDNA), not on wave64.

For wave64 targets (gfx9xx) lane arithmetic (`tid & 31`, `% 32`, `/ 32`, `>> 5`), shuffle trees
that start at 16 and `1u << lane` are rewritten in terms of `warpSize`; per-lane `[32]` arrays
and unrolled 16-first shuffle sequences are reported at their line. wave32 targets need nothing.
"""

from __future__ import annotations

import re

from cass.models.rules.unit import Unit
from cass.runner.diagnostics import Severity

LANE_ARITHMETIC = {
    ("&", "31"): "& (warpSize - 1)",
    ("%", "32"): "% warpSize",
    ("/", "32"): "/ warpSize",
    (">>", "5"): "/ warpSize",
}
_LANE_NAME = re.compile(r"(?i)(tid|thread|lane|idx|^x$|^i$|^t$)")
SHUFFLE_NAMES = frozenset(
    (
        "__shfl_down_sync",
        "__shfl_xor_sync",
        "__shfl_down",
        "__shfl_xor",
        "__shfl_up_sync",
        "__shfl_up",
    )
)


def _number(text: str) -> str:
    return re.sub(r"[uUlL]+$", "", text)


def _left_operand_is_lane_like(unit: Unit, i: int) -> bool:
    """Is the operand before the operator at `i` a thread/lane index (`threadIdx.x`, `tid`, `(...)`)?"""
    prev = unit.code[i - 1] if i else None
    if prev is None:
        return False
    if prev.text == ")":
        return True
    return prev.kind == "ident" and bool(_LANE_NAME.search(prev.text))


def _lane_arithmetic(unit: Unit, i: int) -> None:
    tok, nxt = unit.code[i], unit.code[i + 1]
    key = (tok.text, _number(nxt.text))
    if (
        key in LANE_ARITHMETIC
        and _left_operand_is_lane_like(unit, i)
        and unit.next_text(i, 2) != "."
        and unit.replace(tok.start, nxt.end, LANE_ARITHMETIC[key])
    ):
        unit.report(
            "CASS030",
            tok.start,
            nxt.end,
            f"`{tok.text} {nxt.text}` assumes 32 lanes -> `{LANE_ARITHMETIC[key]}` for wave64",
            fix=("Use warpSize (32 on NVIDIA, so CUDA behaves the same)", LANE_ARITHMETIC[key]),
        )


def _shuffle_tree_start(unit: Unit, i: int) -> None:
    """`for (int offset = 16; ...)` whose body shuffles: start at warpSize / 2."""
    code = unit.code
    if unit.prev_text(i) != "=" or _number(code[i].text) != "16":
        return
    j = i - 1
    while j > 0 and code[j].text not in ("(", ";", "{", "}"):
        j -= 1
    if code[j].text != "(" or unit.prev_text(j) != "for":
        return
    close = unit.matching(j)
    if close is None:
        return
    end = unit.matching(close + 1) if unit.next_text(close) == "{" else close + 12
    body = {t.text for t in code[close + 1 : (end or close) + 1]}
    if body & SHUFFLE_NAMES and unit.replace(code[i].start, code[i].end, "warpSize / 2"):
        unit.report(
            "CASS030",
            code[i].start,
            code[i].end,
            "shuffle tree starts at 16 (32 lanes) -> `warpSize / 2` for wave64",
            fix=("Start the shuffle tree at warpSize / 2 (16 on NVIDIA)", "warpSize / 2"),
        )


def _report_fixed_arrays(unit: Unit, i: int) -> None:
    """`__shared__ T s[32]` indexed per lane: too small on wave64."""
    code = unit.code
    if code[i].text != "[" or _number(unit.next_text(i)) != "32" or unit.next_text(i, 2) != "]":
        return
    if any(code[j].text == "__shared__" for j in range(max(0, i - 5), i)):
        unit.report(
            "CASS031",
            code[i - 1].start,
            code[i + 2].end,
            f"`{code[i - 1].text}[32]` sized by a 32-lane warp: if it holds one entry per lane it is "
            "too small on wave64; size it with warpSize (64 is safe for both)",
            severity=Severity.WARNING,
        )


def _one_shifted_by_lane(unit: Unit, i: int) -> None:
    """`1u << lane` overflows 32 bits for lanes 32..63."""
    tok, prev = unit.code[i], unit.code[i - 1] if i else None
    if tok.text != "<<" or prev is None or _number(prev.text) != "1" or "ll" in prev.text.lower():
        return  # `1ull << lane` is 64-bit already
    rhs = unit.code[i + 1]
    if (
        rhs.kind == "ident"
        and re.search(r"(?i)lane", rhs.text)
        and unit.replace(prev.start, prev.end, "1ull")
    ):
        unit.report(
            "CASS030",
            prev.start,
            rhs.end,
            f"`{prev.text} << {rhs.text}` -> `1ull << {rhs.text}` "
            "(lane masks are 64-bit on wave64)",
            fix=("Shift a 64-bit one", "1ull" + unit.text[prev.end : rhs.end]),
        )
        _widen_declaration(unit, i - 1)


_TYPES_32 = frozenset(("unsigned", "int", "uint32_t", "uint", "const"))


def _widen_declaration(unit: Unit, first: int) -> None:
    """`unsigned m = (1ull << lane) - 1;`: the variable holding a lane mask becomes 64-bit."""
    code, j = unit.code, first - 1
    while j > 0 and code[j].text == "(":
        j -= 1
    if code[j].text != "=" or j < 2 or code[j - 1].kind != "ident":
        return
    k = j - 2
    while k >= 0 and code[k].text in _TYPES_32:
        k -= 1
    types = [t for t in code[k + 1 : j - 1] if t.text != "const"]
    if types and unit.replace(types[0].start, types[-1].end, "unsigned long long"):
        unit.report(
            "CASS030",
            types[0].start,
            code[j - 1].end,
            f"`{code[j - 1].text}` holds a lane mask: widened to `unsigned long long` for wave64",
            fix=(
                f"Declare `{code[j - 1].text}` unsigned long long",
                "unsigned long long" + unit.text[types[-1].end : code[j - 1].end],
            ),
        )


def rewrite_warp_size_assumptions(unit: Unit) -> None:
    if unit.target.wave_size == 32:
        return
    code = unit.code
    for lo, hi in unit.device_ranges():
        for i in range(lo + 1, hi):
            tok = code[i]
            if tok.kind == "punct" and i + 1 < hi:
                _lane_arithmetic(unit, i)
                _one_shifted_by_lane(unit, i)
                _report_fixed_arrays(unit, i)
            elif tok.kind == "number":
                _shuffle_tree_start(unit, i)
    _report_unrolled_trees(unit)


def _report_unrolled_trees(unit: Unit) -> None:
    """`__shfl_down_sync(m, v, 16)` outside a loop: the tree misses lanes 32..63 on wave64."""
    code = unit.code
    for i in unit.positions(SHUFFLE_NAMES):
        tok = code[i]
        if unit.next_text(i) == "(" and unit.in_device(i):
            parsed = unit.call_args(i + 1)
            delta = 2 if tok.text.endswith("_sync") else 1
            if (
                parsed
                and len(parsed[0]) > delta
                and _number(unit.arg_text(parsed[0][delta])) == "16"
            ):
                unit.report(
                    "CASS031",
                    tok.start,
                    code[parsed[1]].end,
                    f"`{tok.text}(..., 16)` starts a 32-lane reduction tree; on wave64 add a step at 32 "
                    "or loop from warpSize / 2",
                )
