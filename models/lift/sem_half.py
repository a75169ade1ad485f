"""Packed half-precision semantics: HADD2/HMUL2/HFMA2 (fp16 and bf16), HSETP2, F2FP packing.

A 32-bit register holds two halves (H0 low, H1 high); operand selectors `.H0_H0`/`.H1_H1`
broadcast one half, `.F32` reads a full float converted to half. `HFMA2.MMA d, -RZ, RZ, hi, lo`
is ptxas' 32-bit constant move.
"""

from __future__ import annotations

from cass.models.lift.emit import Emitter, parse_float_bits
from cass.models.lift.ir import FImm, Imm, Instruction, Operand, Reg
from cass.models.lift.sem_int import Handler, hfma2_const

V2 = "<2 x half>"


def _elem(ins: Instruction) -> str:
    return "bfloat" if ins.has("BF16_V2", "BF16") else "half"


def halves(e: Emitter, o: Operand, ty: str) -> str:
    """A <2 x ty> operand with its selector, negation and absolute value applied."""
    vty = f"<2 x {ty}>"
    if isinstance(o, FImm):
        bits = parse_float_bits(o.text, 16) if ty == "half" else parse_float_bits(o.text, 32) >> 16
        v = e.op(f"bitcast i32 {bits << 16 | bits} to {vty}")
    elif isinstance(o, Reg) and o.half == "F32":
        f = e.f32(Reg(o.name))
        h = e.op(f"fptrunc float {f} to {ty}")
        v = e.op(f"insertelement {vty} undef, {ty} {h}, i32 0")
        v = e.op(f"shufflevector {vty} {v}, {vty} undef, <2 x i32> zeroinitializer")
    else:
        raw = e.raw32(o) if not isinstance(o, Imm) else str(o.value)
        v = e.op(f"bitcast i32 {raw} to {vty}")
        sel = getattr(o, "half", "")
        if sel in ("H0_H0", "H1_H1"):
            lane = 0 if sel == "H0_H0" else 1
            v = e.op(f"shufflevector {vty} {v}, {vty} undef, <2 x i32> <i32 {lane}, i32 {lane}>")
    if getattr(o, "absolute", False):
        v = e.op(f"call {vty} @llvm.fabs.v2{'f16' if ty == 'half' else 'bf16'}({vty} {v})")
    if getattr(o, "neg", False):  # -RZ is -0.0: `HADD2.F32 d, -RZ, x` keeps x's sign of zero
        v = e.op(f"fneg {vty} {v}")
    return v


def _half_bits(o: Imm | FImm, ty: str) -> int:
    """One half of an immediate pair, printed as a number (`1`, `0.25`, `-INF`)."""
    text = o.text if isinstance(o, FImm) else str(-o.value if o.neg else o.value)
    return parse_float_bits(text, 16) if ty == "half" else parse_float_bits(text, 32) >> 16


def sources(e: Emitter, ins: Instruction, count: int, ty: str) -> list[str]:
    """The first `count` <2 x ty> sources; SASS prints a packed immediate as two numbers, the high
    half first (`HFMA2 R8, R8, 1, 1, R11`, `HMUL2 R9, R8, 0.25, 0.25`)."""
    ops, out, i = ins.operands[1:], [], 0
    while len(out) < count and i < len(ops):
        pair = ops[i : i + 2]
        if len(pair) == 2 and all(isinstance(o, (Imm, FImm)) for o in pair):
            bits = _half_bits(pair[0], ty) << 16 | _half_bits(pair[1], ty)
            out.append(
                e.op(f"bitcast i32 {bits - (1 << 32) if bits >> 31 else bits} to <2 x {ty}>")
            )
            i += 2
        else:
            out.append(halves(e, ops[i], ty))
            i += 1
    return out


def _store(e: Emitter, ins: Instruction, v: str, ty: str) -> None:
    d = ins.operands[0]
    vty = f"<2 x {ty}>"
    if ins.has("SAT"):
        raise e.fail(f"{ins.full}: saturation on packed halves is not supported")
    if ins.has("F32"):  # HADD2.F32: the low half widened to a float
        lo = e.op(f"extractelement {vty} {v}, i32 0")
        e.write_f32(d, e.op(f"fpext {ty} {lo} to float"))
        return
    e.write(d, e.op(f"bitcast {vty} {v} to i32"))


def _arith(e: Emitter, ins: Instruction, kind: str) -> None:
    ty = _elem(ins)
    if ty == "bfloat":
        raise e.fail(f"{ins.full}: bf16 arithmetic is not supported")
    vty = f"<2 x {ty}>"
    srcs = sources(e, ins, 3 if kind == "fma" else 2, ty)
    if kind == "add":
        v = e.op(f"fadd {vty} {srcs[0]}, {srcs[1]}")
    elif kind == "mul":
        v = e.op(f"fmul {vty} {srcs[0]}, {srcs[1]}")
    else:
        v = e.op(f"call {vty} @llvm.fma.v2f16({vty} {srcs[0]}, {vty} {srcs[1]}, {vty} {srcs[2]})")
    _store(e, ins, v, ty)


def hfma2(e: Emitter, ins: Instruction) -> None:
    if not hfma2_const(e, ins):
        _arith(e, ins, "fma")


def f2fp(e: Emitter, ins: Instruction) -> None:
    """F2FP.{F16|BF16}.F32.PACK_AB[.RZ...] d, a, b: d = {cvt(a) : cvt(b)} (a high, b low)."""
    from cass.models.lift.sem_float import DIRECTED, bf16_bits, narrow_directed

    if not ins.has("PACK_AB"):
        raise e.fail(f"{ins.full} is not supported")
    d, a, b = ins.operands[:3]
    mode = next((DIRECTED[m] for m in ins.mods if m in DIRECTED), 0)
    if ins.has("BF16") and mode:
        raise e.fail(f"{ins.full}: directed rounding to bf16 is not supported")
    parts = []
    for o in (b, a):
        f = e.f32(o) if not (isinstance(o, Reg) and o.is_zero) else "0.0"
        if ins.has("BF16"):
            parts.append(bf16_bits(e, f))
            continue
        h = narrow_directed(e, f, mode, "float", "half")
        parts.append(e.op(f"zext i16 {e.op(f'bitcast half {h} to i16')} to i32"))
    hi = e.op(f"shl i32 {parts[1]}, 16")
    e.write(d, e.op(f"or i32 {hi}, {parts[0]}"))


HANDLERS: dict[str, Handler] = {
    "HADD2": lambda e, i: _arith(e, i, "add"), "HMUL2": lambda e, i: _arith(e, i, "mul"), "HFMA2": hfma2,
    "F2FP": f2fp,
}  # fmt: skip
__all__ = ["HANDLERS", "V2"]
