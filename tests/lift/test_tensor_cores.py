"""Tensor-core instructions (`HMMA.16816` with f16/bf16 inputs and f16/f32 accumulators,
`LDSM.16.M88/MT88` x1/x2/x4, `MOVM.16.MT88`) lifted as per-lane arithmetic over the warp's
fragments (models/lift/sem_mma.py): PTX mma.sync, ldmatrix and movmatrix programs lifted from
sm_80 and sm_90 SASS run on the RDNA3 emulator and print what a Python model of the PTX fragment
layouts gives (the H200 prints the same: benchmarks/results/mma-kernels-h200.txt); another
shape is a located error."""

from __future__ import annotations

from pathlib import Path

import pytest
from cass.models.lift.pipeline import lift_sass

DATA = Path(__file__).parent / "data"


def _matrices() -> tuple[list[list[int]], list[list[int]], list[list[int]]]:
    a = [[(i * 5 + 3) % 7 - 3 for i in range(r * 16, r * 16 + 16)] for r in range(16)]
    b = [[(i * 5 + 1) % 9 - 4 for i in range(k * 8, k * 8 + 8)] for k in range(16)]
    c = [[(i * 3) % 11 - 5 for i in range(r * 8, r * 8 + 8)] for r in range(16)]
    return a, b, c


def _word(lo: int, hi: int) -> int:
    return lo | hi << 16


def expected_lines() -> list[str]:
    a, b, c = _matrices()
    d = [c[r][n] + sum(a[r][k] * b[k][n] for k in range(16)) for r in range(16) for n in range(8)]
    lines = [f"{name} " + " ".join(map(str, d)) for name in ("mma_f32", "mma_bf16", "mma_f16")]
    m = [[[1000 * i + 10 * r + col for col in range(8)] for r in range(8)] for i in range(4)]
    for mode, count in (("ldmatrix_x4", 4), ("ldmatrix_x2", 2), ("ldmatrix_x1", 1)):
        words = [_word(m[i][lane >> 2][2 * (lane & 3)], m[i][lane >> 2][2 * (lane & 3) + 1])
                 if i < count else 0 for lane in range(32) for i in range(4)]  # fmt: skip
        lines.append(f"{mode} " + " ".join(map(str, words)))
    trans = [_word(m[i][2 * (lane & 3)][lane >> 2], m[i][2 * (lane & 3) + 1][lane >> 2])
             for lane in range(32) for i in range(4)]  # fmt: skip
    lines.append("ldmatrix_x4_trans " + " ".join(map(str, trans)))
    moved = [_word(10 * (2 * (lane & 3)) + (lane >> 2), 10 * (2 * (lane & 3) + 1) + (lane >> 2))
             for lane in range(32)]  # fmt: skip
    lines.append("movmatrix " + " ".join(map(str, moved)))
    return lines


def test_the_recorded_h200_output_is_the_model() -> None:
    recorded = (Path(__file__).parents[2] / "benchmarks/results/mma-kernels-h200.txt").read_text()
    assert recorded.splitlines() == expected_lines()


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_tensor_core_programs_run_as_the_ptx_fragment_layouts_say(
    arch: str, tmp_path: Path, build_lifted
) -> None:
    from cass.models.lift.inputs import disassemble
    from cass.runner.emulator import run_program

    program = build_lifted(DATA / "mma_kernels.cu", arch, tmp_path)
    sass = disassemble(tmp_path / "mma_kernels.cubin", None)
    for form in ("HMMA.16816.F32 ", "HMMA.16816.F32.BF16", "HMMA.16816.F16", "LDSM.16.M88.4",
                 "LDSM.16.M88.2", "LDSM.16.M88 ", "LDSM.16.MT88.4", "MOVM.16.MT88"):  # fmt: skip
        assert form in sass, form
    run = run_program(program)
    assert run.exit_code == 0, run.stderr
    assert run.stdout.splitlines() == expected_lines()


def test_another_mma_shape_is_a_located_error() -> None:
    text = ("\tcode for sm_90\n\t\tFunction : k\n"
            "        /*0000*/  HMMA.1688.F32.TF32 R4, R8, R12, R4 ;\n        /*0010*/  EXIT ;\n")  # fmt: skip
    result = lift_sass(text, path="k.sass", arch="sm_90", compile=False)
    assert not result.ok
    assert "k.sass:3" in result.diagnostics[0].render()
    assert "m16n8k16" in result.diagnostics[0].message
