"""cass's reference rocWMMA (runner/emulated_libraries/include/rocwmma/rocwmma.hpp) on the
emulator, against numpy: fragments loaded and stored in both layouts (leading dimension 24),
mma_sync with f32 accumulators in all four A/B layout pairs and both C/D memory layouts, f16
accumulators accumulating into themselves, element-wise x[], bf16 -> f32 and int8/uint8 ->
int32; two waves of one block on their own tiles. Inputs are multiples of 1/8, so the f32 results
are exact; f16 results are compared after numpy's rounding at the same steps."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from cass.runner import emulated_libraries
from cass.runner.emulator import build_hip_program, run_program

pytestmark = pytest.mark.toolchain

PROGRAM = Path(__file__).parent / "programs" / "rocwmma_reference.hip"
T, LD = 16, 24
TILE = T * LD


def values(n: int, seed: int) -> np.ndarray:
    i = np.arange(n)
    return ((i * 37 + seed * 11) % 17 - 8) / 8.0


def tile(memory: np.ndarray, row_major: bool) -> np.ndarray:
    """The 16x16 matrix a tile of memory holds in that layout."""
    block = memory[:TILE].reshape(T, LD)[:, :T]
    return block if row_major else block.T


def stored(matrix: np.ndarray, row_major: bool) -> np.ndarray:
    """Memory of a 16x16 matrix stored in that layout over zeros."""
    memory = np.zeros((T, LD))
    memory[:, :T] = matrix if row_major else matrix.T
    return memory.ravel()


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> dict[str, np.ndarray]:
    exe = build_hip_program(PROGRAM, tmp_path_factory.mktemp("rocwmma") / "prog")
    run = run_program(exe, timeout_s=300)
    assert run.exit_code == 0, run.stdout + run.stderr
    rows = (line.split() for line in run.stdout.splitlines() if line.strip())
    return {row[0]: np.array([float(v) for v in row[1:]]) for row in rows}


def test_the_program_needs_only_cass_rocwmma():
    refs = emulated_libraries.needed(PROGRAM.read_text())
    assert [r.library for r in refs] == ["rocWMMA"]
    assert refs[0].compile_args == ("-I", str(emulated_libraries.INCLUDE))
    assert "wmma" in emulated_libraries.provided()


LAYOUTS = [  # name, seed, A row-major?, B row-major?, C row-major?, D row-major?
    ("f32_rc_rowC_colD", 1, True, False, True, False),
    ("f32_cr_colC_rowD", 2, False, True, False, True),
    ("f32_rr_rowC_rowD", 3, True, True, True, True),
    ("f32_cc_colC_colD", 4, False, False, False, False),
]


@pytest.mark.parametrize(
    ("name", "seed", "ra", "rb", "rc", "rd"), LAYOUTS, ids=[x[0] for x in LAYOUTS]
)
def test_f16_inputs_f32_accumulator_every_layout_two_waves(results, name, seed, ra, rb, rc, rd):
    a, b, c = values(2 * TILE, seed), values(2 * TILE, seed + 1), values(2 * TILE, seed + 2)
    for wave in range(2):
        part = slice(wave * TILE, (wave + 1) * TILE)
        d = tile(a[part], ra) @ tile(b[part], rb) + tile(c[part], rc)
        np.testing.assert_array_equal(results[name][part], stored(d, rd), err_msg=f"wave {wave}")


def test_f16_accumulator_accumulates_into_itself(results):
    a, b = values(2 * TILE, 5), values(2 * TILE, 6)
    acc = np.full((T, T), 0.5, np.float16)
    for step in range(2):
        part = slice(step * TILE, (step + 1) * TILE)
        exact = acc.astype(np.float64) + tile(a[part], True) @ tile(b[part], False)
        acc = exact.astype(np.float16)
    np.testing.assert_array_equal(results["f16_twice"], stored(acc.astype(np.float64), True))


def test_elementwise_access_and_zero_accumulator(results):
    a, b = values(TILE, 5), values(TILE, 6)
    d = 2 * tile(a, True) @ tile(b, True)
    np.testing.assert_array_equal(results["scaled"], stored(d, False))


@pytest.mark.parametrize(
    ("name", "seed", "row_major"), [("trip_a_row", 5, True), ("trip_b_col", 6, False)]
)
def test_load_then_store_gives_the_tile_back(results, name, seed, row_major):
    memory = values(TILE, seed)
    np.testing.assert_array_equal(results[name], stored(tile(memory, row_major), row_major))


def test_bf16_inputs_f32_accumulator(results):
    a, b = values(TILE, 7), values(TILE, 8)
    d = tile(a, False) @ tile(b, True) + 1.0
    np.testing.assert_array_equal(results["bf16"], stored(d, True))


@pytest.mark.parametrize("name", ["i8", "u8"])
def test_8bit_inputs_int32_accumulator(results, name):
    i = np.arange(TILE)
    a, b = ((i * 53 + 7) % 255 - 127).astype(np.int8), ((i * 29 + 3) % 255 - 127).astype(np.int8)
    if name == "u8":
        a, b = a.view(np.uint8), b.view(np.uint8)
    a64, b64 = a.astype(np.int64), b.astype(np.int64)
    d = tile(a64, True) @ tile(b64, False) - 3
    np.testing.assert_array_equal(results[name], stored(d, False))
