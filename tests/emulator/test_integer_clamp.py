"""VOP3 clamp on integer adds and subtracts saturates (unsigned to [0, 2^32-1], signed to the
int32 range) instead of wrapping. The interpreter wrapped: clang folds repeated
`x > k ? x - k : 0` into one `v_subrev_nc_u32 ... clamp`, and two generated dataset programs
failed their own check on the emulator. The JIT hands clamped integer ops to the interpreter."""

from __future__ import annotations

from pathlib import Path

import pytest
from cass.server.cli import main

pytestmark = pytest.mark.toolchain

PROGRAM = Path(__file__).with_name("programs") / "integer_clamp.hip"


@pytest.mark.parametrize("engine", ["interp", "both"])
def test_integer_clamp_saturates(engine, capsys):
    assert main(["run-hip", str(PROGRAM), "--engine", engine]) == 0
    assert "0 2147483647 CHECK PASS" in capsys.readouterr().out
