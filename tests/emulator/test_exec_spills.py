"""The EXEC discipline clang's spill code relies on (whole-wave spills around calls, SGPR spills
into VGPR lanes, loads under an empty EXEC): inactive lanes keep their values, a whole-wave
store/load round trip restores every lane, and v_writelane/v_readlane ignore EXEC."""

from __future__ import annotations

import numpy as np
import pytest
from cass.runner.emulator.snippet import Snippet

pytestmark = pytest.mark.toolchain

LANES = np.arange(32)


def test_whole_wave_spill_round_trip_restores_inactive_lanes():
    m = Snippet(
        [
            "s_or_saveexec_b32 s1, -1",  # all lanes on, old EXEC in s1
            "scratch_store_b32 off, v40, s33 offset:20",
            "s_mov_b32 exec_lo, s1",
            "v_mov_b32 v40, 0",  # the callee clobbers the active lanes only
            "s_or_saveexec_b32 s1, -1",
            "v_mov_b32 v41, v40",
            "scratch_load_b32 v40, off, s33 offset:20",
            "s_mov_b32 exec_lo, s1",
        ],
        vgpr={40: LANES + 500},
        sgpr={33: 64},
        exec_mask=0x000000FF,
    ).run()
    assert list(m.st.V[40, 0]) == list(LANES + 500)
    assert list(m.st.V[41, 0]) == [0] * 8 + list(LANES[8:] + 500)
    assert int(m.st.S[126, 0]) == 0xFF


def test_xor_saveexec_spills_only_the_inactive_lanes():
    m = Snippet(
        [
            "s_xor_saveexec_b32 s0, -1",  # EXEC = lanes that were off
            "scratch_store_b32 off, v3, off offset:32",
            "s_mov_b32 exec_lo, -1",
            "v_mov_b32 v3, 7",
            "scratch_load_b32 v4, off, off offset:32",
            "s_mov_b32 exec_lo, s0",
        ],
        vgpr={3: LANES + 100},
        exec_mask=0xFFFF0000,
    ).run()
    assert list(m.st.V[4, 0]) == list(LANES[:16] + 100) + [0] * 16


def test_loads_under_empty_exec_write_nothing_and_lane_ops_ignore_exec():
    m = Snippet(
        [
            "scratch_store_b32 off, v1, off",
            "s_mov_b32 exec_lo, 0",
            "scratch_load_b32 v2, off, off",
            "v_writelane_b32 v5, s7, 3",
            "v_readlane_b32 s8, v5, 3",
            "s_mov_b32 exec_lo, -1",
        ],
        vgpr={1: 9, 2: LANES, 5: 0},
        sgpr={7: 1234},
    ).run()
    assert list(m.st.V[2, 0]) == list(LANES)
    assert int(m.st.V[5, 0, 3]) == 1234 and int(m.st.S[8, 0]) == 1234
