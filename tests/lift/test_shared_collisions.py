"""Lanes of one warp writing the same shared counter in one instruction (the warp-synchronous
counting of Rodinia's hybridsort and the CUDA SDK's histograms): one lane's write stays, the others
read it back and try again. Lifted from sm_80 and sm_90 SASS, the program counts every lane once
on the RDNA3 emulator, as its own check and a Python count say (and as the H200 prints: "counts 38
30 30 29 18 8 8 9 17 9 8 8 17 9 9 9", "ranks distinct")."""

from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


def expected_lines() -> list[str]:
    bins = [(i * 7 + i // 5) % 16 // (4 if i % 3 == 0 else 1) for i in range(256)]
    return ["counts " + " ".join(str(bins.count(b)) for b in range(16)), "ranks distinct"]


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_colliding_lanes_are_each_counted_once(arch: str, tmp_path: Path, build_lifted) -> None:
    from cass.models.lift.inputs import disassemble
    from cass.runner.emulator import run_program

    program = build_lifted(DATA / "tagged_counts.cu", arch, tmp_path)
    sass = disassemble(tmp_path / "tagged_counts.cubin", None)
    assert "STS" in sass and "LDS" in sass
    run = run_program(program)
    assert run.exit_code == 0, run.stderr
    assert run.stdout.splitlines() == expected_lines()
