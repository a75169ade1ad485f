"""LOP3/PLOP3 truth tables: every one of the 256 is lowered (Shannon expansion on the first
input, two-input halves) to and/or/xor IR whose value, evaluated bit by bit on the three
inputs' patterns, is the table itself, for 32-bit words and for predicates; the general case
costs at most eight operations instead of a sum of minterms."""

from __future__ import annotations

import re

import pytest
from cass.models.lift.emit import Emitter
from cass.models.lift.params import ParamLayout
from cass.models.lift.sem_int import lut3
from cass.models.lift.targets import AMDGCN

OP = re.compile(r"^  (%\w+) = (and|or|xor) (i32|i1) (\S+), (\S+)$")


def evaluate(body: list[str], result: str, inputs: dict[str, int], mask: int) -> int:
    """The value of `result` after the emitted lines (and/or/xor only), on `mask`-wide words."""
    values = dict(inputs)
    consts = {"0": 0, "-1": mask, "false": 0, "true": mask}

    def value(name: str) -> int:
        return values[name] if name in values else consts[name]

    for line in body:
        m = OP.match(line)
        assert m, f"unexpected line {line!r}"
        x, y = value(m.group(4)), value(m.group(5))
        values[m.group(1)] = {"and": x & y, "or": x | y, "xor": x ^ y}[m.group(2)]
    return value(result) & mask


@pytest.mark.parametrize("ty", ["i32", "i1"])
def test_every_truth_table_computes_itself(ty: str) -> None:
    # bit i of the patterns is input combination i = (a << 2) | (b << 1) | c
    patterns = {"%a": 0xF0, "%b": 0xCC, "%c": 0xAA}
    longest = 0
    for lut in range(256):
        e = Emitter(AMDGCN, ParamLayout(0x210, ()))
        result = lut3(e, "%a", "%b", "%c", lut, ty)
        assert evaluate(e.body, result, patterns, 0xFF) == lut, f"table {lut:#04x}"
        longest = max(longest, len(e.body))
    assert longest <= 8
