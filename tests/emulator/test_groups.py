"""A group of waves given as a slice (the scheduler's form for evenly spaced waves: numpy views)
executes exactly like the same waves given as an index array (gathers and scatters)."""

from __future__ import annotations

import numpy as np
import pytest
from cass.runner.emulator import memory as mem
from cass.runner.emulator.decode import parse_text
from cass.runner.emulator.machine import Machine
from cass.runner.emulator.program import compile_instruction
from cass.runner.emulator.scheduler import _evenly_spaced
from cass.runner.emulator.snippet import _Kernel, _Listing, _NoBudget, _NoServices
from cass.runner.emulator.state import EXEC, Group

WAVES, PER_GROUP, LDS = 32, 4, 2048

PROGRAM = [
    "v_add_f32_e32 v6, v12, v20",
    "v_fmac_f32_e32 v6, v13, v21",
    "v_add_co_u32 v12, vcc_lo, s4, v12",
    "v_add_co_ci_u32_e32 v13, vcc_lo, s5, v13, vcc_lo",
    "v_lshlrev_b64 v[14:15], 2, v[0:1]",
    "v_cndmask_b32_e64 v16, v2, v3, s6",
    "v_readfirstlane_b32 s7, v4",
    "ds_store_b32 v10, v5",
    "ds_load_2addr_b32 v[20:21], v8 offset1:16",
    "ds_load_b128 v[22:25], v9 offset:16",
    "v_cmpx_gt_u32_e32 0x60, v11",
    "ds_store_b64 v10, v[2:3] offset:512",
    "ds_load_b32 v26, v10 offset:512",
    "s_or_b32 exec_lo, exec_lo, s8",
    "v_mul_lo_u32 v27, v2, s3",
]


def machine() -> Machine:
    rng = np.random.default_rng(7)
    m = Machine(
        _Listing({}),
        _Kernel(),
        mem.AllocationTable([]),
        WAVES,
        WAVES // PER_GROUP,
        LDS,
        0,
        _NoServices(),
        _NoBudget(),
    )
    m.wave_wg[:] = np.repeat(np.arange(WAVES // PER_GROUP), PER_GROUP)
    st = m.st
    st.V[:] = rng.integers(0, 1 << 32, st.V.shape, dtype=np.uint32)
    st.V[8:12] = rng.integers(0, 64, (4, WAVES, 32), dtype=np.uint32) * 4  # LDS offsets
    st.V[20:24] = rng.random((4, WAVES, 32), dtype=np.float32).view(np.uint32)
    st.S[:] = rng.integers(0, 1 << 32, st.S.shape, dtype=np.uint32)
    st.S[EXEC + 1] = 0
    st.sync_exec()
    m.lds[:] = rng.integers(0, 256, m.lds.size, dtype=np.uint8)
    return m


@pytest.mark.parametrize("waves", [[3], [0, 4, 8, 12, 16, 20, 24, 28], [5, 6, 7, 8], [1, 9, 17]])
def test_a_slice_group_matches_the_index_group(waves):
    idx = np.array(waves)
    as_slice = _evenly_spaced(idx)
    assert isinstance(as_slice, slice)
    assert list(np.arange(WAVES)[as_slice]) == waves
    results = []
    for form in (idx, as_slice):
        m = machine()
        for text in PROGRAM:
            compile_instruction(parse_text(text))(m, Group(form, idx.size, False))
        results.append(m)
    by_index, by_slice = results
    assert np.array_equal(by_index.st.V, by_slice.st.V)
    assert np.array_equal(by_index.st.S, by_slice.st.S)
    assert np.array_equal(by_index.st.exec_bool, by_slice.st.exec_bool)
    assert np.array_equal(by_index.lds, by_slice.lds)


def test_uneven_waves_stay_an_index_array():
    idx = np.array([0, 1, 8, 9])
    assert _evenly_spaced(idx) is idx
