"""Instruction semantics, one table per family, with edge cases (NaN, denormals, overflow,
shifts >= 32, signed division helpers, carries). Each snippet is assembled and re-disassembled by
llvm-mc-16, so operands reach the emulator exactly as the LLVM decoder prints them."""

from __future__ import annotations

import math
import struct

import numpy as np
import pytest
from cass.runner.emulator.snippet import Snippet

pytestmark = pytest.mark.toolchain


def f32(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def f64(x: float) -> tuple[int, int]:
    bits = struct.unpack("<Q", struct.pack("<d", x))[0]
    return bits & 0xFFFFFFFF, bits >> 32


def as_f32(bits) -> float:
    return struct.unpack("<f", struct.pack("<I", int(bits)))[0]


def as_f64(lo, hi) -> float:
    return struct.unpack("<d", struct.pack("<Q", int(lo) | (int(hi) << 32)))[0]


NAN, INF, DENORM = f32(math.nan), f32(math.inf), 0x00000001

# (instruction, sources as {vgpr: bits}, expected v0 bits)
VALU_CASES = [
    ("v_add_f32 v0, v1, v2", {1: f32(1.5), 2: f32(2.25)}, f32(3.75)),
    ("v_add_f32 v0, v1, v2", {1: NAN, 2: f32(1.0)}, "nan"),
    ("v_add_f32 v0, v1, v2", {1: DENORM, 2: DENORM}, 0x00000002),  # denormals kept (mode 3)
    ("v_mul_f32 v0, v1, v2", {1: f32(3e38), 2: f32(10.0)}, INF),
    ("v_sub_f32 v0, -v1, |v2|", {1: f32(1.0), 2: f32(-2.0)}, f32(-3.0)),
    ("v_max_f32 v0, v1, v2", {1: NAN, 2: f32(5.0)}, f32(5.0)),
    ("v_min_f32 v0, v1, v2", {1: f32(-0.0), 2: f32(0.0)}, f32(-0.0)),
    (
        "v_fma_f32 v0, v1, v2, v3",
        {1: f32(1 + 2**-23), 2: f32(1 - 2**-23), 3: f32(-1.0)},
        f32(-(2**-46)),
    ),
    ("v_fmac_f32 v0, v1, v2", {0: f32(1.0), 1: f32(2.0), 2: f32(3.0)}, f32(7.0)),
    ("v_rcp_f32 v0, v1", {1: f32(0.0)}, INF),
    ("v_rcp_f32 v0, v1", {1: f32(3.0)}, f32(np.float32(1) / np.float32(3))),
    ("v_sqrt_f32 v0, v1", {1: f32(-1.0)}, "nan"),
    ("v_sqrt_f32 v0, v1", {1: f32(2.0)}, f32(float(np.sqrt(np.float32(2))))),
    ("v_exp_f32 v0, v1", {1: f32(3.0)}, f32(8.0)),
    ("v_log_f32 v0, v1", {1: f32(0.25)}, f32(-2.0)),
    ("v_cvt_i32_f32 v0, v1", {1: NAN}, 0),
    ("v_cvt_i32_f32 v0, v1", {1: f32(3e9)}, 0x7FFFFFFF),
    ("v_cvt_i32_f32 v0, v1", {1: f32(-3e9)}, 0x80000000),
    ("v_cvt_u32_f32 v0, v1", {1: f32(-5.0)}, 0),
    ("v_cvt_i32_f32 v0, v1", {1: f32(-2.7)}, 0xFFFFFFFE),
    ("v_cvt_f32_u32 v0, v1", {1: 0xFFFFFFFF}, f32(4294967296.0)),
    ("v_cvt_f32_i32 v0, v1", {1: 0xFFFFFFFF}, f32(-1.0)),
    ("v_floor_f32 v0, v1", {1: f32(-1.5)}, f32(-2.0)),
    ("v_rndne_f32 v0, v1", {1: f32(2.5)}, f32(2.0)),
    ("v_fract_f32 v0, v1", {1: f32(-0.25)}, f32(0.75)),
    ("v_ldexp_f32 v0, v1, v2", {1: f32(1.5), 2: 4}, f32(24.0)),
    ("v_frexp_mant_f32 v0, v1", {1: f32(12.0)}, f32(0.75)),
    ("v_frexp_exp_i32_f32 v0, v1", {1: f32(12.0)}, 4),
    ("v_add_nc_u32 v0, v1, v2", {1: 0xFFFFFFFF, 2: 2}, 1),
    ("v_sub_nc_u32 v0, v1, v2", {1: 1, 2: 2}, 0xFFFFFFFF),
    ("v_lshlrev_b32 v0, v1, v2", {1: 33, 2: 1}, 2),  # shift amount uses 5 bits
    ("v_lshrrev_b32 v0, v1, v2", {1: 31, 2: 0x80000000}, 1),
    ("v_ashrrev_i32 v0, v1, v2", {1: 4, 2: 0x80000000}, 0xF8000000),
    ("v_mul_lo_u32 v0, v1, v2", {1: 0x10000, 2: 0x10001}, 0x10000),
    ("v_mul_hi_u32 v0, v1, v2", {1: 0xFFFFFFFF, 2: 0xFFFFFFFF}, 0xFFFFFFFE),
    ("v_mul_hi_i32 v0, v1, v2", {1: 0xFFFFFFFF, 2: 2}, 0xFFFFFFFF),
    ("v_mul_u32_u24 v0, v1, v2", {1: 0x01000003, 2: 5}, 15),
    ("v_bfe_u32 v0, v1, 8, 4", {1: 0x00000A00}, 0xA),
    ("v_bfe_i32 v0, v1, 8, 4", {1: 0x00000A00}, 0xFFFFFFFA),
    ("v_bfi_b32 v0, v1, v2, v3", {1: 0xFF00FF00, 2: 0x12345678, 3: 0xABCDEF01}, 0x12CD5601),
    ("v_alignbit_b32 v0, v1, v2, 8", {1: 0x000000AB, 2: 0xCD000000}, 0xABCD0000),
    ("v_perm_b32 v0, v1, v2, v3", {1: 0x44332211, 2: 0x88776655, 3: 0x0C070400}, 0x00441155),
    ("v_bcnt_u32_b32 v0, v1, 3", {1: 0xF0F0F0F0}, 19),
    ("v_clz_i32_u32 v0, v1", {1: 0x00010000}, 15),
    ("v_clz_i32_u32 v0, v1", {1: 0}, 0xFFFFFFFF),
    ("v_ctz_i32_b32 v0, v1", {1: 0x00010000}, 16),
    ("v_bfrev_b32 v0, v1", {1: 1}, 0x80000000),
    ("v_min_i32 v0, v1, v2", {1: 0xFFFFFFFF, 2: 1}, 0xFFFFFFFF),
    ("v_min_u32 v0, v1, v2", {1: 0xFFFFFFFF, 2: 1}, 1),
    ("v_max3_i32 v0, v1, v2, v3", {1: 5, 2: 0xFFFFFFF0, 3: 7}, 7),
    ("v_med3_i32 v0, v1, v2, v3", {1: 5, 2: 0xFFFFFFF0, 3: 7}, 5),
    ("v_add3_u32 v0, v1, v2, v3", {1: 1, 2: 2, 3: 3}, 6),
    ("v_lshl_add_u32 v0, v1, 4, v2", {1: 1, 2: 3}, 19),
    ("v_xor3_b32 v0, v1, v2, v3", {1: 1, 2: 2, 3: 4}, 7),
    ("v_cndmask_b32 v0, v1, v2, vcc_lo", {1: 10, 2: 20}, 20),
    ("v_cvt_f16_f32 v0, v1", {1: f32(1.0)}, 0x3C00),
    ("v_cvt_f32_f16 v0, v1", {1: 0x3C00}, f32(1.0)),
    ("v_add_f16 v0, v1, v2", {1: 0x3C00, 2: 0x3C00}, 0x4000),
    ("v_pk_add_f16 v0, v1, v2", {1: 0x40003C00, 2: 0x3C003C00}, 0x42004000),
    ("v_mov_b32 v0, 0.5", {}, f32(0.5)),
    ("v_mov_b32 v0, -16", {}, 0xFFFFFFF0),
    ("v_mov_b32 v0, 0x12345678", {}, 0x12345678),
]


@pytest.mark.parametrize("text,regs,expect", VALU_CASES, ids=[c[0] for c in VALU_CASES])
def test_valu(text, regs, expect):
    m = Snippet([text], vgpr=regs, sgpr={106: 0xFFFFFFFF}).run()
    got = int(m.st.V[0, 0, 0])
    if expect == "nan":
        assert math.isnan(as_f32(got))
    else:
        assert got == expect, f"{text}: got 0x{got:08x}, expected 0x{expect:08x}"


F64_CASES = [
    ("v_add_f64 v[0:1], v[2:3], v[4:5]", 1.25, 2.5, 3.75),
    ("v_mul_f64 v[0:1], v[2:3], v[4:5]", 1e300, 1e10, math.inf),
    ("v_fma_f64 v[0:1], v[2:3], v[4:5], v[6:7]", 1 + 2**-52, 1 - 2**-52, -(2**-104)),
    ("v_rcp_f64 v[0:1], v[2:3]", 4.0, None, 0.25),
    ("v_sqrt_f64 v[0:1], v[2:3]", 2.0, None, math.sqrt(2.0)),
    ("v_max_f64 v[0:1], v[2:3], v[4:5]", math.nan, 3.0, 3.0),
    ("v_floor_f64 v[0:1], v[2:3]", -0.5, None, -1.0),
    ("v_fract_f64 v[0:1], v[2:3]", 2.75, None, 0.75),
    ("v_ldexp_f64 v[0:1], v[2:3], v4", 3.0, None, 48.0),
]


@pytest.mark.parametrize("text,a,b,expect", F64_CASES, ids=[c[0] for c in F64_CASES])
def test_f64(text, a, b, expect):
    regs = dict(zip((2, 3), f64(a)))
    if b is not None:
        regs.update(zip((4, 5), f64(b)))
    if "v[6:7]" in text:
        regs.update(zip((6, 7), f64(-1.0)))
    if text.endswith("v4"):
        regs[4] = 4
    m = Snippet([text], vgpr=regs).run()
    got = as_f64(m.st.V[0, 0, 0], m.st.V[1, 0, 0])
    assert got == expect or (math.isnan(expect) and math.isnan(got))


def test_denorm_mode_flushes_f32_inputs_and_outputs():
    m = Snippet(
        [
            "v_add_f32 v0, v1, v2",
            "s_denorm_mode 0",
            "v_add_f32 v3, v1, v2",
            "v_mul_f32 v4, v5, v5",
            "s_denorm_mode 15",
            "v_add_f32 v6, v1, v2",
        ],
        vgpr={1: DENORM, 2: DENORM, 5: f32(1e-20)},
    ).run()
    assert int(m.st.V[0, 0, 0]) == 2 and int(m.st.V[6, 0, 0]) == 2
    assert int(m.st.V[3, 0, 0]) == 0 and int(m.st.V[4, 0, 0]) == 0


def test_f64_conversions_and_division_sequence():
    # 1/3 through the compiler's division expansion: div_scale, rcp, fma chain, fmas, fixup
    lines = [
        "v_div_scale_f64 v[4:5], null, v[2:3], v[2:3], v[0:1]",
        "v_rcp_f64 v[6:7], v[4:5]",
        "v_fma_f64 v[8:9], -v[4:5], v[6:7], 1.0",
        "v_fma_f64 v[6:7], v[6:7], v[8:9], v[6:7]",
        "v_fma_f64 v[8:9], -v[4:5], v[6:7], 1.0",
        "v_fma_f64 v[6:7], v[6:7], v[8:9], v[6:7]",
        "v_div_scale_f64 v[8:9], vcc_lo, v[0:1], v[2:3], v[0:1]",
        "v_mul_f64 v[10:11], v[8:9], v[6:7]",
        "v_fma_f64 v[4:5], -v[4:5], v[10:11], v[8:9]",
        "v_div_fmas_f64 v[4:5], v[4:5], v[6:7], v[10:11]",
        "v_div_fixup_f64 v[12:13], v[4:5], v[2:3], v[0:1]",
        "v_cvt_i32_f64 v14, v[12:13]",
        "v_cvt_f64_i32 v[16:17], v14",
    ]
    regs = dict(zip((0, 1), f64(1.0))) | dict(zip((2, 3), f64(3.0)))
    m = Snippet(lines, vgpr=regs).run()
    assert as_f64(m.st.V[12, 0, 0], m.st.V[13, 0, 0]) == 1.0 / 3.0
    assert int(m.st.V[14, 0, 0]) == 0


def test_div_fixup_special_cases():
    lines = ["v_div_fixup_f32 v0, v1, v2, v3"]
    for den, num, expect in ((0.0, 1.0, math.inf), (0.0, 0.0, math.nan), (math.inf, 1.0, 0.0)):
        m = Snippet(lines, vgpr={1: f32(7.0), 2: f32(den), 3: f32(num)}).run()
        got = as_f32(m.st.V[0, 0, 0])
        assert got == expect or (math.isnan(expect) and math.isnan(got))


def test_compare_writes_lane_mask_and_cmpx_writes_exec():
    lanes = np.arange(32)
    m = Snippet(
        ["v_cmp_gt_i32 vcc_lo, v1, v2", "v_cmp_class_f32 s4, v3, 3", "v_cmpx_lt_u32 v1, v2"],
        vgpr={1: lanes, 2: 16, 3: [NAN if i % 2 else f32(1.0) for i in range(32)]},
    ).run()
    assert int(m.st.S[106, 0]) == 0xFFFE0000  # lanes 17..31 have v1 > 16
    assert int(m.st.S[4, 0]) == 0xAAAAAAAA  # odd lanes hold NaN (class bits 0|1)
    assert int(m.st.S[126, 0]) == 0x0000FFFF


def test_carry_chain_64bit_add():
    lo = [0xFFFFFFFF] * 16 + [1] * 16
    m = Snippet(
        ["v_add_co_u32 v0, vcc_lo, v1, v2", "v_add_co_ci_u32 v3, vcc_lo, v4, v5, vcc_lo"],
        vgpr={1: lo, 2: 1, 4: 7, 5: 0xFFFFFFFF},
    ).run()
    assert list(m.st.V[0, 0, :2]) == [0, 0] and int(m.st.V[0, 0, 20]) == 2
    assert int(m.st.V[3, 0, 0]) == 7 and int(m.st.V[3, 0, 20]) == 6
    assert int(m.st.S[106, 0]) == 0xFFFFFFFF


def test_v_mad_u64_u32_and_64bit_shift():
    m = Snippet(
        [
            "v_mad_u64_u32 v[0:1], null, v2, v3, v[4:5]",
            "v_lshlrev_b64 v[6:7], 40, v[4:5]",
            "v_ashrrev_i64 v[8:9], 63, v[10:11]",
        ],
        vgpr={2: 0xFFFFFFFF, 3: 0xFFFFFFFF, 4: 5, 5: 0, 10: 0, 11: 0x80000000},
    ).run()
    value = int(m.st.V[0, 0, 0]) | (int(m.st.V[1, 0, 0]) << 32)
    assert value == 0xFFFFFFFF * 0xFFFFFFFF + 5
    assert int(m.st.V[7, 0, 0]) == 5 << 8 and int(m.st.V[6, 0, 0]) == 0
    assert int(m.st.V[8, 0, 0]) == 0xFFFFFFFF and int(m.st.V[9, 0, 0]) == 0xFFFFFFFF


SALU_CASES = [  # (lines, sgprs, register, expected, expected SCC or None)
    (["s_add_u32 s0, s1, s2"], {1: 0xFFFFFFFF, 2: 2}, 0, 1, 1),
    (["s_add_u32 s0, s1, s2", "s_addc_u32 s3, s4, s5"], {1: 0xFFFFFFFF, 2: 1, 4: 1, 5: 1}, 3, 3, 0),
    (["s_sub_u32 s0, s1, s2"], {1: 1, 2: 2}, 0, 0xFFFFFFFF, 1),
    (["s_add_i32 s0, s1, s2"], {1: 0x7FFFFFFF, 2: 1}, 0, 0x80000000, 1),
    (["s_lshl_b32 s0, s1, s2"], {1: 1, 2: 35}, 0, 8, 1),
    (["s_lshr_b64 s[0:1], s[2:3], 36"], {2: 0, 3: 0x100}, 0, 0x10, 1),
    (["s_ashr_i32 s0, s1, 31"], {1: 0x80000000}, 0, 0xFFFFFFFF, 1),
    (["s_bfe_i32 s0, s1, 0x40004"], {1: 0xF0}, 0, 0xFFFFFFFF, 1),
    (["s_mul_hi_u32 s0, s1, s2"], {1: 0x80000000, 2: 4}, 0, 2, None),
    (["s_cmp_lt_i32 s1, s2"], {1: 0xFFFFFFFF, 2: 0}, None, None, 1),
    (["s_cmp_lt_u32 s1, s2"], {1: 0xFFFFFFFF, 2: 0}, None, None, 0),
    (["s_cmpk_eq_i32 s1, 0xffff"], {1: 0xFFFFFFFF}, None, None, 1),
    (["s_cmp_eq_u64 s[0:1], s[2:3]"], {0: 1, 1: 2, 2: 1, 3: 3}, None, None, 0),
    (["s_cselect_b32 s0, s1, s2"], {1: 11, 2: 22}, 0, 22, None),
    (["s_and_saveexec_b32 s0, s1"], {1: 0x0000FF00}, 126, 0x0000FF00, 1),
    (["s_brev_b32 s0, s1"], {1: 2}, 0, 0x40000000, None),
    (["s_bcnt1_i32_b32 s0, s1"], {1: 0xFF}, 0, 8, 1),
    (["s_ff1_i32_b32 s0, s1"], {1: 0x100}, 0, 8, None),
    (["s_movk_i32 s0, 0x8000"], {}, 0, 0xFFFF8000, None),
    (["s_sext_i32_i16 s0, s1"], {1: 0x8001}, 0, 0xFFFF8001, None),
]


@pytest.mark.parametrize(
    "lines,sgpr,reg,expect,scc", SALU_CASES, ids=[" ; ".join(c[0]) for c in SALU_CASES]
)
def test_salu(lines, sgpr, reg, expect, scc):
    m = Snippet(lines, sgpr=sgpr).run()
    if reg is not None:
        assert int(m.st.S[reg, 0]) == expect
    if scc is not None:
        assert int(m.st.SCC[0]) == scc


def test_branches_and_exec_divergence():
    lines = [
        "v_cmpx_gt_u32 16, v0",
        "s_cbranch_execz 2",
        "v_mov_b32 v1, 7",
        "s_nop 0",
        "s_mov_b32 exec_lo, -1",
        "v_add_nc_u32 v1, v1, 1",
    ]
    m = Snippet(lines, vgpr={0: np.arange(32), 1: 0}).run()
    assert list(m.st.V[1, 0]) == [8] * 16 + [1] * 16


def test_global_memory_load_store_and_atomics():
    buf = np.zeros(64, np.uint32)
    base = buf.ctypes.data
    lines = [
        "global_store_b32 v[0:1], v2, off",
        "global_load_b32 v3, v[0:1], off offset:0",
        "global_atomic_add_u32 v4, v[5:6], v7, off glc",
        "global_atomic_cmpswap_b32 v8, v[5:6], v[9:10], off offset:4 glc",
    ]
    addr = base + 4 * np.arange(32)
    target = base + 200
    m = Snippet(
        lines,
        vgpr={
            0: addr & 0xFFFFFFFF,
            1: addr >> 32,
            2: np.arange(32) * 3,
            5: target & 0xFFFFFFFF,
            6: target >> 32,
            7: 1,
            9: 99,
            10: 0,
        },
        buffers=[buf],
    ).run()
    assert list(buf[:32]) == list(np.arange(32) * 3)
    assert list(m.st.V[3, 0]) == list(np.arange(32) * 3)
    assert sorted(m.st.V[4, 0]) == list(range(32)) and buf[50] == 32
    assert buf[51] == 99 and int(m.st.V[8, 0, 0]) == 0 and int(m.st.V[8, 0, 1]) == 99


def test_out_of_bounds_is_a_fault_naming_the_address():
    from cass.runner.emulator.state import Fault

    buf = np.zeros(4, np.uint32)
    addr = buf.ctypes.data + 16
    with pytest.raises(Fault) as info:
        Snippet(
            ["global_load_b32 v0, v[1:2], off"],
            vgpr={1: addr & 0xFFFFFFFF, 2: addr >> 32},
            buffers=[buf],
        ).run()
    assert info.value.address == addr and info.value.kind == "memory"


def test_lds_and_bpermute():
    lines = [
        "ds_store_b32 v0, v1",
        "ds_load_b32 v2, v3",
        "ds_add_u32 v4, v5",
        "ds_load_b32 v6, v4",
        "ds_bpermute_b32 v7, v8, v1",
        "ds_store_2addr_b32 v9, v1, v5 offset0:2 offset1:3",
        "ds_load_2addr_b32 v[10:11], v9 offset0:2 offset1:3",
    ]
    lanes = np.arange(32)
    m = Snippet(
        lines,
        vgpr={
            0: lanes * 4,
            1: lanes + 100,
            3: (31 - lanes) * 4,
            4: 256,
            5: 2,
            8: ((lanes + 1) % 32) * 4,
            9: 512,
        },
        lds_bytes=1024,
    ).run()
    assert list(m.st.V[2, 0]) == list(131 - lanes)
    assert int(m.st.V[6, 0, 0]) == 64
    assert list(m.st.V[7, 0]) == list((lanes + 1) % 32 + 100)
    assert int(m.st.V[11, 0, 0]) == 2


def test_lds_two_address_load_into_its_own_address_register():
    lanes = np.arange(32)
    m = Snippet(
        ["ds_store_2addr_b32 v0, v1, v2 offset1:1", "ds_load_2addr_b32 v[0:1], v0 offset1:1"],
        vgpr={0: lanes * 8, 1: lanes + 500, 2: lanes + 900},
        lds_bytes=512,
    ).run()
    assert list(m.st.V[0, 0]) == list(lanes + 500) and list(m.st.V[1, 0]) == list(lanes + 900)


def test_lds_compare_store_one_winner_per_address():
    lanes = np.arange(32)
    m = Snippet(
        ["ds_store_b32 v0, v1", "ds_cmpstore_rtn_b32 v2, v0, v3, v4", "ds_load_b32 v5, v0"],
        vgpr={0: 0, 1: 7, 3: lanes + 100, 4: 7},
        lds_bytes=64,
    ).run()
    # every lane targets the same word: lane 0 swaps 7 -> 100, the others see 100 and fail
    assert int(m.st.V[2, 0, 0]) == 7 and set(m.st.V[2, 0, 1:]) == {100}
    assert int(m.st.V[5, 0, 0]) == 100


def test_mixed_precision_fma_writes_the_selected_half():
    m = Snippet(
        [
            "v_fma_mixlo_f16 v4, v6, s4, v7",
            "v_fma_mixhi_f16 v4, v6, s1, v5",
            "v_pk_mul_f16 v8, 0.5, v9",
            "v_pk_mul_f16 v10, 0x3400, v9 op_sel_hi:[0,1]",
        ],
        vgpr={6: f32(2.0), 7: f32(1.0), 5: f32(0.5), 9: 0x44004000},
        sgpr={4: f32(3.0), 1: f32(4.0)},
    ).run()
    assert int(m.st.V[4, 0, 0]) == 0x48404700  # hi 8.5, lo 7.0
    assert int(m.st.V[8, 0, 0]) == 0x40003C00  # (4, 2) * 0.5
    assert int(m.st.V[10, 0, 0]) == 0x3C003800  # (4, 2) * 0.25


def test_dpp_lane_permutations():
    lanes = np.arange(32)
    m = Snippet(
        [
            "v_mov_b32_dpp v0, v1 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:1",
            "v_add_nc_u32_dpp v2, v1, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf",
            "v_mov_b32_dpp v4, v1 dpp8:[7,6,5,4,3,2,1,0]",
            "v_mov_b32_dpp v5, v1 row_shl:1 row_mask:0x1 bank_mask:0xf",
            "v_or_b32_dpp v6, v6, v6 row_shl:1 row_mask:0xf bank_mask:0xf bound_ctrl:1",
        ],
        vgpr={1: lanes, 3: 1000, 5: 77, 6: 1 << lanes},
    ).run()
    shr = [0 if i % 16 == 0 else i - 1 for i in lanes]
    assert list(m.st.V[0, 0]) == shr
    assert list(m.st.V[2, 0]) == [(i ^ 1) + 1000 for i in lanes]
    assert list(m.st.V[4, 0]) == [(i & ~7) + 7 - (i & 7) for i in lanes]
    # row 1 masked off; lane 15 has no source (no bound_ctrl): both keep their old value
    assert list(m.st.V[5, 0]) == [i + 1 for i in range(15)] + [77] * 17
    # src1 is the unpermuted register even when it is the same VGPR as src0
    pairs = [(1 << i) | ((1 << (i + 1)) if i % 16 != 15 else 0) for i in lanes]
    assert list(m.st.V[6, 0]) == [p & 0xFFFFFFFF for p in pairs]


def test_relative_vgpr_moves_and_row_permutes():
    lanes = np.arange(32)
    m = Snippet(
        [
            "v_movrels_b32 v0, v10",
            "v_movreld_b32 v20, v1",
            "v_permlanex16_b32 v2, v3, 0, 0",
            "v_permlane16_b32 v4, v3, s4, s5",
            "v_maxmin_f32 v5, v6, v7, v8",
        ],
        vgpr={10: 1, 12: 42, 1: 9, 3: lanes + 100, 6: f32(1.0), 7: f32(5.0), 8: f32(3.0)},
        sgpr={125: 2, 4: 0x76543210, 5: 0xFEDCBA98},
    ).run()
    assert int(m.st.V[0, 0, 0]) == 42 and int(m.st.V[22, 0, 0]) == 9
    assert list(m.st.V[2, 0]) == [116] * 16 + [100] * 16  # lane 0 of the other row
    assert list(m.st.V[4, 0]) == list(lanes + 100)  # identity select within each row
    assert as_f32(m.st.V[5, 0, 0]) == 3.0


def test_unknown_instruction_is_a_fault_not_a_wrong_answer():
    from cass.runner.emulator.state import Fault

    with pytest.raises(Fault) as info:
        Snippet(["v_dot2_f32_f16 v0, v1, v2, v3"]).run()
    assert info.value.kind == "unsupported" and "v_dot2_f32_f16" in info.value.message
