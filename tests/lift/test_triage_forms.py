"""Triage fixes for single instruction forms, checked by folding the lifted IR with opt-16 or by
running the gfx1100 instruction on the emulator: packed half immediates printed as two numbers
(`HFMA2 R8, R8, 1, 1, R11`: image_processing/rgb_to_yuv420_half read them as raw bits), the
predicate a LOP3 ORs into its predicate result, `.RELU` on integer min/max, UP2UR/R2UP (uniform predicates to and from a uniform
register: numerical_methods/adaptive_simpson_recursive) and the s_bitset0/1 that llc-16's
shrink pass makes of an in-place `s_and_b32 d, d, 0x7fffffff` (ml_operators/cross_entropy_grad
faulted on the emulator with kind=unsupported), and the emulator's V_DIV_FMAS rescale (1/x for x
near the smallest normal double came out 2^64 too small)."""

from __future__ import annotations

import re
import subprocess

import pytest
from cass.models.lift.pipeline import lift_sass
from cass.runner.toolchain import has_tool, require_tool

HAVE_LLVM = has_tool("opt-16") and has_tool("llvm-mc-16")
pytestmark = pytest.mark.skipif(not HAVE_LLVM, reason="opt-16 / llvm-mc-16 are not installed")


def folded_stores(body: list[str]) -> list[str]:
    """Lift a sm_90 snippet, fold it with opt-16 -O3: the constants stored, in order."""
    lines = [f"        /*{16 * k:04x}*/  {ins} ;" for k, ins in enumerate([*body, "EXIT"])]
    result = lift_sass(
        "\tcode for sm_90\n\t\tFunction : k\n" + "\n".join(lines) + "\n",
        arch="sm_90",
        compile=False,
    )
    assert result.ok, [d.render() for d in result.diagnostics]
    opt = subprocess.run([str(require_tool("opt-16")), "-O3", "-S"], input=result.llvm_ir, capture_output=True,
                         text=True, timeout=60, check=True)  # fmt: skip
    stores = re.findall(
        r"store (?:<1 x i32> <)?i32 (-?\d+)>?, ptr|store <1 x i32> (zeroinitializer), ptr",
        opt.stdout,
    )
    return [v or ("0" if z else "") for v, z in stores]


STORE = ["LDC.64 R2, c[0x0][0x210]", "MOV R5, UR9", "STG.E desc[UR4][R2.64], R5"]


def test_packed_half_immediate_pairs_are_high_half_first() -> None:
    body = ["MOV R4, 0x40003c00",  # {2.0 : 1.0}
            "MOV R6, 0x3800b800",  # {0.5 : -0.5}
            "HFMA2 R5, R4, 2, -1, R6",  # {2*2+0.5 : 1*-1-0.5} = {4.5 : -1.5}
            "HMUL2 R7, R4, 0.25, 0.5",  # {0.5 : 0.5}
            "HFMA2.MMA R8, R4, 1, 1, R6",  # {2.5 : 0.5}
            "LDC.64 R2, c[0x0][0x210]",
            "STG.E desc[UR4][R2.64], R5", "STG.E desc[UR4][R2.64+0x4], R7", "STG.E desc[UR4][R2.64+0x8], R8"]  # fmt: skip
    assert folded_stores(body) == [
        str(v - (1 << 32) if v >> 31 else v) for v in (0x4480BE00, 0x38003800, 0x41003800)
    ]


@pytest.mark.parametrize(("lo", "hi", "want"), [(0x1, 0x0, 1), (0x0, 0x100, 1), (0x0, 0x0, 0)])
def test_lop3_predicate_ors_in_its_predicate_operand(lo: int, hi: int, want: int) -> None:
    """`(x & m) != 0` on 64 bits: the high-word LOP3 ORs in the low word's predicate
    (monte_carlo/birthday_collisions found no repeats when the high word ignored it)."""
    body = [f"MOV R4, {lo:#x}", f"MOV R5, {hi:#x}", "MOV R8, 0xffffffff", "MOV R9, 0xffffffff",
            "LOP3.LUT P0, RZ, R4, R8, RZ, 0xc0, !PT", "LOP3.LUT P0, RZ, R5, R9, RZ, 0xc0, P0",
            "SEL R10, RZ, 0x1, !P0", "LDC.64 R2, c[0x0][0x210]", "STG.E desc[UR4][R2.64], R10"]  # fmt: skip
    assert folded_stores(body) == [str(want)]


def test_relu_min_max_clamps_negative_results_to_zero() -> None:
    """`VIADDMNMX.RELU R2, R0, -1, R11, PT`: clamped image indices (image_processing/canny_edges
    read img[-1] when .RELU was ignored)."""
    body = ["MOV R0, RZ", "MOV R11, 0x7f", "MOV R3, 0xfffffff0",
            "VIADDMNMX.RELU R2, R0, 0xffffffff, R11, PT",  # min(0 - 1, 127) -> 0
            "VIMNMX.RELU R4, R3, 0x7f, PT",  # min(-16, 127) -> 0
            "VIADDMNMX R5, R0, 0xffffffff, R11, PT",  # no .RELU: -1
            "VIMNMX.RELU R6, R11, 0x10, PT",  # 16 stays
            "LDC.64 R8, c[0x0][0x210]", "STG.E desc[UR4][R8.64], R2", "STG.E desc[UR4][R8.64+0x4], R4",
            "STG.E desc[UR4][R8.64+0x8], R5", "STG.E desc[UR4][R8.64+0xc], R6"]  # fmt: skip
    assert folded_stores(body) == ["0", "0", "-1", "16"]


def test_up2ur_packs_the_uniform_predicates_and_keeps_the_other_bits() -> None:
    body = ["UISETP.NE.AND UP0, UPT, URZ, 0x10, UPT",  # true
            "UISETP.EQ.AND UP1, UPT, URZ, 0x10, UPT",  # false
            "UISETP.NE.AND UP2, UPT, URZ, 0x1, UPT",  # true
            "UMOV UR8, 0xf0f0",
            "UP2UR UR9, UPR, UR8, 0x7"]  # fmt: skip
    assert folded_stores(body + STORE) == [str(0xF0F0 & ~0x7 | 0b101)]


def test_up2ur_byte_form_and_r2up_round_trip() -> None:
    body = ["UMOV UR8, 0x500",
            "R2UP.B1 UPR, UR8, 0x7",  # UP0 = bit 8 (1), UP1 = bit 9 (0), UP2 = bit 10 (1)
            "UP2UR UR9, UPR, URZ, 0x5"]  # fmt: skip
    assert folded_stores(body + STORE) == ["5"]
    assert folded_stores(
        ["UISETP.NE.AND UP1, UPT, URZ, 0x1, UPT", "UP2UR.B2 UR9, UPR, URZ, 0x2"] + STORE
    ) == [str(2 << 16)]


def test_r2p_and_p2r_with_a_byte_selector_on_the_register() -> None:
    """`R2P PR, R4.B1, 0x7f` reads byte 1 (image_processing/canny_edges kept 16 flags in two bytes)."""
    body = ["MOV R4, 0x2a05",  # byte 0: 0b101, byte 1: 0b101010
            "R2P PR, R4.B1, 0x7f",  # P1, P3, P5
            "MOV R5, 0xffff0000",
            "P2R R5, PR, R5.B2, 0xf",  # bits 16-19 from P0-P3: 0b1010; other bits kept
            "LDC.64 R2, c[0x0][0x210]", "STG.E desc[UR4][R2.64], R5"]  # fmt: skip
    assert folded_stores(body) == [str((0xFFF00000 | 0b1010 << 16) - (1 << 32))]


def test_narrow_conversions_read_the_selected_byte_of_the_register() -> None:
    """`I2F.U8 R15, R24.B1` converts byte 1 (image_processing/bilinear_resize from sm_80 SASS
    converted byte 0 of each uchar4 four times)."""
    body = ["MOV R24, 0x4030201",
            "I2F.U8 R15, R24.B1", "I2F.S8 R16, R24.B3", "I2F.U16 R17, R24.H1",
            "FADD R15, R15, R16", "FADD R15, R15, R17",  # 2 + 4 + 0x0403
            "LDC.64 R2, c[0x0][0x210]", "STG.E desc[UR4][R2.64], R15"]  # fmt: skip
    assert folded_stores(body) == [str(0x44812000)]  # 1033.0f


@pytest.mark.parametrize(("op", "start", "bit", "want"), [
    ("s_bitset0_b32", 0xFFFFFFFF, 31, 0x7FFFFFFF), ("s_bitset1_b32", 0x1, 31, 0x80000001),
    ("s_bitset0_b32", 0xFF, 36, 0xEF),  # only S[4:0] counts
])  # fmt: skip
def test_emulator_runs_the_bitsets_llc_emits(op: str, start: int, bit: int, want: int) -> None:
    from cass.runner.emulator.snippet import Snippet

    m = Snippet(
        ["s_cmp_eq_u32 0, 0", f"{op} s4, s5", "s_cselect_b32 s6, 1, 2"], sgpr={4: start, 5: bit}
    ).run()
    assert int(m.st.S[4, 0]) == want
    assert int(m.st.S[6, 0]) == 1  # SCC untouched


@pytest.mark.parametrize(("num", "den"), [(1.0, 2.0**-1022), (1.0, -(2.0**-1022 - 2.0**-1074)), (2.0**-1030, 3.0),
                                          (3.0, 7.0), (1.0, 1e-310)])  # fmt: skip
def test_emulator_double_division_sequence_at_the_exponent_extremes(num: float, den: float) -> None:
    """llc-16's f64 fdiv: div_scale scales by 2^128 and div_fmas must undo it in the same direction."""
    import struct

    from cass.runner.emulator.snippet import Snippet

    def words(x: float) -> tuple[int, int]:
        b = struct.unpack("<Q", struct.pack("<d", x))[0]
        return b & 0xFFFFFFFF, b >> 32

    lines = ["v_div_scale_f64 v[0:1], null, s[2:3], s[2:3], s[4:5]", "v_rcp_f64_e32 v[2:3], v[0:1]",
             "v_fma_f64 v[4:5], -v[0:1], v[2:3], 1.0", "v_fma_f64 v[2:3], v[2:3], v[4:5], v[2:3]",
             "v_fma_f64 v[4:5], -v[0:1], v[2:3], 1.0", "v_fma_f64 v[2:3], v[2:3], v[4:5], v[2:3]",
             "v_div_scale_f64 v[4:5], vcc_lo, s[4:5], s[2:3], s[4:5]", "v_mul_f64 v[6:7], v[4:5], v[2:3]",
             "v_fma_f64 v[8:9], -v[0:1], v[6:7], v[4:5]", "v_div_fmas_f64 v[10:11], v[8:9], v[2:3], v[6:7]",
             "v_div_fixup_f64 v[12:13], v[10:11], s[2:3], s[4:5]"]  # fmt: skip
    (d0, d1), (n0, n1) = words(den), words(num)
    m = Snippet(lines, sgpr={2: d0, 3: d1, 4: n0, 5: n1}).run()
    got = int(m.st.V[12, 0, 0]) | int(m.st.V[13, 0, 0]) << 32
    assert got == struct.unpack("<Q", struct.pack("<d", num / den))[0]


@pytest.mark.parametrize(("num", "den"), [(1.0, 2.0**-126), (1e-30, 1e10), (3.0, 7.0)])
def test_emulator_float_division_sequence_at_the_exponent_extremes(num: float, den: float) -> None:
    import struct

    import numpy as np
    from cass.runner.emulator.snippet import Snippet

    lines = ["v_div_scale_f32 v0, null, s2, s2, s3", "v_rcp_f32_e32 v1, v0", "v_fma_f32 v2, -v0, v1, 1.0",
             "v_fmac_f32_e32 v1, v2, v1", "v_div_scale_f32 v2, vcc_lo, s3, s2, s3", "v_mul_f32_e32 v3, v2, v1",
             "v_fma_f32 v4, -v0, v3, v2", "v_fmac_f32_e32 v3, v4, v1", "v_fma_f32 v0, -v0, v3, v2",
             "v_div_fmas_f32 v0, v0, v1, v3", "v_div_fixup_f32 v5, v0, s2, s3"]  # fmt: skip

    def bits(x: float) -> int:
        return struct.unpack("<I", struct.pack("<f", x))[0]

    m = Snippet(lines, sgpr={2: bits(den), 3: bits(num)}).run()
    assert int(m.st.V[5, 0, 0]) == bits(float(np.float32(num) / np.float32(den)))
