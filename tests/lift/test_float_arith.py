"""Float and double semantics end to end: nvcc compiles float_kernels.cu to sm_80 and sm_90 cubins,
the lifter translates their SASS to gfx1100, the rules engine ports the host code, the RDNA3
emulator runs it, and every printed result equals an exact model: each operation is computed on
rationals (fractions.Fraction) and rounded once in the requested mode, so IEEE rounding to
nearest, toward zero and toward ±inf, denormals and overflow are all checked bit for bit (any NaN
matches any NaN: NaN payloads differ between vendors).

Covered: FADD/FMUL/FFMA and DADD/DMUL/DFMA with .RZ/.RM/.RP, the IEEE division, square-root and
reciprocal subroutines (MUFU.RCP/RSQ, MUFU.RCP64H/RSQ64H with immediates), FMNMX/DMNMX, FRND and
F2I/I2F/F2F in every rounding, FSET.BF, FSETP/DSETP, half and bfloat16 narrowing.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"
NAN = float("nan")
RN, RZ, RD, RU = "rn", "rz", "rd", "ru"
# (significand bits, lowest normal exponent, highest exponent)
F32, F64, F16, BF16 = (24, -126, 127), (53, -1022, 1023), (11, -14, 15), (8, -126, 127)


# ---------------------------------------------------------------- exact rounding
def round_exact(q: Fraction, fmt: tuple[int, int, int], mode: str, neg_zero: bool = False) -> float:
    """The value of format `fmt` that rational q rounds to in `mode` (overflow to inf or max)."""
    p, emin, emax = fmt
    if q == 0:
        return -0.0 if neg_zero else 0.0
    sign, a = q < 0, abs(q)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    e += 1 if a >= Fraction(2) ** (e + 1) else -1 if a < Fraction(2) ** e else 0
    quantum = Fraction(2) ** (max(e, emin) - (p - 1))
    n, rem = divmod(a, quantum)
    away = {RN: rem > quantum / 2 or (rem == quantum / 2 and n % 2 == 1), RZ: False,
            RU: rem > 0 and not sign, RD: rem > 0 and sign}[mode]  # fmt: skip
    value = (n + away) * quantum
    biggest = (2 - Fraction(2) ** (1 - p)) * Fraction(2) ** emax
    if value > biggest:
        to_inf = mode == RN or (mode == RU and not sign) or (mode == RD and sign)
        value = math.inf if to_inf else biggest
    result = float(value)
    return -result if sign else (-0.0 if result == 0 and neg_zero else result)


def exact(f: Callable[..., Fraction], fmt, mode: str, *xs: float) -> float:
    """f on the exact inputs; non-finite inputs take IEEE double arithmetic's answer instead."""
    if any(not math.isfinite(x) for x in xs):
        return f(*xs) if not any(math.isnan(x) for x in xs) else NAN
    return round_exact(f(*map(Fraction, xs)), fmt, mode)


def add(fmt, mode: str, a: float, b: float) -> float:
    if not (math.isfinite(a) and math.isfinite(b)):
        return a + b
    s = Fraction(a) + Fraction(b)
    if s == 0:  # x + (-x) is +0 except toward -inf; -0 + -0 is -0
        both = math.copysign(1, a) < 0 and math.copysign(1, b) < 0
        return (
            -0.0
            if both
            or (mode == RD and (a != 0 or b != 0 or math.copysign(1, a) != math.copysign(1, b)))
            else 0.0
        )
    return round_exact(s, fmt, mode)


def mul(fmt, mode: str, a: float, b: float) -> float:
    if not (math.isfinite(a) and math.isfinite(b)):
        return a * b if not ((a == 0 or b == 0) and (math.isinf(a) or math.isinf(b))) else NAN
    neg = (math.copysign(1, a) < 0) != (math.copysign(1, b) < 0)
    return round_exact(Fraction(a) * Fraction(b), fmt, mode, neg_zero=neg)


def fma(fmt, mode: str, a: float, b: float, c: float) -> float:
    if not all(math.isfinite(x) for x in (a, b, c)):
        if (
            any(math.isnan(x) for x in (a, b, c))
            or (math.isinf(a) and b == 0)
            or (math.isinf(b) and a == 0)
        ):
            return NAN
        return a * b + c
    prod = Fraction(a) * Fraction(b)
    s = prod + Fraction(c)
    if s == 0:
        pneg = (math.copysign(1, a) < 0) != (math.copysign(1, b) < 0)
        if prod == 0 and c == 0:
            both = pneg and math.copysign(1, c) < 0
            return -0.0 if both or (mode == RD and pneg != (math.copysign(1, c) < 0)) else 0.0
        return -0.0 if mode == RD else 0.0
    return round_exact(s, fmt, mode)


def div(fmt, mode: str, a: float, b: float) -> float:
    if math.isnan(a) or math.isnan(b) or (a == 0 and b == 0) or (math.isinf(a) and math.isinf(b)):
        return NAN
    neg = (math.copysign(1, a) < 0) != (math.copysign(1, b) < 0)
    if b == 0 or math.isinf(a):
        return -math.inf if neg else math.inf
    if math.isinf(b) or a == 0:
        return -0.0 if neg else 0.0
    return round_exact(Fraction(a) / Fraction(b), fmt, mode)


def sqrt(fmt, mode: str, a: float) -> float:
    if math.isnan(a) or a < 0:
        return NAN
    if a == 0 or math.isinf(a):
        return a
    q, k = (
        Fraction(a),
        1200,
    )  # sqrt(q) lies in [s, s+1) / 2^k; s + 1/2 rounds the same way unless exact
    s = math.isqrt(q.numerator * 2 ** (2 * k) // q.denominator)
    root = (
        Fraction(s, 2**k)
        if Fraction(s * s, 2 ** (2 * k)) == q
        else Fraction(2 * s + 1, 2 ** (k + 1))
    )
    return round_exact(root, fmt, mode)


def to_int(x: float, bits: int, is_signed: bool, mode: str) -> int:
    """F2I: round in `mode`, saturate to the range, NaN -> 0; the two's-complement bits."""
    if math.isnan(x):
        return 0
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if is_signed else (0, (1 << bits) - 1)
    if math.isinf(x):
        v = hi if x > 0 else lo
    else:
        q = Fraction(x)
        v = {RZ: math.trunc(q), RD: math.floor(q), RU: math.ceil(q), RN: round(q)}[mode]
    return min(max(v, lo), hi) & ((1 << bits) - 1)


def int_part(x: float, how: str) -> float:
    if not math.isfinite(x) or x == 0:
        return x
    q = Fraction(x)
    if how == "round":
        v = math.floor(abs(q) + Fraction(1, 2)) * (1 if q > 0 else -1)
    else:
        v = {"floor": math.floor, "ceil": math.ceil, "trunc": math.trunc, "rint": round}[how](q)
    return float(v) if v != 0 else math.copysign(0.0, x)


def minmax(a: float, b: float, pick) -> float:
    if math.isnan(a):
        return b
    return a if math.isnan(b) else pick(a, b)


def f32(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def bits32(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def f64(bits: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


def bits64(x: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def half_bits(x: float, fmt, mode: str) -> int | str:
    if math.isnan(x):
        return "nan16" if fmt == F16 else "nanbf16"
    v = round_exact(Fraction(x), fmt, mode, math.copysign(1, x) < 0) if math.isfinite(x) else x
    if fmt == F16:
        return struct.unpack("<H", struct.pack("<e", v))[0]
    return bits32(v) >> 16


def flags(a: float, b: float) -> int:
    bits = [a < b, a <= b, a == b, a != b, a > b, a >= b, math.isnan(a), math.isinf(a),
            math.copysign(1, a) < 0, math.isfinite(b), not a < b]  # fmt: skip
    return sum(int(v) << k for k, v in enumerate(bits))


def s32(v: int) -> int:
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >> 31 else v


def narrow(x: float, mode: str, fmt=F32) -> float:
    """A wider float rounded to a narrower format's value (NaN and infinities pass through)."""
    return round_exact(Fraction(x), fmt, mode, math.copysign(1, x) < 0) if math.isfinite(x) else x


def float_model(a: float, b: float, c: float, ab: int, bb: int, cb: int) -> list[float | int]:
    """Results of float_ops: floats (compared as f32 bits) and ints (compared exactly)."""
    ll = to_int(a, 64, True, RZ)
    big = ((s32(ab) << 20) ^ s32(bb)) & ((1 << 64) - 1)
    big = big - (1 << 64) if big >> 63 else big
    return [
        add(F32, RN, a, b), mul(F32, RN, a, b), fma(F32, RN, a, b, c), div(F32, RN, a, b), sqrt(F32, RN, a),
        add(F32, RZ, a, b), mul(F32, RU, a, b), fma(F32, RD, a, b, c), div(F32, RZ, a, b), div(F32, RN, 1.0, a),
        sqrt(F32, RD, a), add(F32, RN, minmax(a, b, min), 0.0), add(F32, RN, minmax(a, b, max), 0.0),
        int_part(a, "floor"), int_part(a, "ceil"), int_part(a, "trunc"), int_part(a, "rint"), int_part(a, "round"),
        math.copysign(a, b) if not math.isnan(a) else NAN,
        1.0 if math.isnan(a) else min(max(a, 0.0), 1.0) + 0.0,
        round_exact(Fraction(s32(cb)), F32, RZ), round_exact(Fraction(cb), F32, RU), round_exact(Fraction(big), F32, RD),
        narrow(mul(F64, RN, a, b), RN), narrow(add(F64, RN, a, b), RZ),
        1.0 if a < b else 0.0,
        flags(a, b), to_int(a, 32, True, RZ), to_int(a, 32, True, RN), to_int(a, 32, True, RD),
        to_int(a, 32, True, RU), to_int(a, 32, False, RZ),
        0 if math.isnan(a) else ll & 0xFFFFFFFF, 0 if math.isnan(a) else ll >> 32,
        0 if math.isnan(a) else to_int(a, 64, False, RN) & 0xFFFFFFFF,
        half_bits(a, F16, RN),
        narrow(a, RZ, F16),
        half_bits(a, BF16, RN),
        mul(F32, RN, a, 1024.0), mul(F32, RN, add(F32, RN, a, -b), 0.5),
    ]  # fmt: skip


def double_model(a: float, b: float, c: float, ab: int, bb: int, cb: int) -> list[float | int]:
    bits = ab - (1 << 64) if ab >> 63 else ab

    def low(v: int) -> int:
        return v & 0xFFFFFFFF

    return [
        add(F64, RN, a, b), mul(F64, RN, a, b), fma(F64, RN, a, b, c), div(F64, RN, a, b), sqrt(F64, RN, a),
        add(F64, RZ, a, b), mul(F64, RU, a, b), fma(F64, RD, a, b, c), div(F64, RZ, a, b), div(F64, RN, 1.0, a),
        sqrt(F64, RU, a), add(F64, RN, minmax(a, b, min), 0.0), add(F64, RN, minmax(a, b, max), 0.0),
        int_part(a, "floor"), int_part(a, "ceil"), int_part(a, "trunc"), int_part(a, "rint"), int_part(a, "round"),
        narrow(a, RN), narrow(a, RZ),
        round_exact(Fraction(bits), F64, RN), round_exact(Fraction(bits ^ (bits >> 7)), F64, RZ),
        round_exact(Fraction(ab), F64, RU),
        to_int(a, 32, True, RZ) | to_int(a, 32, True, RD) << 32,
        0 if math.isnan(a) else to_int(a, 64, True, RU), 0 if math.isnan(a) else to_int(a, 64, False, RN),
        to_int(a, 32, False, RD) | to_int(a, 32, True, RU) << 32,
        flags(a, b), div(F64, RN, a, 249.0), fma(F64, RN, a, 0.1, b),
        f64((ab >> 32) << 32 | low(bb)), math.copysign(a, b) if not math.isnan(a) else NAN,
        add(F64, RN, float(s32(bits >> 12)), float(low(bits))),
        NAN if math.isnan(a) or a <= 0 else add(F64, RN, a, -c),
    ]  # fmt: skip


def same(want: float | str, got: int, size: int) -> bool:
    if isinstance(want, str):  # a NaN of the 16-bit format, any payload
        exp, frac = (0x7C00, 0x3FF) if want == "nan16" else (0x7F80, 0x7F)
        return got >> 16 == 0 and got & exp == exp and got & frac != 0
    if isinstance(want, int):
        return want == got
    value = f32(got) if size == 32 else f64(got)
    if math.isnan(want):
        return math.isnan(value)
    return (bits32(want) if size == 32 else bits64(want)) == got


# Known broken: the double division / square root / reciprocal subroutines' slow paths and the
# directed-rounding DMUL/DFMA emulation (sass.dfma.dir) at the exponent extremes (denormal
# operands or results, results near overflow).
EXTREME_OPS = {3, 4, 6, 8, 9, 10}


def extreme(x: float) -> bool:
    return math.isfinite(x) and x != 0 and not 2.0**-1000 < abs(x) < 2.0**1000


def mismatches(stdout: str) -> tuple[list[str], list[str]]:
    """(unexpected mismatches, mismatches of the known-broken double extremes)."""
    bad: list[str] = []
    known: list[str] = []
    rows = 0
    for line in stdout.splitlines():
        kind, t, *words = line.split()
        ab, bb, cb, *got = (int(w, 16) for w in words)
        size, decode, model = (32, f32, float_model) if kind == "f32" else (64, f64, double_model)
        xs = (decode(ab), decode(bb), decode(cb))
        want = model(*xs, ab, bb, cb)
        assert len(got) == len(want), line
        rows += 1
        for k, (w, g) in enumerate(zip(want, got)):
            if same(w, g, size):
                continue
            text = f"{kind} t={t} op {k}: {xs!r} want {w!r} got {g:#x}"
            edge = (
                kind == "f64"
                and k in EXTREME_OPS
                and any(extreme(v) for v in (*xs, w) if isinstance(v, float))
            )
            (known if edge else bad).append(text)
    assert rows == 128, stdout
    return bad, known


@pytest.fixture(scope="module", params=["sm_80", "sm_90", "sm_90-outlined"])
def float_run(request, tmp_path_factory, build_lifted) -> str:
    """`-outlined`: every subroutine lifted once as an LLVM function (models/lift/outline.py),
    which by default only the calls of very large kernels are."""
    from cass.models.lift import outline
    from cass.runner.emulator import run_program

    arch, _, variant = request.param.partition("-")
    work = tmp_path_factory.mktemp(f"float-{request.param}")
    with pytest.MonkeyPatch.context() as patch:
        if variant:
            patch.setattr(outline, "OUTLINE_MIN", 0)
            patch.setattr(outline, "OUTLINE_SITES", 1)
        program = build_lifted(DATA / "float_kernels.cu", arch, work)
    if variant:
        assert (work / "device.s").read_text().count("s_swappc_b64") >= 8  # calls, not copies
    run = run_program(program)
    assert run.exit_code == 0, run.stderr
    return run.stdout


def test_float_kernels_match_the_exact_model(float_run: str) -> None:
    assert mismatches(float_run)[0] == []


def test_double_extremes_match_the_exact_model(float_run: str) -> None:
    assert mismatches(float_run)[1] == []
