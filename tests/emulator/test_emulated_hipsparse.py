"""cass's reference hipSPARSE SpMV and SpMM (runner/emulated_libraries/hipsparse.hip) on the
emulator, against numpy: CSR with 32-bit zero-based indices in float, COO with 64-bit one-based
indices in double with alpha/beta in device memory, and the transposed product refused (not
implemented); SpMM with column-major B and C, and with B transposed in row order, C row-major with
a padded leading dimension, and mismatched shapes refused."""

from pathlib import Path

import numpy as np
from cass.runner.emulator import build_hip_program, run_program

PROGRAM = Path(__file__).parent / "programs" / "hipsparse_reference.hip"


def test_spmv_matches_numpy(tmp_path):
    exe = build_hip_program(PROGRAM, tmp_path / "prog")
    run = run_program(exe, timeout_s=300)
    assert run.exit_code == 0, run.stdout + run.stderr
    out = {line.split()[0]: line.split()[1:] for line in run.stdout.splitlines()}
    r, c = np.meshgrid(np.arange(5), np.arange(6), indexing="ij")
    A = np.where((r * 7 + c * 3) % 4 == 0, r + 2.0 * c + 1.0, 0.0)
    x = np.array([1, -2, 3, 0.5, -1, 2])
    np.testing.assert_array_equal([float(v) for v in out["csr_f32"]], 2 * A @ x - 1)
    np.testing.assert_array_equal([float(v) for v in out["coo_f64"]], 0.5 * A @ x)
    assert out["transpose"] == ["10"]  # HIPSPARSE_STATUS_NOT_SUPPORTED
    b = np.arange(6)[:, None] - 2.0 * np.arange(3)[None, :] + 0.5
    spmm_csr = np.array([float(v) for v in out["spmm_csr_f32"]]).reshape(3, 5).T
    np.testing.assert_array_equal(spmm_csr, 2 * A @ b - 1)
    spmm_coo = np.array([float(v) for v in out["spmm_coo_f64"]]).reshape(5, 4)
    np.testing.assert_array_equal(spmm_coo[:, :3], 0.5 * A @ b)
    np.testing.assert_array_equal(spmm_coo[:, 3], 7.0)  # padding beyond the 3 columns untouched
    assert out["spmm_shape"] == ["3"]  # HIPSPARSE_STATUS_INVALID_VALUE: op(B) is 3 x 6, not 6 x 3
