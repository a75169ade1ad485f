"""The CUDA examples on a real NVIDIA GPU: each prints the same output twice and ends CHECK PASS.

Runs where `nvidia-smi` lists a GPU (e.g. `pytest -m gpu tests/foundation` on an H200); skips
elsewhere.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from cass.runner import toolchain
from cass.runner.compile import compile_file

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
NAMES = ("vector_add", "reduce_shared", "templated_scale", "two_kernels", "constant_poly")
NVIDIA = [g for g in toolchain.detect_gpus() if g.vendor == "nvidia"]


@pytest.mark.gpu
@pytest.mark.skipif(not NVIDIA, reason="no NVIDIA GPU on this machine")
@pytest.mark.parametrize("name", NAMES)
def test_cuda_example_passes_on_the_local_gpu(tmp_path, name):
    result = compile_file(EXAMPLES / f"{name}.cu", ["exe"], arch=NVIDIA[0].arch, out_dir=tmp_path)
    exe = str(result.artifacts["exe"])
    runs = [subprocess.run([exe], capture_output=True, text=True, timeout=120) for _ in range(2)]
    assert runs[0].returncode == 0, runs[0].stdout + runs[0].stderr
    assert runs[0].stdout.rstrip().endswith("CHECK PASS")
    assert runs[0].stdout == runs[1].stdout
