"""v_cls_i32 / s_cls_i32 count the leading bits equal to the sign bit, as the position of the
first bit that differs (-1 when all are the sign bit). clang normalises a 64-bit integer
converted to float with them: the vector count was one short (so (float)x was wrong for
|x| >= 2^62) and the scalar one was not implemented. Interpreter and JIT agree."""

from __future__ import annotations

from pathlib import Path

import pytest
from cass.server.cli import main

pytestmark = pytest.mark.toolchain

PROGRAM = Path(__file__).with_name("programs") / "sign_bits.hip"


@pytest.mark.parametrize("engine", ["interp", "both"])
def test_sign_bit_counts_and_int64_to_float(engine, capsys):
    assert main(["run-hip", str(PROGRAM), "--engine", engine]) == 0
    out = capsys.readouterr().out
    assert "1 1 CHECK PASS" in out
