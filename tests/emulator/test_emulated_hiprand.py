"""cass's reference hipRAND host API (runner/emulated_libraries/hiprand.hip) on the emulator:
Philox-4x32-10 and Sobol32 word for word against independent Python implementations, offsets
and sequence continuation, host-output generators' uniform and normal statistics, and the
generator types and sizes it refuses."""

from pathlib import Path

import pytest
from cass.runner.emulator import build_hip_program, run_program

PROGRAM = Path(__file__).parent / "programs" / "hiprand_reference.hip"
SEED = 0x123456789ABCDEF
M32 = 0xFFFFFFFF


def philox4x32_10(counter: int, seed: int) -> list[int]:
    c = [counter & M32, counter >> 32, 0, 0]
    k = [seed & M32, seed >> 32]
    for r in range(10):
        if r:
            k = [(k[0] + 0x9E3779B9) & M32, (k[1] + 0xBB67AE85) & M32]
        p0, p1 = 0xD2511F53 * c[0], 0xCD9E8D57 * c[2]
        c = [(p1 >> 32) ^ c[1] ^ k[0], p1 & M32, (p0 >> 32) ^ c[3] ^ k[1], p0 & M32]
    return c


def philox_words(first: int, count: int) -> list[int]:
    return [philox4x32_10(i // 4, SEED)[i % 4] for i in range(first, first + count)]


def sobol(index: int, dimension: int) -> int:
    gray, x, v = index ^ (index >> 1), 0, 1 << 31
    for bit in range(32):
        if gray >> bit & 1:
            x ^= v
        v = v >> 1 if dimension == 0 else v ^ (v >> 1)
    return x


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> dict[str, list[str]]:
    exe = build_hip_program(PROGRAM, tmp_path_factory.mktemp("hiprand") / "prog")
    run = run_program(exe, timeout_s=300)
    assert run.exit_code == 0, run.stdout + run.stderr
    return {line.split()[0]: line.split()[1:] for line in run.stdout.splitlines() if line.strip()}


def test_philox_matches_the_algorithm_word_for_word(results):
    assert philox4x32_10(0, 0) == [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]  # Random123 KAT
    assert [int(v) for v in results["philox"]] == philox_words(0, 16)
    assert [int(v) for v in results["philox_offset5"]] == philox_words(5, 3)
    assert results["odd_normal"] == ["105"]  # HIPRAND_STATUS_LENGTH_NOT_MULTIPLE


def test_sobol32_two_dimensions_in_gray_code_order(results):
    want = [sobol(i, 0) for i in range(16)] + [sobol(i, 1) for i in range(16)]
    assert [int(v) for v in results["sobol"]] == want
    assert want[:4] == [0, 1 << 31, 3 << 30, 1 << 30]  # van der Corput in Gray-code order
    assert results["sobol_dims3"] == ["104"]  # HIPRAND_STATUS_OUT_OF_RANGE


@pytest.mark.parametrize("kind", ["401", "405"])  # XORWOW, PHILOX4_32_10
def test_pseudo_generators_have_the_right_statistics(results, kind):
    mean, var, lo, hi = (float(v) for v in results[f"uniform{kind}"])
    assert abs(mean - 0.5) < 0.005 and abs(var - 1 / 12) < 0.002
    assert 0 < lo < 1e-3 and 0.999 < hi <= 1.0
    mean, var = (float(v) for v in results[f"normal{kind}"])
    assert abs(mean - 1.0) < 0.03 and abs(var - 4.0) < 0.1
    assert results["mtgp"] == ["1000"]  # HIPRAND_STATUS_NOT_IMPLEMENTED
