"""cass's reference hipBLAS (runner/emulated_libraries/hipblas.hip) on the emulator, against
numpy: levels 1-3 in float and double, strided-batched GEMM, GemmEx with f16 data, device pointer
mode and argument checks. Inputs are multiples of 1/8, so every result except nrm2 is exact."""

from pathlib import Path

import numpy as np
import pytest
from cass.runner import emulated_libraries, rocm_api_headers
from cass.runner.emulator import build_hip_program, run_program

PROGRAM = Path(__file__).parent / "programs" / "hipblas_reference.hip"
pytestmark = pytest.mark.skipif(
    rocm_api_headers.installed() is None,
    reason=f"hipBLAS headers not installed: {rocm_api_headers.FIX}",
)


def values(n: int, seed: int) -> np.ndarray:
    i = np.arange(n)
    return ((i * 37 + seed * 11) % 19 - 9) / 8.0


def colmajor(flat: np.ndarray, rows: int, cols: int) -> np.ndarray:
    return flat[: rows * cols].reshape(cols, rows).T


def flat(mat: np.ndarray) -> np.ndarray:
    return mat.T.ravel()


def expected(prefix: str) -> dict[str, np.ndarray]:
    n, m, k, c, batch = 37, 5, 7, 6, 3
    x, y = values(n, 1), values(n, 2)
    out = {}
    y = y + 1.5 * x
    out["axpy"] = y.copy()
    out["dot"], out["nrm2"] = np.array([x @ y]), np.array([np.linalg.norm(x)])
    out["asum"], out["amax"] = np.array([np.abs(x).sum()]), np.array([np.argmax(np.abs(x)) + 1])
    x[0:36:3] *= 1.5
    out["scal"] = x.copy()
    A, B, C = values(m * k * batch, 3), values(k * c * batch, 4), values(m * c * batch, 5)
    y[:m] = 1.5 * colmajor(A, m, k) @ x[:k] - 0.5 * y[:m]
    out["gemvN"] = y[:m].copy()
    y[:k] = 1.5 * colmajor(A, m, k).T @ x[0 : 2 * m : 2] - 0.5 * y[:k]
    out["gemvT"] = y[:k].copy()
    C[: m * c] = flat(1.5 * colmajor(A, m, k) @ colmajor(B, k, c) - 0.5 * colmajor(C, m, c))
    out["gemmNN"] = C[: m * c].copy()
    C[: m * c] = flat(1.5 * colmajor(A, k, m).T @ colmajor(B, c, k).T)
    out["gemmTT"] = C[: m * c].copy()
    for b in range(batch):
        a_b, b_b = colmajor(A[b * m * k :], m, k), colmajor(B[b * k * c :], c, k)
        c_b = colmajor(C[b * m * c :], m, c)
        C[b * m * c : (b + 1) * m * c] = flat(1.5 * a_b @ b_b.T - 0.5 * c_b)
    out["gemmStridedBatched"] = C
    return {prefix + key: value for key, value in out.items()}


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> dict[str, list[str]]:
    exe = build_hip_program(PROGRAM, tmp_path_factory.mktemp("hipblas") / "prog")
    run = run_program(exe, timeout_s=300)
    assert run.exit_code == 0, run.stdout + run.stderr
    return {line.split()[0]: line.split()[1:] for line in run.stdout.splitlines() if line.strip()}


@pytest.mark.parametrize("prefix", ["s", "d"])
def test_levels_1_to_3_match_numpy(results, prefix):
    for name, want in expected(prefix).items():
        got = np.array([float(v) for v in results[name]])
        assert got.shape == want.shape, name
        if name.endswith("nrm2"):
            np.testing.assert_allclose(got, want, rtol=1e-6 if prefix == "s" else 1e-14)
        else:
            np.testing.assert_array_equal(got, want, err_msg=name)


def test_gemm_ex_half_data_and_device_pointer_mode(results):
    a, b = colmajor(values(20, 6), 4, 5), colmajor(values(15, 7), 5, 3)
    np.testing.assert_array_equal([float(v) for v in results["gemmEx16"]], flat(2 * a @ b))
    dx = values(20, 6) * 0.5
    assert float(results["devicedot"][0]) == dx @ dx
    assert results["status"] == ["HIPBLAS_STATUS_INVALID_VALUE"]


def test_a_program_needs_the_reference_only_when_it_includes_hipblas():
    assert [r.library for r in emulated_libraries.needed('#include "hipblas/hipblas.h"\n')] == [
        "hipBLAS"
    ]
    assert emulated_libraries.needed("// #include <hipblas.h> mentioned\n#include <cmath>\n") == ()
