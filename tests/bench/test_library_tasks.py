"""The library bench tasks (cuBLAS, cuFFT, cuRAND, cuSOLVER, cuSPARSE, WMMA, NVRTC, NVTX, cuDNN;
recorded on the H200)
are well-formed tasks, every library family has at least two, and ports by the rules engine verify end
to end with `cass verify`: a cuBLAS and a cuSPARSE program run on the emulator with cass's
reference implementations and match their NVIDIA records; the cuRAND device-API program matches
its record's statistics within the tolerance its task declares."""

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
    "linear_algebra/cusolver_lu_batch_solve": "cusolver",
    "linear_algebra/cusolver_cholesky_qr_eigen": "cusolver",
    "sparse_linear_algebra/cusparse_spmv_generic_cg": "cusparse",
    "sparse_linear_algebra/cusparse_spmm_banded": "cusparse",
    "signal_processing/cufft_2d_r2c_lowpass": "cufft",
    "monte_carlo/curand_device_pi": "curand",
    "linear_algebra/wmma_hgemm_tiled": "wmma",
    "ml_operators/wmma_attention_block": "wmma",
    "numerical_methods/nvrtc_templated_axpy_reduce": "nvrtc",
    "linear_algebra/nvrtc_specialized_matmul": "nvrtc",
    "image_processing/nvtx_annotated_edge_pipeline": "nvtx",
    "statistics/nvtx_streamed_moments": "nvtx",
    "ml_operators/cudnn_conv_bias_relu_pool": "cudnn",
    "ml_operators/cudnn_bn_softmax_conv_grad": "cudnn",
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


def test_every_library_family_has_two_recorded_tasks():
    families = [LIBRARY_TASKS[t] for t in LIBRARY_TASKS]
    assert {f: families.count(f) for f in families} == {
        "cublas": 3,
        "cufft": 2,
        "curand": 2,
        "cusolver": 2,
        "cusparse": 2,
        "wmma": 2,
        "nvrtc": 2,
        "nvtx": 2,
        "cudnn": 2,
    }


@pytest.mark.slow
@pytest.mark.skipif(rocm_api_headers.installed() is None, reason=rocm_api_headers.FIX)
@pytest.mark.parametrize(
    "task,note",
    [
        ("sparse_linear_algebra/cusparse_spmm_banded", "hipSPARSE ran as"),
        ("monte_carlo/curand_device_pi", "atol=0.02"),  # statistics, not cuRAND's numbers
        ("numerical_methods/nvrtc_templated_axpy_reduce", "hipRTC ran in the emulator runtime"),
        ("image_processing/nvtx_annotated_edge_pipeline", "roctx ran as"),
        ("ml_operators/cudnn_bn_softmax_conv_grad", "MIOpen ran as"),
    ],
)
def test_library_ports_verify_end_to_end(capsys, task, note):
    assert main(["verify", str(ROOT / task / "main.cu"), "--port-backend", "emulator"]) == 0
    captured = capsys.readouterr()
    out = captured.out + captured.err  # the port's diagnostics are on stderr
    assert "MATCH" in out and "MISMATCH" not in out and note in out
