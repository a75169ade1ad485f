"""The lifter's gfx1100 code generation avoids LLVM 16's AMDGPU defects, as the emulator's builds do."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from cass.models.lift.targets import AMDGCN

DATA = Path(__file__).parent / "data"


def test_llc_for_gfx1100_turns_off_the_exec_mask_fold() -> None:
    assert "-amdgpu-opt-exec-mask-pre-ra=false" in AMDGCN.llc_args


def test_newton_loop_around_an_inner_loop_finds_every_gauss_legendre_node(
    tmp_path: Path, build_lifted
) -> None:
    from cass.runner.emulator import run_program

    program = build_lifted(
        DATA / "newton_kernels.cu", "sm_90", tmp_path, host=DATA / "newton_host.hip"
    )
    run = run_program(program)
    assert run.exit_code == 0, run.stderr
    nodes: dict[int, list[tuple[float, float]]] = {}
    for line in run.stdout.splitlines():  # "n i x w": node i of order n, 8 threads per order
        n, i, x, w = line.split()
        if int(i) < int(n):
            nodes.setdefault(int(n), []).append((float(x), float(w)))
    assert sorted(nodes) == list(range(2, 10))
    for n, found in nodes.items():  # thread i converges to the i-th root from the top
        roots, weights = np.polynomial.legendre.leggauss(n)
        expected = sorted(zip(roots, weights), reverse=True)[: len(found)]
        assert np.allclose(found, expected, rtol=0, atol=1e-12), (n, found, expected)
