"""cass's reference hipSOLVER (runner/emulated_libraries/hipsolver.hip) on the emulator, against
scipy.linalg (LAPACK): LU with partial pivoting (the same pivots), getrs with A and A^T, devInfo
for a zero pivot and a matrix that is not positive definite, Cholesky in both triangles, potrs,
Householder QR (the same reflectors and tau as LAPACK's dgeqrf), ormqr from the left and the
right, orgqr, and symmetric eigenvalues with their vectors (up to sign)."""

from pathlib import Path

import numpy as np
import pytest
import scipy.linalg as la
from cass.runner import emulated_libraries, rocm_api_headers
from cass.runner.emulator import build_hip_program, run_program

PROGRAM = Path(__file__).parent / "programs" / "hipsolver_reference.hip"
pytestmark = pytest.mark.skipif(
    rocm_api_headers.installed() is None,
    reason=f"hipSOLVER headers not installed: {rocm_api_headers.FIX}",
)


def gen(rows: int, cols: int, seed: int) -> np.ndarray:
    i, j = np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")
    return ((7 * i + 13 * j + 5 * seed) % 17 - 8) / 4.0


def spd(n: int, seed: int) -> np.ndarray:
    g = gen(n, n, seed)
    return g.T @ g + n * np.eye(n)


def colmajor(values: np.ndarray, rows: int, cols: int) -> np.ndarray:
    return values.reshape(cols, rows).T


@pytest.fixture(scope="module")
def out(tmp_path_factory) -> dict[str, np.ndarray]:
    exe = build_hip_program(PROGRAM, tmp_path_factory.mktemp("hipsolver") / "prog")
    run = run_program(exe, timeout_s=300)
    assert run.exit_code == 0, run.stdout + run.stderr
    lines = (line.split() for line in run.stdout.splitlines())
    return {words[0]: np.array([float(w) for w in words[1:]]) for words in lines}


def test_lu_pivots_solves_and_reports_a_zero_pivot(out):
    a = gen(6, 6, 1)
    lu, piv = la.lu_factor(a)
    np.testing.assert_allclose(colmajor(out["getrf_lu"], 6, 6), lu, atol=1e-13)
    np.testing.assert_array_equal(out["getrf_ipiv"], piv + 1)
    assert out["getrf_info"][0] == 0
    b = gen(6, 2, 2)
    np.testing.assert_allclose(colmajor(out["getrs_n"], 6, 2), np.linalg.solve(a, b), atol=1e-12)
    np.testing.assert_allclose(colmajor(out["getrs_t"], 6, 2), np.linalg.solve(a.T, b), atol=1e-12)
    assert out["getrf_singular_info"][0] == 3  # U(3, 3) = 0, 1-based
    assert out["getrf_bad_lda"][0] == 3  # HIPSOLVER_STATUS_INVALID_VALUE


def test_lu_without_pivoting_when_no_pivot_array_is_given(out):
    a = spd(4, 4)
    lower, upper = np.eye(4), a.copy()
    for k in range(4):  # Doolittle without interchanges
        lower[k + 1 :, k] = upper[k + 1 :, k] / upper[k, k]
        upper[k + 1 :] -= np.outer(lower[k + 1 :, k], upper[k])
    expected = np.tril(lower, -1) + np.triu(upper)
    np.testing.assert_allclose(colmajor(out["getrf_nopivot"], 4, 4), expected, rtol=1e-5)


def test_cholesky_in_both_triangles_and_its_solve(out):
    a = spd(5, 5)
    low = colmajor(out["potrf_lower"], 5, 5)
    upp = colmajor(out["potrf_upper"], 5, 5)
    np.testing.assert_allclose(np.tril(low), la.cholesky(a, lower=True), atol=1e-13)
    np.testing.assert_allclose(np.triu(upp), la.cholesky(a), atol=1e-13)
    np.testing.assert_array_equal(np.triu(low, 1), np.triu(a, 1))  # the other triangle untouched
    np.testing.assert_allclose(
        colmajor(out["potrs"], 5, 3), np.linalg.solve(a, gen(5, 3, 6)), atol=1e-13
    )
    assert out["potrs_info"][0] == 0
    assert out["potrf_indefinite_info"][0] == 1  # gen(4, 4, 7)[0, 0] = -0.75: minor of order 1


def test_householder_qr_is_lapacks(out):
    a = gen(7, 4, 8)
    (qr, tau), _ = la.qr(a, mode="raw")
    np.testing.assert_allclose(colmajor(out["geqrf_a"], 7, 4), qr, atol=1e-13)
    np.testing.assert_allclose(out["geqrf_tau"], tau, atol=1e-13)
    q = la.qr(a)[0]  # the full 7 x 7 Q from the same reflectors
    np.testing.assert_allclose(colmajor(out["ormqr_left_t"], 7, 2), q.T @ gen(7, 2, 9), atol=1e-13)
    np.testing.assert_allclose(colmajor(out["ormqr_right_n"], 3, 7), gen(3, 7, 10) @ q, atol=1e-13)
    np.testing.assert_allclose(colmajor(out["orgqr"], 7, 4), q[:, :4], atol=1e-13)
    (sqr, _), _ = la.qr(gen(6, 3, 11).astype(np.float32), mode="raw")
    np.testing.assert_allclose(colmajor(out["sgeqrf_a"], 6, 3), sqr, atol=1e-5)


def test_symmetric_eigenvalues_ascending_with_vectors(out):
    g = gen(6, 6, 13)
    a = np.tril(g + g.T) + np.tril(g + g.T, -1).T  # from the lower triangle the program gave
    w, v = la.eigh(a)
    assert out["syevd_lwork"][0] == 72 and out["syevd_info"][0] == 0
    np.testing.assert_allclose(out["syevd_w"], w, atol=1e-12)
    got = colmajor(out["syevd_v"], 6, 6)
    np.testing.assert_allclose(np.abs(got.T @ v), np.eye(6), atol=1e-12)  # same vectors up to sign
    np.testing.assert_allclose(out["ssyevd_w"], la.eigvalsh(spd(6, 12)), rtol=1e-5)


def test_a_program_including_hipsolver_gets_the_reference_and_the_bench_can_run_cusolver():
    refs = emulated_libraries.needed("#include <hipsolver/hipsolver.h>\n#include <hipsparse.h>\n")
    assert [r.library for r in refs] == ["hipSPARSE", "hipSOLVER"]
    assert emulated_libraries.needed("// #include <hipsolver.h>\n") == ()
    assert {"cusolver", "cusparse"} <= emulated_libraries.provided()
