"""VOP3 op_sel on 16-bit instructions: one flag per source operand as written, then the
destination's. A two-source `v_add_nc_u16 ... op_sel:[0,0,1]` writes the high half (the
interpreter used to read a fourth flag there and wrote the low half); the JIT agrees."""

from __future__ import annotations

from pathlib import Path

import pytest
from cass.server.cli import main

pytestmark = pytest.mark.toolchain

PROGRAM = Path(__file__).with_name("programs") / "op_sel_high_half.hip"


@pytest.mark.parametrize("engine", ["interp", "both"])
def test_a_two_source_16bit_result_lands_in_the_high_half(engine, capsys):
    assert main(["run-hip", str(PROGRAM), "--engine", engine]) == 0
    out = capsys.readouterr().out
    assert "00080004 00100008 CHECK PASS" in out
