"""cass's reference hipFFT (runner/emulated_libraries/hipfft.hip) on the emulator, against
numpy.fft: batched 1D C2C both ways (in place too), 2D Z2Z, 3D C2C, R2C/C2R through PlanMany and
Create + MakePlanMany, 2D D2Z, and a transform of the wrong type refused."""

from pathlib import Path

import numpy as np
import pytest
from cass.runner import emulated_libraries, rocm_api_headers
from cass.runner.emulator import build_hip_program, run_program

PROGRAM = Path(__file__).parent / "programs" / "hipfft_reference.hip"
pytestmark = pytest.mark.skipif(
    rocm_api_headers.installed() is None,
    reason=f"hipFFT headers not installed: {rocm_api_headers.FIX}",
)


def value(n: int, seed: int) -> np.ndarray:
    i = np.arange(n)
    return np.sin(0.7 * i + seed) + 0.25 * np.cos(1.3 * i * seed)


def complex_of(flat: np.ndarray) -> np.ndarray:
    return flat[0::2] + 1j * flat[1::2]


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> dict[str, np.ndarray]:
    exe = build_hip_program(PROGRAM, tmp_path_factory.mktemp("hipfft") / "prog")
    run = run_program(exe, timeout_s=300)
    assert run.exit_code == 0, run.stdout + run.stderr
    out = {}
    for line in run.stdout.splitlines():
        name, *values = line.split()
        out[name] = np.array([float(v) for v in values])
    return out


def test_complex_transforms_match_numpy(results):
    x = complex_of(value(72, 1).astype(np.float32).astype(np.float64)).reshape(3, 12)
    spectrum = np.fft.fft(x, axis=1)
    np.testing.assert_allclose(complex_of(results["c2c_forward"]), spectrum.ravel(), atol=2e-5)
    inverse = np.fft.ifft(spectrum, axis=1) * 12  # unnormalised, as cuFFT
    np.testing.assert_allclose(
        complex_of(results["c2c_backward_inplace"]), inverse.ravel(), atol=1e-4
    )
    z = complex_of(value(120, 2)).reshape(6, 10)
    np.testing.assert_allclose(
        complex_of(results["z2z_2d"]), np.fft.fft2(z).ravel(), rtol=1e-12, atol=1e-12
    )
    v = complex_of(value(120, 3).astype(np.float32).astype(np.float64)).reshape(4, 3, 5)
    want = np.fft.ifftn(v) * 60
    np.testing.assert_allclose(complex_of(results["c2c_3d_backward"]), want.ravel(), atol=1e-4)


def test_real_transforms_match_numpy(results):
    r = value(30, 4).astype(np.float32).astype(np.float64).reshape(2, 15)
    half = np.fft.rfft(r, axis=1)
    np.testing.assert_allclose(complex_of(results["r2c"]), half.ravel(), atol=2e-5)
    np.testing.assert_allclose(results["c2r"], (r * 15).ravel(), atol=1e-4)  # round trip x n
    assert results["work"].tolist() == [0.0]
    d = value(24, 5).reshape(4, 6)
    np.testing.assert_allclose(complex_of(results["d2z_2d"]), np.fft.rfft2(d).ravel(), atol=1e-12)
    assert results["wrong_type"].tolist() == [3.0]  # HIPFFT_INVALID_TYPE


def test_a_program_needs_hipfft_only_when_it_includes_it():
    refs = emulated_libraries.needed("#include <hipfft.h>\n#include <hipblas/hipblas.h>\n")
    assert [r.library for r in refs] == ["hipBLAS", "hipFFT"]
    assert "cufft" in emulated_libraries.provided()
