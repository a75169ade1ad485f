"""Floating-point semantics: FP32/FP64 arithmetic, compares, MUFU, conversions.

Default rounding is IEEE round-to-nearest-even with no fast-math flags (ptxas never relies on
reassociation). `.FTZ` flushes denormal inputs and results; `.RZ/.RM/.RP` on FP32 are emulated
exactly by the runtime (`@sass.fma.dir`); `.SAT` clamps to [0, 1].
"""

from __future__ import annotations

from cass.models.lift.emit import Emitter, parse_float_bits
from cass.models.lift.ir import FImm, Instruction, Operand
from cass.models.lift.sem_int import BOOL_OPS, Handler, combine

FCMP = {"EQ": "oeq", "NE": "one", "LT": "olt", "LE": "ole", "GT": "ogt", "GE": "oge", "EQU": "ueq",
        "NEU": "une", "LTU": "ult", "LEU": "ule", "GTU": "ugt", "GEU": "uge", "NUM": "ord", "NAN": "uno",
        "MAX": "ogt", "MIN": "olt"}  # fmt: skip
DIRECTED = {"RZ": 1, "RM": 2, "RP": 3}
MUFU_F32 = {"RCP": "rcp", "RSQ": "rsq", "SQRT": "sqrt", "EX2": "ex2", "LG2": "lg2", "SIN": "sin", "COS": "cos",
            "TANH": "tanh"}  # fmt: skip
INT_TYPES = {"S8": (8, True), "U8": (8, False), "S16": (16, True), "U16": (16, False), "S32": (32, True),
             "U32": (32, False), "S64": (64, True), "U64": (64, False)}  # fmt: skip
ROUNDING_FNS = {"TRUNC": "trunc", "FLOOR": "floor", "CEIL": "ceil"}


def _s32(v: int) -> int:
    return v - (1 << 32) if v >= 1 << 31 else v


def _rounding(ins: Instruction) -> int:
    return next((DIRECTED[m] for m in ins.mods if m in DIRECTED), 0)


def _finish32(e: Emitter, ins: Instruction, v: str) -> None:
    if ins.has("FTZ"):
        v = e.op(f"call float @sass.ftz(float {v})")
    if ins.has("SAT"):
        v = e.op(f"call float @sass.sat(float {v})")
    e.write_f32(ins.operands[0], v)


def _fma32(e: Emitter, ins: Instruction, a: str, b: str, c: str) -> str:
    mode = _rounding(ins)
    if mode:
        return e.op(f"call float @sass.fma.dir(float {a}, float {b}, float {c}, i32 {mode})")
    return e.op(f"call float @llvm.fma.f32(float {a}, float {b}, float {c})")


def fadd(e: Emitter, ins: Instruction) -> None:
    ftz = ins.has("FTZ")
    a, b = e.f32(ins.operands[1], ftz), e.f32(ins.operands[2], ftz)
    v = _fma32(e, ins, a, "1.0", b) if _rounding(ins) else e.op(f"fadd float {a}, {b}")
    _finish32(e, ins, v)


def fmul(e: Emitter, ins: Instruction) -> None:
    ftz = ins.has("FTZ")
    a, b = e.f32(ins.operands[1], ftz), e.f32(ins.operands[2], ftz)
    v = _fma32(e, ins, a, b, "-0.0") if _rounding(ins) else e.op(f"fmul float {a}, {b}")
    for m in ins.mods:  # FMUL.D2 / .M4 ... scale the product by a power of two
        if m[0] in "DM" and m[1:].isdigit():
            v = e.op(f"fmul float {v}, {1 / int(m[1:]) if m[0] == 'D' else float(m[1:])}")
    _finish32(e, ins, v)


def ffma(e: Emitter, ins: Instruction) -> None:
    ftz = ins.has("FTZ")
    a, b, c = (e.f32(o, ftz) for o in ins.operands[1:4])
    _finish32(e, ins, _fma32(e, ins, a, b, c))


def fmnmx(e: Emitter, ins: Instruction) -> None:
    d, a, b, p = ins.operands[:4]
    ftz = ins.has("FTZ")
    va, vb = e.f32(a, ftz), e.f32(b, ftz)
    lo = e.op(f"call float @sass.fmin(float {va}, float {vb})")
    hi = e.op(f"call float @sass.fmax(float {va}, float {vb})")
    e.write_f32(d, e.op(f"select i1 {e.pred(p)}, float {lo}, float {hi}"))


def fsetp(e: Emitter, ins: Instruction) -> None:
    pd, pd2, a, b, pacc = ins.operands[:5]
    cmp = next(m for m in ins.mods if m in FCMP)
    ftz = ins.has("FTZ")
    t = e.op(f"fcmp {FCMP[cmp]} float {e.f32(a, ftz)}, {e.f32(b, ftz)}")
    first, second = combine(e, ins, t, pacc, pd2)
    e.set_pred(pd, first)
    e.set_pred(pd2, second)


def fsel(e: Emitter, ins: Instruction) -> None:
    d, a, b, p = ins.operands[:4]
    va, vb = e.f32(a), e.f32(b)
    e.write_f32(d, e.op(f"select i1 {e.pred(p)}, float {va}, float {vb}"))


def fchk(e: Emitter, ins: Instruction) -> None:
    p, a, b = ins.operands[:3]
    e.set_pred(p, e.op(f"call i1 @sass.fchk(float {e.f32(a)}, float {e.f32(b)})"))


def mufu(e: Emitter, ins: Instruction) -> None:
    d, a = ins.operands[:2]
    fn = ins.mods[0] if ins.mods else ""
    if fn in ("RCP64H", "RSQ64H"):  # an immediate is printed as the double whose high word it is
        hi = str(_s32(parse_float_bits(a.text, 64) >> 32)) if isinstance(a, FImm) else e.i32(a)
        v = e.op(f"call i32 @sass.{fn.lower()}(i32 {hi})")
        e.write(d, v)
        return
    if fn not in MUFU_F32:
        raise e.fail(f"MUFU.{fn} is not supported")
    e.write_f32(d, e.op(f"call float @sass.mufu.{MUFU_F32[fn]}(float {e.f32(a)})"))


# ---------------------------------------------------------------- doubles
def _dfma(e: Emitter, ins: Instruction, a: str, b: str, c: str) -> str:
    mode = _rounding(ins)
    if mode:
        return e.op(f"call double @sass.dfma.dir(double {a}, double {b}, double {c}, i32 {mode})")
    return e.op(f"call double @llvm.fma.f64(double {a}, double {b}, double {c})")


def dadd(e: Emitter, ins: Instruction) -> None:
    a, b = e.f64(ins.operands[1]), e.f64(ins.operands[2])
    v = _dfma(e, ins, a, "1.0", b) if _rounding(ins) else e.op(f"fadd double {a}, {b}")
    e.write_f64(ins.operands[0], v)


def dmul(e: Emitter, ins: Instruction) -> None:
    a, b = e.f64(ins.operands[1]), e.f64(ins.operands[2])
    v = _dfma(e, ins, a, b, "-0.0") if _rounding(ins) else e.op(f"fmul double {a}, {b}")
    e.write_f64(ins.operands[0], v)


def dfma(e: Emitter, ins: Instruction) -> None:
    a, b, c = (e.f64(o) for o in ins.operands[1:4])
    e.write_f64(ins.operands[0], _dfma(e, ins, a, b, c))


def dsetp(e: Emitter, ins: Instruction) -> None:
    pd, pd2, a, b, pacc = ins.operands[:5]
    cmp = next(m for m in ins.mods if m in FCMP)
    va, vb = e.f64(a), e.f64(b)
    if cmp in ("MAX", "MIN"):  # p0: pick a (fmax/fmin with NaN -> other operand), p1: both NaN
        better = e.op(f"fcmp {FCMP[cmp]} double {va}, {vb}")
        bnan = e.op(f"fcmp uno double {vb}, {vb}")
        anan = e.op(f"fcmp uno double {va}, {va}")
        nota = e.op(f"xor i1 {anan}, true")
        pick_a = e.op(f"or i1 {better}, {e.op(f'and i1 {bnan}, {nota}')}")
        e.set_pred(pd, pick_a)
        e.set_pred(pd2, e.op(f"and i1 {anan}, {bnan}"))
        return
    t = e.op(f"fcmp {FCMP[cmp]} double {va}, {vb}")
    first, second = combine(e, ins, t, pacc, pd2)
    e.set_pred(pd, first)
    e.set_pred(pd2, second)


def dmnmx(e: Emitter, ins: Instruction) -> None:
    d, a, b, p = ins.operands[:4]
    va, vb = e.f64(a), e.f64(b)
    lo = e.op(f"call double @llvm.minnum.f64(double {va}, double {vb})")
    hi = e.op(f"call double @llvm.maxnum.f64(double {va}, double {vb})")
    e.write_f64(d, e.op(f"select i1 {e.pred(p)}, double {lo}, double {hi}"))


# ---------------------------------------------------------------- conversions
def _int_type(ins: Instruction, default: str) -> tuple[int, bool]:
    return next((INT_TYPES[m] for m in ins.mods if m in INT_TYPES), INT_TYPES[default])


# a byte or halfword selector on a narrow source (`I2F.U8 R15, R24.B1`, `I2F.U16 R1, R2.H1`)
SUBWORD_SHIFT = {"B1": 8, "B2": 16, "B3": 24, "H1": 16}


def _read_int(e: Emitter, o: Operand, bits: int, signed: bool) -> str:
    if bits == 64:
        return e.pair(o)
    v = e.i32(o)
    if bits < 32 and (shift := SUBWORD_SHIFT.get(getattr(o, "half", ""), 0)):
        v = e.op(f"lshr i32 {v}, {shift}")
    if bits < 32:
        v = e.op(f"trunc i32 {v} to i{bits}")
        v = e.op(f"{'sext' if signed else 'zext'} i{bits} {v} to i32")
    return v


def _write_int(e: Emitter, d: Operand, v: str, bits: int, signed: bool) -> None:
    if bits == 64:
        e.write_pair(d, v)
    elif bits < 32:
        e.write(d, e.op(f"{'sext' if signed else 'zext'} i{bits} {v} to i32"))
    else:
        e.write(d, v)


def i2f(e: Emitter, ins: Instruction) -> None:
    d, a = ins.operands[:2]
    dst = "double" if ins.has("F64") else "half" if ins.has("F16") else "float"
    bits, signed = _int_type(ins, "S32")
    v = _read_int(e, a, bits, signed)
    ity = "i64" if bits == 64 else "i32"
    mode = _rounding(ins)
    if mode and dst == "double" and bits == 64:
        f = i64_to_f64_directed(e, v, signed, mode)
    elif mode and dst == "float":
        w = v if ity == "i64" else e.op(f"{'sext' if signed else 'zext'} i32 {v} to i64")
        f = e.op(
            f"call float @sass.i2f.dir(i64 {w}, i1 {'true' if signed else 'false'}, i32 {mode})"
        )
    else:
        f = e.op(f"{'sitofp' if signed else 'uitofp'} {ity} {v} to {dst}")
    if dst == "double":
        e.write_f64(d, f)
    elif dst == "half":
        h = e.op(f"bitcast half {f} to i16")
        e.write(d, e.op(f"zext i16 {h} to i32"))
    else:
        e.write_f32(d, f)


def f2i(e: Emitter, ins: Instruction) -> None:
    d, a = ins.operands[:2]
    types = [m for m in ins.mods if m in INT_TYPES]
    bits, signed = INT_TYPES[types[0]] if types else INT_TYPES["S32"]
    src_double = ins.has("F64")
    ty = "double" if src_double else "float"
    v = e.f64(a) if src_double else e.f32(a, ins.has("FTZ"))
    fn = next((ROUNDING_FNS[m] for m in ins.mods if m in ROUNDING_FNS), "rint")
    suffix = "f64" if src_double else "f32"
    r = e.op(f"call {ty} @llvm.{fn}.{suffix}({ty} {v})")
    ity = f"i{bits}"
    conv = "fptosi" if signed else "fptoui"
    out = e.op(f"call {ity} @llvm.{conv}.sat.{ity}.{suffix}({ty} {r})")
    if bits < 32:
        _write_int(e, d, out, bits, signed)
    else:
        _write_int(e, d, out, bits, signed)


def f2f(e: Emitter, ins: Instruction) -> None:
    d, a = ins.operands[:2]
    floats = [m for m in ins.mods if m in ("F16", "F32", "F64", "BF16")]
    dst, src = (floats + ["F32", "F32"])[:2]
    if _rounding(ins) and dst not in ("F32", "F16"):
        raise e.fail(f"{ins.full}: directed rounding is not supported")
    if src == "F64":
        v = e.f64(a)
    elif src == "F16":
        h = e.op(
            f"trunc i32 {e.i32(a) if getattr(a, 'half', '') != 'H1' else e.op(f'lshr i32 {e.i32(a)}, 16')} to i16"
        )
        v = e.op(f"fpext half {e.op(f'bitcast i16 {h} to half')} to float")
    else:
        v = e.f32(a, ins.has("FTZ"))
    src_ty = {"F64": "double", "F16": "float"}.get(src, "float")
    if dst == "F64":
        e.write_f64(d, v if src_ty == "double" else e.op(f"fpext float {v} to double"))
    elif dst == "BF16":
        e.write(d, bf16_bits(e, v if src_ty == "float" else e.op(f"fptrunc double {v} to float")))
    elif dst == "F16":
        h = narrow_directed(e, v, _rounding(ins), src_ty, "half")
        e.write(d, e.op(f"zext i16 {e.op(f'bitcast half {h} to i16')} to i32"))
    elif dst == "F32" and src_ty == "double":
        e.write_f32(d, narrow_directed(e, v, _rounding(ins)))
    elif ins.has("ROUND", "FLOOR", "CEIL", "TRUNC"):
        fn = next((ROUNDING_FNS[m] for m in ins.mods if m in ROUNDING_FNS), "rint")
        e.write_f32(d, e.op(f"call float @llvm.{fn}.f32(float {v})"))
    else:
        _finish32(e, ins, v)


NARROW_BITS = {"float": "i32", "half": "i16"}


def narrow_directed(e: Emitter, v: str, mode: int, src: str = "double", dst: str = "float") -> str:
    """`src` -> `dst` rounded to nearest, then moved one ulp where RZ/RM/RP round the other way
    (an overflow to infinity steps back to the largest finite value the same way)."""
    r = e.op(f"fptrunc {src} {v} to {dst}")
    if not mode:
        return r
    ity, fabs = NARROW_BITS[dst], "f64" if src == "double" else "f32"
    back = e.op(f"fpext {dst} {r} to {src}")
    if mode == 1:  # toward zero: |r| > |v| steps the magnitude down
        wrong = e.op(f"fcmp ogt {src} {e.op(f'call {src} @llvm.fabs.{fabs}({src} {back})')}, "
                     f"{e.op(f'call {src} @llvm.fabs.{fabs}({src} {v})')}")  # fmt: skip
        step = "-1"
    else:  # RM: r > v steps toward -inf; RP: r < v steps toward +inf
        wrong = e.op(f"fcmp {'ogt' if mode == 2 else 'olt'} {src} {back}, {v}")
        negative = e.op(f"icmp slt {ity} {e.op(f'bitcast {dst} {r} to {ity}')}, 0")
        up, down = ("-1", "1") if mode == 2 else ("1", "-1")
        step = e.op(f"select i1 {negative}, {ity} {down}, {ity} {up}")
    bits = e.op(f"bitcast {dst} {r} to {ity}")
    moved = e.op(f"add {ity} {bits}, {e.op(f'select i1 {wrong}, {ity} {step}, {ity} 0')}")
    return e.op(f"bitcast {ity} {moved} to {dst}")


def bf16_bits(e: Emitter, v: str) -> str:
    """float -> bfloat16 bits (i32, zero-extended), nearest-even; NaN -> 0x7fff as on NVIDIA."""
    bits = e.op(f"bitcast float {v} to i32")
    odd = e.op(f"and i32 {e.op(f'lshr i32 {bits}, 16')}, 1")
    bias = e.op(f"add i32 {odd}, 32767")
    rounded = e.op(f"lshr i32 {e.op(f'add i32 {bits}, {bias}')}, 16")
    nan = e.op(f"fcmp uno float {v}, {v}")
    return e.op(f"select i1 {nan}, i32 32767, i32 {rounded}")


def i64_to_f64_directed(e: Emitter, v: str, signed: bool, mode: int) -> str:
    """I2F.F64.S64/U64 with .RZ/.RM/.RP: the nearest double, moved one ulp when it lies on the
    wrong side of the integer."""
    f = e.op(f"{'sitofp' if signed else 'uitofp'} i64 {v} to double")
    limit = "0x43E0000000000000" if signed else "0x43F0000000000000"  # 2^63 / 2^64
    ovf = e.op(f"fcmp oge double {f}, {limit}")
    conv = "fptosi" if signed else "fptoui"
    back = e.op(f"freeze i64 {e.op(f'{conv} double {f} to i64')}")
    cmp = "s" if signed else "u"
    above = e.op(f"or i1 {e.op(f'icmp {cmp}gt i64 {back}, {v}')}, {ovf}")
    below = e.op(f"and i1 {e.op(f'icmp {cmp}lt i64 {back}, {v}')}, {e.op(f'xor i1 {ovf}, true')}")
    negative = e.op(f"icmp slt i64 {v}, 0") if signed else "false"
    if mode == 1:
        down = e.op(f"and i1 {above}, {e.op(f'xor i1 {negative}, true')}")
        up = e.op(f"and i1 {below}, {negative}")
    else:
        down, up = (above, "false") if mode == 2 else ("false", below)
    fneg = e.op(f"fcmp olt double {f}, 0.0")
    step_up = e.op(f"select i1 {fneg}, i64 -1, i64 1")
    step_down = e.op(f"sub i64 0, {step_up}")
    step = e.op(
        f"select i1 {up}, i64 {step_up}, i64 {e.op(f'select i1 {down}, i64 {step_down}, i64 0')}"
    )
    bits = e.op(f"add i64 {e.op(f'bitcast double {f} to i64')}, {step}")
    return e.op(f"bitcast i64 {bits} to double")


def fset(e: Emitter, ins: Instruction) -> None:
    """FSET[.BF].cmp.bool d, a, b, pacc: 1.0 (BF) or all ones where the combined compare holds."""
    d, a, b, pacc = ins.operands[:4]
    cmp = next(m for m in ins.mods if m in FCMP)
    ftz = ins.has("FTZ")
    t = e.op(f"fcmp {FCMP[cmp]} float {e.f32(a, ftz)}, {e.f32(b, ftz)}")
    first, _ = combine(e, ins, t, pacc)
    e.write(d, e.op(f"select i1 {first}, i32 {0x3F800000 if ins.has('BF') else -1}, i32 0"))


def frnd(e: Emitter, ins: Instruction) -> None:
    d, a = ins.operands[:2]
    fn = next((ROUNDING_FNS[m] for m in ins.mods if m in ROUNDING_FNS), "rint")
    if ins.has("F64"):
        e.write_f64(d, e.op(f"call double @llvm.{fn}.f64(double {e.f64(a)})"))
    else:
        _finish32(e, ins, e.op(f"call float @llvm.{fn}.f32(float {e.f32(a, ins.has('FTZ'))})"))


HANDLERS: dict[str, Handler] = {
    "FADD": fadd, "FMUL": fmul, "FFMA": ffma, "FMNMX": fmnmx, "FSETP": fsetp, "FSET": fset, "FSEL": fsel, "FCHK": fchk,
    "MUFU": mufu, "DADD": dadd, "DMUL": dmul, "DFMA": dfma, "DSETP": dsetp, "DMNMX": dmnmx, "I2F": i2f,
    "I2FP": i2f, "F2I": f2i, "F2F": f2f, "FRND": frnd, "FADD32I": fadd, "FMUL32I": fmul, "FFMA32I": ffma,
}  # fmt: skip
__all__ = ["BOOL_OPS", "HANDLERS"]
