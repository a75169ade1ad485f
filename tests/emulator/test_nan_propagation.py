"""Which NaN an arithmetic instruction returns is the interpreter's rule in the translated code
too, whatever form the host compiler picks: the first NaN operand in operand order (after the
abs/neg modifiers), quieted. clang folds a `neg` source into a subtraction or a negated FMA and
commutes additions, and the host's instruction then returned the other NaN or the unflipped
sign: registers differed between the engines, and a program printing a NaN printed "nan" under
one and "-nan" under the other."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from cass.runner.emulator.oracle import first_difference
from cass.runner.emulator.snippet import Snippet

pytestmark = pytest.mark.toolchain


@pytest.fixture(autouse=True, params=["2", "1"], ids=["optimised", "baseline"])
def tier(request, monkeypatch):
    """Each test runs on both tiers of translated code: -O2, and the -O0 baseline."""
    monkeypatch.setenv("CASS_EMULATOR_JIT_TIERS", request.param)
    return request.param


F32 = [0x7FC00001, 0xFFC00002, 0x7F800003, 0xFF800004, 0x3F800000, 0x7F800000, 0xBF800000]
F64 = [
    0x7FF8000000000011,
    0xFFF8000000000022,
    0x7FF0000000000033,
    0x3FF0000000000000,
    0xFFF0000000000000,
]
F16 = [0x7E01, 0xFE02, 0x7C03, 0x3C00, 0xFC00]


F32_LINES = [
    "v_add_f32 v10, v1, -v2",
    "v_add_f32 v11, -v1, v2",
    "v_sub_f32 v12, v1, -v2",
    "v_subrev_f32 v13, -v1, v2",
    "v_mul_f32 v14, -v1, v2",
    "v_mul_f32 v15, v1, -v2",
    "v_fma_f32 v16, -v1, v2, v3",
    "v_fma_f32 v17, v1, -v2, -v3",
    "v_fma_f32 v18, v1, v2, v3",
    "v_add_f32 v19, v1, v2",
    "v_add_f32 v20, |v1|, -v2",
    "v_mul_legacy_f32 v21, -v1, v2",
]
F64_LINES = [
    "v_add_f64 v[20:21], v[2:3], -v[4:5]",
    "v_add_f64 v[22:23], -v[2:3], v[4:5]",
    "v_mul_f64 v[24:25], -v[2:3], v[4:5]",
    "v_fma_f64 v[26:27], v[2:3], v[4:5], v[6:7]",
    "v_fma_f64 v[28:29], -v[2:3], v[4:5], -v[6:7]",
    "v_add_f64 v[30:31], v[2:3], v[4:5]",
]
F16_LINES = [
    "v_add_f16 v10, v1, -v2",
    "v_sub_f16 v11, -v1, v2",
    "v_mul_f16 v12, -v1, v2",
    "v_fma_f16 v13, -v1, v2, v3",
    "v_pk_add_f16 v14, v1, v2 neg_lo:[0,1] neg_hi:[1,0]",
    "v_pk_fma_f16 v15, v1, v2, v3 neg_lo:[1,0,1]",
]


def _compare(snippet: Snippet, registers: list[int]):
    reference = snippet.run()
    snippet.engine = "jit"
    translated = snippet.run()
    for reg in registers:
        want, got = reference.st.V[reg, 0], translated.st.V[reg, 0]
        lanes = [i for i in range(32) if want[i] != got[i]]
        assert not lanes, (
            f"v{reg} lane {lanes[0]}: interpreter 0x{int(want[lanes[0]]):08x}, "
            f"JIT 0x{int(got[lanes[0]]):08x}"
        )
    assert first_difference(reference, translated, [], []) == ""
    return reference


@pytest.mark.parametrize("offset", range(0, 343, 32))
def test_f32_nan_operands_identical_translated(offset):
    combos = list(itertools.product(F32, repeat=3))[offset : offset + 32]
    combos += combos[: 32 - len(combos)]
    a, b, c = (np.array([x[i] for x in combos], np.uint32) for i in range(3))
    snippet = Snippet(F32_LINES, vgpr={1: a, 2: b, 3: c})
    ref = _compare(snippet, list(range(10, 22)))
    # the rule itself: the first NaN operand after the modifiers, quieted
    for lane in range(32):
        x, y = int(a[lane]), int(b[lane]) ^ 0x80000000
        if (x & 0x7FFFFFFF) > 0x7F800000:
            assert int(ref.st.V[10, 0][lane]) == x | 0x400000
        elif (y & 0x7FFFFFFF) > 0x7F800000:
            assert int(ref.st.V[10, 0][lane]) == y | 0x400000


@pytest.mark.parametrize("offset", range(0, 125, 32))
def test_f64_nan_operands_identical_translated(offset):
    combos = list(itertools.product(F64, repeat=3))[offset : offset + 32]
    combos += combos[: 32 - len(combos)]
    regs = {}
    for i, base in enumerate((2, 4, 6)):
        values = np.array([x[i] for x in combos], np.uint64)
        regs[base] = (values & 0xFFFFFFFF).astype(np.int64)
        regs[base + 1] = (values >> np.uint64(32)).astype(np.int64)
    _compare(Snippet(F64_LINES, vgpr=regs), list(range(20, 32)))


def test_f16_nan_operands_identical_translated():
    combos = list(itertools.product(F16, repeat=3))[:: 125 // 32 + 1][:32]
    combos += combos[: 32 - len(combos)]
    a, b, c = (np.array([x[i] | (x[(i + 1) % 3] << 16) for x in combos]) for i in range(3))
    _compare(Snippet(F16_LINES, vgpr={1: a, 2: b, 3: c}), list(range(10, 16)))
