"""DS accesses outside the workgroup's LDS allocation behave as on gfx11 hardware: a read
returns 0 and a write or atomic is dropped, with no fault (the research note, section 2.6, and
the RDNA3 ISA guide's LDS addressing). clang-16 relies on it: it hoists LDS loads above the
select of their address (numerical_methods/tridiagonal_pcr_batch reads offset -4)."""

from __future__ import annotations

import numpy as np
import pytest
from cass.runner.emulator.snippet import Snippet

pytestmark = pytest.mark.toolchain

LANES = np.arange(32)
BYTES = 256  # the LDS of the snippet's one workgroup

# (instructions, vgpr, {register: expected 32 lanes})
CASES = [
    pytest.param(
        ["ds_load_b32 v2, v0"],
        {0: 0xFFFFFFFC, 2: 77},
        {2: [0] * 32},
        id="load-at-minus-4-reads-0",
    ),
    pytest.param(
        ["ds_store_b32 v0, v1", "ds_load_b32 v2, v0"],
        {0: LANES * 16, 1: LANES + 1},  # lanes 0-15 inside, 16-31 beyond the 256 bytes
        {2: [i + 1 if i < 16 else 0 for i in LANES]},
        id="store-beyond-dropped-per-lane",
    ),
    pytest.param(
        ["ds_store_b32 v3, v1", "ds_load_2addr_stride64_b32 v[4:5], v3 offset1:1"],
        {3: LANES * 4 - 4, 1: LANES + 10},
        {4: [0] + [i + 10 for i in range(1, 32)], 5: [0] * 32},
        id="two-address-each-checked",
    ),
    pytest.param(
        ["ds_add_rtn_u32 v7, v8, v9", "ds_load_b32 v10, v11"],
        {8: 252 + (LANES % 2) * 1000, 9: 1, 11: 252},  # odd lanes beyond the allocation
        {7: [0 if i % 2 else i // 2 for i in LANES], 10: [16] * 32},
        id="atomic-beyond-returns-0-and-writes-nothing",
    ),
    pytest.param(
        ["ds_load_b64 v[12:13], v11"],
        {11: 252, 12: 9, 13: 9},
        {12: [0] * 32, 13: [0] * 32},
        id="load-straddling-the-end-reads-0",
    ),
]


@pytest.mark.parametrize(("lines", "vgpr", "expected"), CASES)
def test_lds_outside_the_allocation(lines, vgpr, expected):
    m = Snippet(lines, vgpr=vgpr, lds_bytes=BYTES).run()
    for reg, values in expected.items():
        assert [int(v) for v in m.st.V[reg, 0]] == [int(v) for v in values], f"v{reg}"


def test_inactive_lanes_keep_their_value_on_an_outside_load():
    m = Snippet(
        ["ds_load_b32 v2, v0"], vgpr={0: 4096, 2: 77}, exec_mask=0x0000FFFF, lds_bytes=BYTES
    ).run()
    assert list(m.st.V[2, 0]) == [0] * 16 + [77] * 16
