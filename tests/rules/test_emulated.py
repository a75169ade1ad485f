"""The helpers the port emits for HIP 5.2 compute what CUDA computes: a CUDA program using every
warp intrinsic HIP 5.2 lacks is ported, built with clang-16 for gfx1100 and run on cass's RDNA3
emulator; each lane's results are compared with CUDA's semantics computed here."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from cass.models.engine import Target
from cass.models.rules import port_unit

PROGRAM = Path(__file__).parent / "programs" / "warp_helpers.cu"

pytestmark = pytest.mark.toolchain


def cuda_expected(lane: int) -> list[int]:
    """The 12 values lane `lane` of a 32-thread block prints under CUDA."""
    same_key = sum(1 for other in range(32) if other % 5 == lane % 5)
    tile = range(16) if lane < 16 else range(16, 32)
    return [
        same_key,
        16,
        sum(range(32)),
        100 - 31,
        31 * 3,
        1,
        1,
        lane ^ 1,
        1 + 2 + 3 + 4 + 10,
        sum(tile),
        lane // 16,
        2,
    ]


def test_ported_warp_helpers_match_cuda_on_the_emulator(tmp_path):
    unit = port_unit(PROGRAM.read_text(), PROGRAM.name, Target())
    assert not [d for d in unit.diagnostics if d.severity.value == "error"]
    for helper in (
        "__cass_match_any_sync",
        "__cass_reduce_add_sync",
        "__cass_syncwarp",
        "__cass_dp4a",
        "__cass_cg_reduce",
        "__cass_meta_group_rank",
    ):
        assert helper in unit.render()
    port = tmp_path / "warp_helpers.hip"
    port.write_text(unit.render())
    proc = subprocess.run(
        [sys.executable, "-m", "cass.server.cli", "run-hip", str(port)],
        check=False,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    rows = [list(map(int, line.split())) for line in proc.stdout.splitlines() if line.strip()]
    assert rows == [cuda_expected(lane) for lane in range(32)]
