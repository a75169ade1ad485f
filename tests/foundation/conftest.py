"""Shared fixtures: the bundled examples, compiled once per test session with the real compilers."""

from __future__ import annotations

from pathlib import Path

import pytest
from cass.runner.compile import CompileResult, compile_file

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
EXAMPLE_NAMES = ("vector_add", "reduce_shared", "templated_scale", "two_kernels", "constant_poly")


@pytest.fixture(scope="session")
def cuda_builds(tmp_path_factory) -> dict[str, CompileResult]:
    """Every CUDA example compiled for sm_80 to SASS (with the per-kernel manifest)."""
    out = tmp_path_factory.mktemp("cuda")
    return {
        name: compile_file(
            EXAMPLES / f"{name}.cu", ["sass"], arch="sm_80", out_dir=out, kernels=True
        )
        for name in EXAMPLE_NAMES
    }


@pytest.fixture(scope="session")
def hip_builds(tmp_path_factory) -> dict[str, CompileResult]:
    """Every HIP example compiled for gfx1100 to RDNA3 assembly and a code object."""
    out = tmp_path_factory.mktemp("hip")
    return {
        name: compile_file(
            EXAMPLES / f"{name}.hip", ["rdna3", "code-object"], out_dir=out, kernels=True
        )
        for name in EXAMPLE_NAMES
    }
