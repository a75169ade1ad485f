"""Vector ALU semantics as data: operation name -> (destination type, source types, function).

Functions take numpy arrays already converted to the source types (float16/32/64, int/uint of
the right width) and return an array of the destination type. The same names serve the VOP1,
VOP2, VOP3 and VOPD encodings (the decoder strips `_e32`/`_e64`/`v_dual_`).
"""

from __future__ import annotations

import numpy as np
from cass.runner.emulator import fpmath as fp

u32, i32, u64, i64 = np.uint32, np.int32, np.uint64, np.int64
F16, F32, F64 = np.float16, np.float32, np.float64


def _sh(b, w):
    return (b.astype(u32) & u32(w - 1)).astype(np.uint64 if w == 64 else u32)


def _bfe(a, off, size, signed):
    off, size = off & u32(31), size & u32(31)
    r = (a >> off) & ((u32(1) << size) - u32(1))
    if signed:
        shift = (u32(32) - size) & u32(31)
        r = np.where(size == 0, u32(0), ((r << shift).view(i32) >> shift.astype(i32)).view(u32))
    return r.astype(u32)


def _clz(a):
    out = np.full(a.shape, 0xFFFFFFFF, np.uint64)
    for i in range(32):
        out = np.where((a >> u32(i)) & u32(1) == 1, 31 - i, out)
    return out.astype(u32)


def _ctz(a):
    out = np.full(a.shape, 0xFFFFFFFF, np.uint64)
    for i in range(31, -1, -1):
        out = np.where((a >> u32(i)) & u32(1) == 1, i, out)
    return out.astype(u32)


def _cls(a):
    """v_cls_i32: the position, from the MSB, of the first bit that differs from the sign bit;
    -1 when all 32 bits are the sign bit (clang normalises 64-bit integers with it)."""
    return _clz(np.where(a.view(i32) < 0, ~a, a).astype(u32))


def _brev(a):
    out = np.zeros(np.shape(a), u32)
    for i in range(32):
        out |= ((a >> u32(i)) & u32(1)) << u32(31 - i)
    return out


def _perm(s0, s1, sel):
    data = (s0.astype(u64) << u64(32)) | s1.astype(u64)
    out = np.zeros(np.broadcast(s0, s1, sel).shape, u32)
    for byte in range(4):
        bsel = (sel >> u32(8 * byte)) & u32(0xFF)
        picked = ((data >> (np.minimum(bsel, 7).astype(u64) * u64(8))) & u64(0xFF)).astype(u32)
        sign = {8: 15, 9: 31, 10: 47, 11: 63}
        for code, bit in sign.items():
            picked = np.where(
                bsel == code, ((data >> u64(bit)) & u64(1)).astype(u32) * 0xFF, picked
            )
        picked = np.where(bsel == 12, u32(0), np.where(bsel >= 13, u32(0xFF), picked))
        out |= picked.astype(u32) << u32(8 * byte)
    return out


def _mul_hi_u32(a, b):
    return ((a.astype(u64) * b.astype(u64)) >> u64(32)).astype(u32)


def _mul_hi_i32(a, b):
    return ((a.astype(i64) * b.astype(i64)) >> 64 - 32).astype(i32)


def _u24(a):
    return a & u32(0xFFFFFF)


def _i24(a):
    return ((a << u32(8)).view(i32) >> 8).astype(i64)


def _cvt_f16(x):
    return x.astype(F16)


def _pk_rtz(a, b):
    def rtz(x):
        h = x.astype(F16)
        back = h.astype(F32)
        over = np.abs(back) > np.abs(x)
        fixed = np.where(over & np.isfinite(x), np.nextafter(h, F16(0)), h)
        return fixed.astype(F16).view(np.uint16).astype(u32)

    return rtz(a) | (rtz(b) << u32(16))


def _sat16(x, lo, hi):
    return np.clip(x.astype(i64), lo, hi).astype(i64).astype(u32) & u32(0xFFFF)


VALU = {
    # moves, bit operations, integer arithmetic
    "v_mov_b32": ("b32", ("b32",), lambda a: a),
    "v_mov_b16": ("b16", ("b16",), lambda a: a),
    "v_not_b32": ("b32", ("b32",), lambda a: ~a),
    "v_bfrev_b32": ("b32", ("b32",), _brev),
    "v_clz_i32_u32": ("b32", ("u32",), _clz),
    "v_ctz_i32_b32": ("b32", ("u32",), _ctz),
    "v_cls_i32": ("b32", ("u32",), _cls),
    "v_and_b32": ("b32", ("b32", "b32"), lambda a, b: a & b),
    "v_or_b32": ("b32", ("b32", "b32"), lambda a, b: a | b),
    "v_xor_b32": ("b32", ("b32", "b32"), lambda a, b: a ^ b),
    "v_xnor_b32": ("b32", ("b32", "b32"), lambda a, b: ~(a ^ b)),
    "v_lshlrev_b32": ("b32", ("u32", "u32"), lambda a, b: b << _sh(a, 32)),
    "v_lshrrev_b32": ("b32", ("u32", "u32"), lambda a, b: b >> _sh(a, 32)),
    "v_ashrrev_i32": ("b32", ("u32", "i32"), lambda a, b: b >> _sh(a, 32).astype(i32)),
    "v_lshlrev_b64": ("b64", ("u32", "u64"), lambda a, b: b << _sh(a, 64)),
    "v_lshrrev_b64": ("b64", ("u32", "u64"), lambda a, b: b >> _sh(a, 64)),
    "v_ashrrev_i64": ("b64", ("u32", "i64"), lambda a, b: b >> _sh(a, 64).astype(i64)),
    "v_lshlrev_b16": ("b16", ("u16", "u16"), lambda a, b: b << (a & u32(15))),
    "v_lshrrev_b16": ("b16", ("u16", "u16"), lambda a, b: b >> (a & u32(15))),
    "v_ashrrev_i16": ("b16", ("u16", "i16"), lambda a, b: b >> (a & u32(15)).astype(i32)),
    "v_add_nc_u32": ("b32", ("u32", "u32"), lambda a, b: a + b),
    "v_sub_nc_u32": ("b32", ("u32", "u32"), lambda a, b: a - b),
    "v_subrev_nc_u32": ("b32", ("u32", "u32"), lambda a, b: b - a),
    "v_add_nc_i32": ("b32", ("i32", "i32"), lambda a, b: a + b),
    "v_sub_nc_i32": ("b32", ("i32", "i32"), lambda a, b: a - b),
    "v_add_nc_u16": ("b16", ("u16", "u16"), lambda a, b: a + b),
    "v_sub_nc_u16": ("b16", ("u16", "u16"), lambda a, b: a - b),
    "v_add_nc_i16": ("b16", ("i16", "i16"), lambda a, b: a + b),
    "v_sub_nc_i16": ("b16", ("i16", "i16"), lambda a, b: a - b),
    "v_mul_lo_u16": ("b16", ("u16", "u16"), lambda a, b: a * b),
    "v_mad_u16": ("b16", ("u16", "u16", "u16"), lambda a, b, c: a * b + c),
    "v_mul_u32_u24": ("b32", ("u32", "u32"), lambda a, b: _u24(a) * _u24(b)),
    "v_mul_hi_u32_u24": (
        "b32",
        ("u32", "u32"),
        lambda a, b: ((_u24(a).astype(u64) * _u24(b)) >> u64(32)).astype(u32),
    ),
    "v_mul_i32_i24": ("b32", ("u32", "u32"), lambda a, b: (_i24(a) * _i24(b)).astype(u32)),
    "v_mul_hi_i32_i24": (
        "b32",
        ("u32", "u32"),
        lambda a, b: ((_i24(a) * _i24(b)) >> 32).astype(u32),
    ),
    "v_mad_u32_u24": ("b32", ("u32", "u32", "u32"), lambda a, b, c: _u24(a) * _u24(b) + c),
    "v_mad_i32_i24": (
        "b32",
        ("u32", "u32", "i32"),
        lambda a, b, c: (_i24(a) * _i24(b) + c).astype(u32),
    ),
    "v_mul_lo_u32": ("b32", ("u32", "u32"), lambda a, b: a * b),
    "v_mul_hi_u32": ("b32", ("u32", "u32"), _mul_hi_u32),
    "v_mul_hi_i32": ("b32", ("i32", "i32"), _mul_hi_i32),
    "v_min_i32": ("b32", ("i32", "i32"), np.minimum),
    "v_max_i32": ("b32", ("i32", "i32"), np.maximum),
    "v_min_u32": ("b32", ("u32", "u32"), np.minimum),
    "v_max_u32": ("b32", ("u32", "u32"), np.maximum),
    "v_min_i16": ("b16", ("i16", "i16"), np.minimum),
    "v_max_i16": ("b16", ("i16", "i16"), np.maximum),
    "v_min_u16": ("b16", ("u16", "u16"), np.minimum),
    "v_max_u16": ("b16", ("u16", "u16"), np.maximum),
    "v_min3_i32": ("b32", ("i32",) * 3, lambda a, b, c: np.minimum(np.minimum(a, b), c)),
    "v_max3_i32": ("b32", ("i32",) * 3, lambda a, b, c: np.maximum(np.maximum(a, b), c)),
    "v_min3_u32": ("b32", ("u32",) * 3, lambda a, b, c: np.minimum(np.minimum(a, b), c)),
    "v_max3_u32": ("b32", ("u32",) * 3, lambda a, b, c: np.maximum(np.maximum(a, b), c)),
    "v_med3_i32": (
        "b32",
        ("i32",) * 3,
        lambda a, b, c: np.maximum(np.minimum(a, b), np.minimum(np.maximum(a, b), c)),
    ),
    "v_med3_u32": (
        "b32",
        ("u32",) * 3,
        lambda a, b, c: np.maximum(np.minimum(a, b), np.minimum(np.maximum(a, b), c)),
    ),
    "v_add3_u32": ("b32", ("u32",) * 3, lambda a, b, c: a + b + c),
    "v_add_lshl_u32": ("b32", ("u32",) * 3, lambda a, b, c: (a + b) << _sh(c, 32)),
    "v_lshl_add_u32": ("b32", ("u32",) * 3, lambda a, b, c: (a << _sh(b, 32)) + c),
    "v_lshl_or_b32": ("b32", ("u32",) * 3, lambda a, b, c: (a << _sh(b, 32)) | c),
    "v_and_or_b32": ("b32", ("u32",) * 3, lambda a, b, c: (a & b) | c),
    "v_or3_b32": ("b32", ("u32",) * 3, lambda a, b, c: a | b | c),
    "v_xor3_b32": ("b32", ("u32",) * 3, lambda a, b, c: a ^ b ^ c),
    "v_xad_u32": ("b32", ("u32",) * 3, lambda a, b, c: (a ^ b) + c),
    "v_alignbit_b32": (
        "b32",
        ("u32",) * 3,
        lambda a, b, c: (
            ((a.astype(u64) << u64(32)) | b.astype(u64)) >> (c & u32(31)).astype(u64)
        ).astype(u32),
    ),
    "v_alignbyte_b32": (
        "b32",
        ("u32",) * 3,
        lambda a, b, c: (
            ((a.astype(u64) << u64(32)) | b.astype(u64)) >> ((c & u32(3)) * u32(8)).astype(u64)
        ).astype(u32),
    ),
    "v_bfe_u32": ("b32", ("u32",) * 3, lambda a, b, c: _bfe(a, b, c, False)),
    "v_bfe_i32": ("b32", ("u32",) * 3, lambda a, b, c: _bfe(a, b, c, True)),
    "v_bfi_b32": ("b32", ("u32",) * 3, lambda a, b, c: (a & b) | (~a & c)),
    "v_bfm_b32": (
        "b32",
        ("u32", "u32"),
        lambda a, b: ((u32(1) << (a & u32(31))) - u32(1)) << (b & u32(31)),
    ),
    "v_perm_b32": ("b32", ("u32",) * 3, _perm),
    "v_bcnt_u32_b32": ("b32", ("u32", "u32"), lambda a, b: np.bitwise_count(a).astype(u32) + b),
    "v_sad_u32": ("b32", ("u32",) * 3, lambda a, b, c: np.where(a > b, a - b, b - a) + c),
    "v_mad_u64_u32": ("b64", ("u32", "u32", "u64"), lambda a, b, c: a.astype(u64) * b + c),
    "v_mad_i64_i32": ("b64", ("i32", "i32", "i64"), lambda a, b, c: a.astype(i64) * b + c),
    "v_cvt_pk_i16_i32": (
        "b32",
        ("i32", "i32"),
        lambda a, b: _sat16(a, -32768, 32767) | (_sat16(b, -32768, 32767) << u32(16)),
    ),
    "v_cvt_pk_u16_u32": (
        "b32",
        ("u32", "u32"),
        lambda a, b: _sat16(a, 0, 65535) | (_sat16(b, 0, 65535) << u32(16)),
    ),
    "v_pack_b32_f16": ("b32", ("b16", "b16"), lambda a, b: (a & u32(0xFFFF)) | (b << u32(16))),
    # float32
    "v_add_f32": ("f32", ("f32", "f32"), np.add),
    "v_sub_f32": ("f32", ("f32", "f32"), np.subtract),
    "v_subrev_f32": ("f32", ("f32", "f32"), lambda a, b: b - a),
    "v_mul_f32": ("f32", ("f32", "f32"), np.multiply),
    "v_mul_legacy_f32": (
        "f32",
        ("f32", "f32"),
        lambda a, b: np.where((a == 0) | (b == 0), F32(0), a * b),
    ),
    # gfx11's name for it, and the FMA of the same rule (DX9: zero times anything is +0)
    "v_mul_dx9_zero_f32": (
        "f32",
        ("f32", "f32"),
        lambda a, b: np.where((a == 0) | (b == 0), F32(0), a * b),
    ),
    "v_fma_dx9_zero_f32": (
        "f32",
        ("f32",) * 3,
        lambda a, b, c: np.where((a == 0) | (b == 0), F32(0) + c, fp.fma(a, b, c, F32)),
    ),
    "v_min_f32": ("f32", ("f32", "f32"), fp.ieee_min),
    "v_max_f32": ("f32", ("f32", "f32"), fp.ieee_max),
    "v_min3_f32": ("f32", ("f32",) * 3, lambda a, b, c: fp.ieee_min(fp.ieee_min(a, b), c)),
    "v_max3_f32": ("f32", ("f32",) * 3, lambda a, b, c: fp.ieee_max(fp.ieee_max(a, b), c)),
    "v_med3_f32": ("f32", ("f32",) * 3, fp.med3),
    "v_maxmin_f32": ("f32", ("f32",) * 3, lambda a, b, c: fp.ieee_min(fp.ieee_max(a, b), c)),
    "v_minmax_f32": ("f32", ("f32",) * 3, lambda a, b, c: fp.ieee_max(fp.ieee_min(a, b), c)),
    "v_maxmin_f16": ("f16", ("f16",) * 3, lambda a, b, c: fp.ieee_min(fp.ieee_max(a, b), c)),
    "v_minmax_f16": ("f16", ("f16",) * 3, lambda a, b, c: fp.ieee_max(fp.ieee_min(a, b), c)),
    "v_maxmin_i32": ("b32", ("i32",) * 3, lambda a, b, c: np.minimum(np.maximum(a, b), c)),
    "v_minmax_i32": ("b32", ("i32",) * 3, lambda a, b, c: np.maximum(np.minimum(a, b), c)),
    "v_maxmin_u32": ("b32", ("u32",) * 3, lambda a, b, c: np.minimum(np.maximum(a, b), c)),
    "v_minmax_u32": ("b32", ("u32",) * 3, lambda a, b, c: np.maximum(np.minimum(a, b), c)),
    "v_min3_f16": ("f16", ("f16",) * 3, lambda a, b, c: fp.ieee_min(fp.ieee_min(a, b), c)),
    "v_max3_f16": ("f16", ("f16",) * 3, lambda a, b, c: fp.ieee_max(fp.ieee_max(a, b), c)),
    "v_fma_f32": ("f32", ("f32",) * 3, lambda a, b, c: fp.fma(a, b, c, F32)),
    "v_fmac_f32": ("f32", ("f32", "f32", "f32"), lambda a, b, d: fp.fma(a, b, d, F32)),
    "v_fmaak_f32": ("f32", ("f32",) * 3, lambda a, b, k: fp.fma(a, b, k, F32)),
    "v_fmamk_f32": ("f32", ("f32",) * 3, lambda a, k, b: fp.fma(a, k, b, F32)),
    "v_ldexp_f32": ("f32", ("f32", "i32"), fp.ldexp),
    "v_sqrt_f32": ("f32", ("f32",), np.sqrt),
    "v_rcp_f32": ("f32", ("f32",), fp.rcp),
    "v_rcp_iflag_f32": ("f32", ("f32",), fp.rcp),
    "v_rsq_f32": ("f32", ("f32",), fp.rsq),
    "v_exp_f32": ("f32", ("f32",), lambda a: np.exp2(a.astype(F64)).astype(F32)),
    "v_log_f32": ("f32", ("f32",), lambda a: np.log2(a.astype(F64)).astype(F32)),
    "v_sin_f32": ("f32", ("f32",), lambda a: np.sin(2 * np.pi * a.astype(F64)).astype(F32)),
    "v_cos_f32": ("f32", ("f32",), lambda a: np.cos(2 * np.pi * a.astype(F64)).astype(F32)),
    "v_floor_f32": ("f32", ("f32",), np.floor),
    "v_ceil_f32": ("f32", ("f32",), np.ceil),
    "v_trunc_f32": ("f32", ("f32",), np.trunc),
    "v_rndne_f32": ("f32", ("f32",), np.rint),
    "v_fract_f32": ("f32", ("f32",), fp.fract),
    "v_frexp_mant_f32": ("f32", ("f32",), fp.frexp_mant),
    "v_frexp_exp_i32_f32": ("b32", ("f32",), fp.frexp_exp),
    "v_div_fixup_f32": ("f32", ("f32",) * 3, fp.div_fixup),
    "v_cvt_f32_i32": ("f32", ("i32",), lambda a: a.astype(F32)),
    "v_cvt_f32_u32": ("f32", ("u32",), lambda a: a.astype(F32)),
    "v_cvt_i32_f32": ("b32", ("f32",), lambda a: fp.to_int(a, i32)),
    "v_cvt_u32_f32": ("b32", ("f32",), lambda a: fp.to_int(a, u32)),
    "v_cvt_rpi_i32_f32": ("b32", ("f32",), lambda a: fp.to_int(np.floor(a + F32(0.5)), i32)),
    "v_cvt_flr_i32_f32": ("b32", ("f32",), lambda a: fp.to_int(np.floor(a), i32)),
    "v_cvt_f32_ubyte0": ("f32", ("u32",), lambda a: (a & u32(0xFF)).astype(F32)),
    "v_cvt_f32_ubyte1": ("f32", ("u32",), lambda a: ((a >> u32(8)) & u32(0xFF)).astype(F32)),
    "v_cvt_f32_ubyte2": ("f32", ("u32",), lambda a: ((a >> u32(16)) & u32(0xFF)).astype(F32)),
    "v_cvt_f32_ubyte3": ("f32", ("u32",), lambda a: (a >> u32(24)).astype(F32)),
    "v_cvt_f32_f16": ("f32", ("f16",), lambda a: a.astype(F32)),
    "v_cvt_f16_f32": ("f16", ("f32",), _cvt_f16),
    "v_cvt_f32_f64": ("f32", ("f64",), lambda a: a.astype(F32)),
    "v_cvt_f64_f32": ("f64", ("f32",), lambda a: a.astype(F64)),
    "v_cvt_pk_rtz_f16_f32": ("b32", ("f32", "f32"), _pk_rtz),
    "v_cvt_pkrtz_f16_f32": ("b32", ("f32", "f32"), _pk_rtz),
    # float64
    "v_add_f64": ("f64", ("f64", "f64"), np.add),
    "v_mul_f64": ("f64", ("f64", "f64"), np.multiply),
    "v_min_f64": ("f64", ("f64", "f64"), fp.ieee_min),
    "v_max_f64": ("f64", ("f64", "f64"), fp.ieee_max),
    "v_fma_f64": ("f64", ("f64",) * 3, lambda a, b, c: fp.fma(a, b, c, F64)),
    "v_ldexp_f64": ("f64", ("f64", "i32"), fp.ldexp),
    "v_sqrt_f64": ("f64", ("f64",), np.sqrt),
    "v_rcp_f64": ("f64", ("f64",), lambda a: 1.0 / a),
    "v_rsq_f64": ("f64", ("f64",), fp.rsq),
    "v_floor_f64": ("f64", ("f64",), np.floor),
    "v_ceil_f64": ("f64", ("f64",), np.ceil),
    "v_trunc_f64": ("f64", ("f64",), np.trunc),
    "v_rndne_f64": ("f64", ("f64",), np.rint),
    "v_fract_f64": ("f64", ("f64",), fp.fract),
    "v_frexp_mant_f64": ("f64", ("f64",), fp.frexp_mant),
    "v_frexp_exp_i32_f64": ("b32", ("f64",), fp.frexp_exp),
    "v_div_fixup_f64": ("f64", ("f64",) * 3, fp.div_fixup),
    "v_trig_preop_f64": ("f64", ("f64", "u32"), fp.trig_preop),
    "v_cvt_f64_i32": ("f64", ("i32",), lambda a: a.astype(F64)),
    "v_cvt_f64_u32": ("f64", ("u32",), lambda a: a.astype(F64)),
    "v_cvt_i32_f64": ("b32", ("f64",), lambda a: fp.to_int(a, i32)),
    "v_cvt_u32_f64": ("b32", ("f64",), lambda a: fp.to_int(a, u32)),
    # float16
    "v_add_f16": ("f16", ("f16", "f16"), fp.f16_add),
    "v_sub_f16": ("f16", ("f16", "f16"), fp.f16_sub),
    "v_subrev_f16": ("f16", ("f16", "f16"), lambda a, b: fp.f16_sub(b, a)),
    "v_mul_f16": ("f16", ("f16", "f16"), fp.f16_mul),
    "v_fma_f16": ("f16", ("f16",) * 3, lambda a, b, c: fp.fma(a, b, c, F16)),
    "v_fmac_f16": ("f16", ("f16",) * 3, lambda a, b, d: fp.fma(a, b, d, F16)),
    "v_min_f16": ("f16", ("f16", "f16"), fp.ieee_min),
    "v_max_f16": ("f16", ("f16", "f16"), fp.ieee_max),
    "v_sqrt_f16": ("f16", ("f16",), lambda a: np.sqrt(a.astype(F32)).astype(F16)),
    "v_rcp_f16": ("f16", ("f16",), lambda a: (1.0 / a.astype(F32)).astype(F16)),
    "v_rsq_f16": ("f16", ("f16",), lambda a: (1.0 / np.sqrt(a.astype(F32))).astype(F16)),
    "v_exp_f16": ("f16", ("f16",), lambda a: np.exp2(a.astype(F32)).astype(F16)),
    "v_log_f16": ("f16", ("f16",), lambda a: np.log2(a.astype(F32)).astype(F16)),
    "v_ldexp_f16": ("f16", ("f16", "i16"), fp.ldexp),
    "v_floor_f16": ("f16", ("f16",), np.floor),
    "v_ceil_f16": ("f16", ("f16",), np.ceil),
    "v_trunc_f16": ("f16", ("f16",), np.trunc),
    "v_rndne_f16": ("f16", ("f16",), np.rint),
    "v_fract_f16": ("f16", ("f16",), fp.fract),
    "v_cvt_f16_i16": ("f16", ("i16",), lambda a: a.astype(F16)),
    "v_cvt_f16_u16": ("f16", ("u16",), lambda a: a.astype(F16)),
    "v_cvt_i16_f16": ("b16", ("f16",), lambda a: fp.to_int(a, np.int16)),
    "v_cvt_u16_f16": ("b16", ("f16",), lambda a: fp.to_int(a, np.uint16)),
    "v_div_fixup_f16": ("f16", ("f16",) * 3, fp.div_fixup),
}
