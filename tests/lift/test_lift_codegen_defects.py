"""The lifter's gfx1100 code generation avoids LLVM 16's AMDGPU defects, as the emulator's builds do."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from cass.models.lift.elfinfo import read_cubin
from cass.models.lift.inputs import disassemble
from cass.models.lift.pipeline import lift_sass
from cass.models.lift.targets import AMDGCN

DATA = Path(__file__).parent / "data"
NVCC = Path("/usr/local/cuda/bin/nvcc")
needs_nvcc = pytest.mark.skipif(not (NVCC.exists() or shutil.which("nvcc")), reason="nvcc is not installed")


def test_llc_for_gfx1100_turns_off_the_exec_mask_fold() -> None:
    assert "-amdgpu-opt-exec-mask-pre-ra=false" in AMDGCN.llc_args


@needs_nvcc
def test_newton_loop_around_an_inner_loop_finds_every_gauss_legendre_node(tmp_path: Path) -> None:
    from cass.models.bench.assembly import build_with_device_code
    from cass.runner.emulator import run_program

    cubin = tmp_path / "newton.cubin"
    nvcc = str(NVCC) if NVCC.exists() else "nvcc"
    subprocess.run([nvcc, "-cubin", "-O3", "-arch=sm_90", "-o", str(cubin), str(DATA / "newton_kernels.cu")],
                   check=True, timeout=300, capture_output=True)  # fmt: skip
    result = lift_sass(disassemble(cubin, None), path=str(cubin), arch="sm_90", cubin=read_cubin(cubin.read_bytes()))
    assert result.ok, [d.render() for d in result.diagnostics]
    assembly = tmp_path / "device.s"
    assembly.write_text(result.assembly)
    run = run_program(build_with_device_code(DATA / "newton_host.hip", assembly, tmp_path))
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
