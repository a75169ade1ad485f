"""Floating-point reference semantics following the RDNA3 pseudocode: fused multiply-add (exact,
through libm), the division helper sequence, classes, frexp/ldexp, correctly rounded
"approximate" hardware ops, IEEE-mode min/max, saturating conversions."""

from __future__ import annotations

import ctypes

import numpy as np

F16, F32, F64 = np.float16, np.float32, np.float64
_FMA = None


def _fma_lib():
    global _FMA
    if _FMA is None:
        try:
            lib = ctypes.CDLL(None)
            lib.cass_fma_f64  # noqa: B018  (present when running inside a HIP program)
        except AttributeError:
            from cass.runner.emulator.build import runtime_library

            lib = ctypes.CDLL(str(runtime_library()))
        for name in ("cass_fma_f64", "cass_fma_f32"):
            getattr(lib, name).restype = None
        _FMA = lib
    return _FMA


def fma(a, b, c, dtype):
    a, b, c = np.broadcast_arrays(np.asarray(a, dtype), np.asarray(b, dtype), np.asarray(c, dtype))
    a, b, c = (np.ascontiguousarray(x, dtype) for x in (a, b, c))
    if dtype == F16:
        wide = a.astype(F64) * b.astype(F64) + c.astype(F64)  # exact product; one f16 rounding
        return first_nan(wide.astype(F16), a, b, c)
    out = np.empty(a.shape, dtype)
    fn = _fma_lib().cass_fma_f64 if dtype == F64 else _fma_lib().cass_fma_f32
    ptr = ctypes.c_void_p
    fn(
        ptr(a.ctypes.data),
        ptr(b.ctypes.data),
        ptr(c.ctypes.data),
        ptr(out.ctypes.data),
        ctypes.c_size_t(out.size),
    )
    return out


def exponent(x):
    """Biased exponent field."""
    if x.dtype == F64:
        return ((x.view(np.uint64) >> np.uint64(52)) & np.uint64(0x7FF)).astype(np.int64)
    if x.dtype == F16:
        return ((x.view(np.uint16) >> np.uint16(10)) & np.uint16(0x1F)).astype(np.int64)
    return ((x.view(np.uint32) >> np.uint32(23)) & np.uint32(0xFF)).astype(np.int64)


def is_denorm(x):
    return (exponent(x) == 0) & (x != 0)


_QUIET = {np.dtype(F16): 0x200, np.dtype(F32): 0x400000, np.dtype(F64): 0x8000000000000}


def first_nan(result, *operands):
    """`result`, except that a NaN result is the first NaN operand in operand order, quieted: the
    rule of every arithmetic instruction in both engines (the host's own choice depends on which
    operand order its compiler picked; numpy's f16 loops return the second NaN of two)."""
    nan = np.isnan(result)
    if not nan.any():
        return result
    out = result.copy()
    bits = out.view(f"u{out.itemsize}")
    for x in reversed(operands):
        x = np.broadcast_to(np.asarray(x, out.dtype), out.shape)
        pick = nan & np.isnan(x)
        bits[pick] = x.view(bits.dtype)[pick] | bits.dtype.type(_QUIET[out.dtype])
    return out


def f16_add(a, b):
    return first_nan(np.add(a, b), a, b)


def f16_sub(a, b):
    return first_nan(np.subtract(a, b), a, b)


def f16_mul(a, b):
    return first_nan(np.multiply(a, b), a, b)


def ieee_max(a, b):
    return np.where(
        np.isnan(b),
        a,
        np.where(
            np.isnan(a),
            b,
            np.where((a > b) | ((a == 0) & (b == 0) & ~np.signbit(a) & np.signbit(b)), a, b),
        ),
    )


def ieee_min(a, b):
    return np.where(
        np.isnan(b),
        a,
        np.where(
            np.isnan(a),
            b,
            np.where((a < b) | ((a == 0) & (b == 0) & np.signbit(a) & ~np.signbit(b)), a, b),
        ),
    )


def med3(a, b, c):
    nan = np.isnan(a) | np.isnan(b) | np.isnan(c)
    mx = ieee_max(ieee_max(a, b), c)
    mid = np.where(mx == a, ieee_max(b, c), np.where(mx == b, ieee_max(a, c), ieee_max(a, b)))
    return np.where(nan, ieee_min(ieee_min(a, b), c), mid)


def to_int(x, dtype):
    """Saturating float -> int conversion (NaN -> 0), truncating toward zero."""
    info = np.iinfo(dtype)
    t = np.trunc(np.nan_to_num(x.astype(F64), nan=0.0))
    return np.clip(t, info.min, info.max).astype(dtype)


def rcp(x):
    with np.errstate(all="ignore"):
        return (1.0 / x.astype(F64)).astype(x.dtype)


def rsq(x):
    with np.errstate(all="ignore"):
        if x.dtype == F64:
            return 1.0 / np.sqrt(x)
        return (1.0 / np.sqrt(x.astype(F64))).astype(x.dtype)


def fract(x):
    f = x - np.floor(x)
    limit = np.nextafter(x.dtype.type(1), x.dtype.type(0))
    return np.where(np.isinf(x), x.dtype.type(np.nan), np.minimum(f, limit))


def frexp_mant(x):
    m, _ = np.frexp(x)
    return np.where(np.isinf(x) | np.isnan(x), x, m).astype(x.dtype)


def frexp_exp(x):
    _, e = np.frexp(x)
    return np.where(np.isinf(x) | np.isnan(x), 0, e).astype(np.int32)


def ldexp(x, e):
    e = np.clip(e.astype(np.int64), -2000, 2000).astype(np.int32)
    return np.ldexp(x, e).astype(x.dtype)


def cmp_class(x, mask):
    mask = mask.astype(np.int64)
    bits = x.view(np.uint64 if x.dtype == F64 else np.uint32)
    quiet_bit = (1 << 51) if x.dtype == F64 else (1 << 22)
    quiet = (bits.astype(np.uint64) & np.uint64(quiet_bit)) != 0
    neg = np.signbit(x)
    e = exponent(x)
    top = 2047 if x.dtype == F64 else 255
    cls = np.where(
        np.isnan(x),
        np.where(quiet, 1, 0),
        np.where(
            e == top,
            np.where(neg, 2, 9),
            np.where(
                e > 0,
                np.where(neg, 3, 8),
                np.where(x != 0, np.where(neg, 4, 7), np.where(neg, 5, 6)),
            ),
        ),
    )
    return ((mask >> cls) & 1).astype(bool)


def div_scale(s0, s1, s2):
    """Returns (D, VCC) per V_DIV_SCALE_F32/F64."""
    f64 = s0.dtype == F64
    big, tiny, scale = (768, 53, 128) if f64 else (96, 23, 64)
    e1, e2 = exponent(s1), exponent(s2)
    with np.errstate(all="ignore"):
        inv = 1.0 / s1.astype(F64)
        quo = (s2 / s1).astype(s0.dtype)
    inv_den = (inv != 0) & (
        np.abs(inv) < (2.2250738585072014e-308 if f64 else 1.1754943508222875e-38)
    )
    quo_den = is_denorm(quo)
    d = s0.copy()
    vcc = np.zeros(s0.shape, bool)
    up, down = ldexp(s0, np.full(s0.shape, scale)), ldexp(s0, np.full(s0.shape, -scale))
    zero = (s2 == 0) | (s1 == 0)
    c1 = ~zero & (e2 - e1 >= big)
    c2 = ~zero & ~c1 & is_denorm(s1)
    c3 = ~zero & ~c1 & ~c2 & inv_den & quo_den
    c4 = ~zero & ~c1 & ~c2 & ~c3 & inv_den
    c5 = ~zero & ~c1 & ~c2 & ~c3 & ~c4 & quo_den
    c6 = ~zero & ~c1 & ~c2 & ~c3 & ~c4 & ~c5 & (e2 <= tiny)
    d = np.where(zero, s0.dtype.type(np.nan), d)
    d = np.where((c1 | c3) & (s0 == s1), up, d)
    d = np.where(c2 | c6, up, d)
    d = np.where(c4, down, d)
    d = np.where(c5 & (s0 == s2), up, d)
    vcc = c1 | c3 | c5
    return d.astype(s0.dtype), vcc


def div_fmas(s0, s1, s2, vcc):
    """fma, rescaled where VCC is set by the power of two V_DIV_SCALE applied (2^128 for f64, 2^64
    for f32): up when the quotient estimate S2 is >= 2 (the denominator was scaled up), down when
    it is < 2 (the numerator was scaled up for a denormal quotient)."""
    f64 = s0.dtype == F64
    r = fma(s0, s1, s2, s0.dtype)
    scale, bias = (128, 1023) if f64 else (64, 127)
    power = np.where(exponent(s2) > bias, scale, -scale)
    with np.errstate(all="ignore"):
        return np.where(vcc, ldexp(r, power), r).astype(s0.dtype)


def div_fixup(s0, s1, s2):
    dt = s0.dtype.type
    sign = np.signbit(s1) ^ np.signbit(s2)
    inf = np.where(sign, dt(-np.inf), dt(np.inf))
    zero = np.where(sign, dt(-0.0), dt(0.0))
    f64 = s0.dtype == F64
    under = np.where(sign, -dt(0.0), dt(0.0))
    top = 2047 if f64 else 255
    limit = -1075 if f64 else -150
    big = np.where(sign, dt(-np.finfo(s0.dtype).max), dt(np.finfo(s0.dtype).max))
    qnan = dt(np.nan)
    out = np.where(sign, -np.abs(s0), np.abs(s0))
    e1, e2 = exponent(s1), exponent(s2)
    out = np.where(e1 == top, big, out)
    out = np.where(e2 - e1 < limit, under, out)
    out = np.where((np.abs(s1) == np.inf) | (s2 == 0), zero, out)
    out = np.where((s1 == 0) | (np.abs(s2) == np.inf), inf, out)
    out = np.where((np.abs(s1) == np.inf) & (np.abs(s2) == np.inf), qnan, out)
    out = np.where((s1 == 0) & (s2 == 0), qnan, out)
    out = np.where(np.isnan(s1), qnan, out)
    out = np.where(np.isnan(s2), qnan, out)
    return out.astype(s0.dtype)


_TWO_OVER_PI = None


def trig_preop(x, sel):
    """V_TRIG_PREOP_F64: 53-bit segment of 2/pi selected by sel, scaled."""
    global _TWO_OVER_PI
    if _TWO_OVER_PI is None:
        _TWO_OVER_PI = _two_over_pi_bits(1201)
    e = exponent(x)
    out = np.empty(x.shape, F64)
    flat_x, flat_sel, flat_e = x.ravel(), np.broadcast_to(sel, x.shape).ravel(), e.ravel()
    res = out.ravel()
    for i in range(flat_x.size):
        shift = int(flat_sel[i] & 31) * 53 + max(int(flat_e[i]) - 1077, 0)
        seg = (_TWO_OVER_PI << shift >> (1201 - 53)) & ((1 << 53) - 1)
        scale = -53 - shift + (128 if flat_e[i] >= 1968 else 0)
        res[i] = np.ldexp(float(seg), scale)
    return res.reshape(x.shape)


def _two_over_pi_bits(nbits: int) -> int:
    """floor(2/pi * 2**nbits), computed with integer arithmetic (Machin's formula for pi)."""
    guard = nbits + 64
    one = 1 << guard

    def arctan_inv(n: int) -> int:
        total, term, k, sign = 0, one // n, 1, 1
        while term:
            total += sign * (term // k)
            term //= n * n
            k += 2
            sign = -sign
        return total

    pi = 4 * (4 * arctan_inv(5) - arctan_inv(239))
    return (2 * one << nbits) // pi
