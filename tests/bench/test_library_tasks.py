"""The library bench tasks (cuBLAS, cuFFT, cuRAND; recorded on the H200) are well-formed tasks,
and a cuBLAS one ported by the rules engine verifies end to end with `cass verify`: the port runs on
the emulator with cass's reference hipBLAS and matches the NVIDIA record."""

import tomllib
from pathlib import Path

import pytest
from cass.models.bench.catalog import FEATURES, LIBRARIES
from cass.runner import rocm_api_headers
from cass.server.cli import main

ROOT = Path(__file__).resolve().parents[2] / "models" / "bench" / "tasks"
LIBRARY_TASKS = {
    "linear_algebra/cublas_gemm_family": "cublas",
    "linear_algebra/cublas_cg_solver": "cublas",
    "linear_algebra/cublas_level1_vectors": "cublas",
    "signal_processing/cufft_spectra_roundtrip": "cufft",
    "monte_carlo/curand_host_generators": "curand",
}


@pytest.mark.parametrize("task", LIBRARY_TASKS)
def test_each_library_task_is_a_recorded_task(task):
    folder = ROOT / task
    meta = tomllib.loads((folder / "task.toml").read_text())
    assert meta["name"] == folder.name and meta["domain"] == folder.parent.name
    assert set(meta["features"]) <= FEATURES and LIBRARY_TASKS[task] in meta["libraries"]
    assert set(meta["libraries"]) <= LIBRARIES.keys()
    assert '"CHECK PASS' in (folder / "main.cu").read_text()
    assert 'gpu = "NVIDIA H200"' in (folder / "main.cu.recorded.toml").read_text()


@pytest.mark.slow
@pytest.mark.skipif(rocm_api_headers.installed() is None, reason=rocm_api_headers.FIX)
def test_a_cublas_program_verifies_end_to_end_against_its_h200_record(capsys):
    source = ROOT / "linear_algebra" / "cublas_level1_vectors" / "main.cu"
    assert main(["verify", str(source), "--port-backend", "emulator"]) == 0
    out = capsys.readouterr().out
    assert "MATCH" in out and "MISMATCH" not in out
    assert "cass's reference implementations for emulated verification" in out
