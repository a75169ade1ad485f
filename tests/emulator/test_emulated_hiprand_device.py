"""hipRAND's device API on the emulator: Debian's hiprand_kernel.h (rocRAND's header-only XORWOW,
Philox-4x32-10 and MRG32k3a) needs no reference implementation of cass's; compiled for gfx1100,
hiprand_init/hiprand_uniform/hiprand_normal/hiprand_uniform_double draw the distributions they
should (Kolmogorov-Smirnov against scipy's), every thread's subsequence differs, and the same seed
gives the same numbers. The numbers themselves are rocRAND's, not cuRAND's."""

from pathlib import Path

import numpy as np
import pytest
from cass.runner.emulator import build_hip_program, run_program
from scipy import stats

PROGRAM = Path(__file__).parent / "programs" / "hiprand_device.hip"
GENERATORS = ("xorwow", "philox", "mrg32k3a")


@pytest.fixture(scope="module")
def draws(tmp_path_factory) -> dict[str, np.ndarray]:
    exe = build_hip_program(PROGRAM, tmp_path_factory.mktemp("hiprand_device") / "prog")
    run = run_program(exe, timeout_s=300)
    assert run.exit_code == 0, run.stdout + run.stderr
    lines = (line.split() for line in run.stdout.splitlines())
    return {words[0]: np.array([float(w) for w in words[1:]]) for words in lines}


@pytest.mark.parametrize("generator", GENERATORS)
def test_device_generators_draw_their_distributions(draws, generator):
    uniform, normal, double = (draws[f"{generator}_{k}"] for k in ("uniform", "normal", "double"))
    assert len(uniform) == len(normal) == len(double) == 128 * 32
    assert ((uniform > 0) & (uniform <= 1)).all() and ((double > 0) & (double <= 1)).all()
    assert stats.kstest(uniform, "uniform").pvalue > 1e-3
    assert stats.kstest(double, "uniform").pvalue > 1e-3
    assert stats.kstest(normal, "norm").pvalue > 1e-3
    first = uniform.reshape(128, 32)[:, 0]
    assert len(set(first)) == 128  # each thread its own subsequence
    np.testing.assert_array_equal(draws[f"{generator}_again"], uniform)


def test_generators_differ(draws):
    assert not np.array_equal(draws["xorwow_uniform"], draws["philox_uniform"])
    assert not np.array_equal(draws["philox_uniform"], draws["mrg32k3a_uniform"])
