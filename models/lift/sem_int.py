"""Integer core semantics: adds with carries, multiplies, shifts, logic, compares, moves.

Each handler takes the builder and one instruction; `HANDLERS` maps opcodes to them. Uniform
opcodes (UIADD3, ULEA, ...) reuse the vector handler of the same name without the `U`.
"""

from __future__ import annotations

from collections.abc import Callable

from cass.models.lift.emit import Emitter, imm_value
from cass.models.lift.ir import CBank, FImm, Imm, Instruction, Operand, Reg

Handler = Callable[[Emitter, Instruction], None]

ICMP = {"LT": "slt", "LE": "sle", "GT": "sgt", "GE": "sge", "EQ": "eq", "NE": "ne"}
ICMP_U = {"LT": "ult", "LE": "ule", "GT": "ugt", "GE": "uge", "EQ": "eq", "NE": "ne"}
BOOL_OPS = {"AND": "and", "OR": "or", "XOR": "xor"}
LUT_SHORTCUTS = {0xC0: "a&b", 0xFC: "a|b", 0x3C: "a^b", 0x96: "a^b^c", 0xF0: "a", 0xCC: "b", 0xAA: "c",
                 0x33: "~b", 0x0F: "~a", 0x55: "~c", 0xA0: "a&c", 0x88: "b&c", 0xFA: "a|c", 0xEE: "b|c",
                 0x5A: "a^c", 0x66: "b^c", 0xFE: "a|b|c", 0x80: "a&b&c", 0x00: "0", 0xFF: "-1"}  # fmt: skip


def is_pred(o: Operand) -> bool:
    return isinstance(o, Reg) and o.is_pred


def split_preds(ops: tuple[Operand, ...]) -> tuple[list[Operand], list[Operand], list[Operand]]:
    """(leading predicate outputs after the destination, value sources, trailing predicate inputs)."""
    rest = list(ops[1:])
    lead: list[Operand] = []
    while rest and is_pred(rest[0]):
        lead.append(rest.pop(0))
    tail: list[Operand] = []
    while rest and is_pred(rest[-1]):
        tail.insert(0, rest.pop())
    return lead, rest, tail


# ---------------------------------------------------------------- adds and multiplies
def iadd3(e: Emitter, ins: Instruction) -> None:
    """The sum S of up to three words, `-x` as ~x + 1 (so -0 carries; in .X forms `-`/`~` are
    bitwise not) and the carry-ins of .X forms; the carry-outs are c0 = S >= 2^32 and
    c1 = S >= 2^33 (c0 + c1 is the carry, 0..2). Lifted in 32 bits: each partial sum through
    llvm.uadd.with.overflow (v_add_co_u32 / v_add_co_ci_u32), S >> 32 the number of overflows.
    (An i64 sum made opt fold the words of a 64-bit add chain into i64 values, whose long chains
    SCEV-based codegen passes and instruction selection walked super-linearly: SHA-512's rounds.)"""
    couts, srcs, cins = split_preds(ins.operands)
    terms: list[str] = []
    for s in srcs:
        flip = isinstance(s, (Reg, CBank)) and (s.neg or s.invert)
        raw = e.raw32(s)
        raw = e.op(f"xor i32 {raw}, -1") if flip else raw
        if raw != "0":
            terms.append(raw)
        if flip and s.neg and not ins.has("X"):
            terms.append("1")
    for c in cins if ins.has("X") else []:
        terms.append(e.op(f"zext i1 {e.pred(c)} to i32"))
    if not couts:
        total = terms[0] if terms else "0"
        for t in terms[1:]:
            total = e.op(f"add i32 {total}, {t}")
        e.write(ins.operands[0], total)
        return
    total, overflows = (terms[0] if terms else "0"), []
    for t in terms[1:]:
        pair = e.op(f"call {{i32, i1}} @llvm.uadd.with.overflow.i32(i32 {total}, i32 {t})")
        total = e.op(f"extractvalue {{i32, i1}} {pair}, 0")
        overflows.append(e.op(f"extractvalue {{i32, i1}} {pair}, 1"))
    e.write(ins.operands[0], total)
    for k, cout in enumerate(couts):
        e.set_pred(cout, _at_least(e, overflows, k + 1))


def _at_least(e: Emitter, flags: list[str], n: int) -> str:
    """i1: at least n of the i1 values are true."""
    if len(flags) < n:
        return "false"
    if n == 1:
        value = flags[0]
        for f in flags[1:]:
            value = e.op(f"or i1 {value}, {f}")
        return value
    if len(flags) == n == 2:
        return e.op(f"and i1 {flags[0]}, {flags[1]}")
    count = "0"
    for f in flags:
        count = e.op(f"add i32 {count}, {e.op(f'zext i1 {f} to i32')}")
    return e.op(f"icmp uge i32 {count}, {n}")


def viadd(e: Emitter, ins: Instruction) -> None:
    if len(ins.mods) and ins.mods != ("MOV",):
        raise e.fail(f"{ins.full} (packed forms) is not supported")
    a, b = ins.operands[1], ins.operands[2]
    e.write(ins.operands[0], e.op(f"add i32 {e.i32(a)}, {e.i32(b)}"))


def _ext(e: Emitter, v: str, signed: bool, bits: int = 64) -> str:
    return e.op(f"{'sext' if signed else 'zext'} i32 {v} to i{bits}")


def imad(e: Emitter, ins: Instruction) -> None:
    couts, srcs, cins = split_preds(ins.operands)
    d = ins.operands[0]
    signed = not ins.has("U32")
    a, b, c = srcs
    cin = e.op(f"zext i1 {e.pred(cins[0])} to i128") if ins.has("X") and cins else "0"
    if ins.has(
        "WIDE", "HI"
    ):  # S = ext(a)·ext(b) + pair(c) + carry; WIDE keeps S[63:0], HI S[63:32]
        prod = e.op(f"mul i128 {_ext(e, e.i32(a), signed, 128)}, {_ext(e, e.i32(b), signed, 128)}")
        addend = e.pair(c)
        if getattr(c, "neg", False):  # `IMAD.WIDE d, a, b, -c`: the 64-bit pair is negated
            addend = e.op(f"sub i64 0, {addend}")
        s = e.op(f"add i128 {prod}, {e.op(f'zext i64 {addend} to i128')}")
        s = e.op(f"add i128 {s}, {cin}") if cin != "0" else s
        if ins.has("WIDE"):
            e.write_pair(d, e.op(f"trunc i128 {s} to i64"))
        else:
            e.write(d, e.op(f"trunc i128 {e.op(f'lshr i128 {s}, 32')} to i32"))
        if couts:  # carry out of the 64-bit sum
            e.set_pred(couts[0], e.op(f"trunc i128 {e.op(f'lshr i128 {s}, 64')} to i1"))
        return
    prod = e.mul32(e.i32(a), e.i32(b))
    if not couts and cin == "0":
        e.write(d, e.add32(prod, e.i32(c)))
        return
    s = e.op(f"add i64 {_ext(e, prod, False)}, {_ext(e, e.i32(c), False)}")
    if cin != "0":
        s = e.op(f"add i64 {s}, {e.op(f'trunc i128 {cin} to i64')}")
    e.write(d, e.op(f"trunc i64 {s} to i32"))
    if couts:
        bit = e.op(f"lshr i64 {s}, 32")
        e.set_pred(couts[0], e.op(f"trunc i64 {bit} to i1"))


def lea(e: Emitter, ins: Instruction) -> None:
    couts, srcs, cins = split_preds(ins.operands)
    shift = imm_value(srcs[-1]) if isinstance(srcs[-1], (Imm, FImm)) else None
    if shift is None:
        raise e.fail(f"{ins.full} with a register shift count is not supported")
    # `LEA d, pc, -a, b, s`: like IADD3, -x contributes ~(a << s) + 1, so a zero carries out
    negate = isinstance(srcs[0], (Reg, CBank)) and srcs[0].neg and not ins.has("HI", "X")
    a = e.raw32(srcs[0]) if negate else e.i32(srcs[0])
    b = e.i32(srcs[1])
    if ins.has("HI"):
        if ins.has("SX32"):
            c = e.op(f"ashr i32 {a}, 31")
        else:
            c = e.i32(srcs[2])
        wide = e.join(a, c)
        sh = e.op(f"shl i64 {wide}, {shift}")
        hi = e.op(f"lshr i64 {sh}, 32")
        part = e.op(f"trunc i64 {hi} to i32")
    else:
        part = e.op(f"shl i32 {a}, {shift}")
    term = _ext(e, e.op(f"xor i32 {part}, -1") if negate else part, False)
    term = e.op(f"add i64 {term}, 1") if negate else term
    s = e.op(f"add i64 {term}, {_ext(e, b, False)}")
    if ins.has("X") and cins:
        s = e.op(f"add i64 {s}, {e.op(f'zext i1 {e.pred(cins[0])} to i64')}")
    e.write(ins.operands[0], e.op(f"trunc i64 {s} to i32"))
    if couts:
        bit = e.op(f"lshr i64 {s}, 32")
        e.set_pred(couts[0], e.op(f"trunc i64 {bit} to i1"))


# ---------------------------------------------------------------- shifts and bits
def shf(e: Emitter, ins: Instruction) -> None:
    """SHF: shift the 64-bit {hi:lo} by s (clamped to the width, or modulo it with .W) and keep one
    word. 32-bit forms are funnel shifts (llvm.fshl/fshr: v_alignbit on gfx11) and 64-bit forms
    i64 shifts; an i128 formulation made llc-16 expand every SHF of a SHA-512 round into dozens
    of instructions."""
    d, lo, s, hi = ins.operands
    a, b, amount = e.i32(lo), e.i32(hi), e.i32(s)
    if ins.has("U64", "S64"):
        e.write(d, _shf64(e, ins, a, b, amount))
    else:
        e.write(d, _shf32(e, ins, a, b, amount))


def _shf32(e: Emitter, ins: Instruction, a: str, b: str, amount: str) -> str:
    wrap = ins.has("W")
    n = (
        e.op(f"and i32 {amount}, 31")
        if wrap
        else e.op(f"call i32 @llvm.umin.i32(i32 {amount}, i32 32)")
    )
    m = n if wrap else e.op(f"and i32 {n}, 31")
    signed = ins.has("S32")
    if ins.has("L"):
        core, edge = (
            (e.op(f"call i32 @llvm.fshl.i32(i32 {b}, i32 {a}, i32 {m})"), a)
            if ins.has("HI")
            else (e.op(f"shl i32 {a}, {m}"), "0")
        )
    elif not ins.has("HI"):
        core, edge = e.op(f"call i32 @llvm.fshr.i32(i32 {b}, i32 {a}, i32 {m})"), b
    elif signed:
        core, edge = e.op(f"ashr i32 {b}, {m}"), e.op(f"ashr i32 {b}, 31")
    else:
        core, edge = e.op(f"lshr i32 {b}, {m}"), "0"
    if wrap:
        return core
    return e.op(f"select i1 {e.op(f'icmp eq i32 {n}, 32')}, i32 {edge}, i32 {core}")


def _shf64(e: Emitter, ins: Instruction, a: str, b: str, amount: str) -> str:
    wrap = ins.has("W")
    v = e.join(a, b)
    n = (
        e.op(f"and i32 {amount}, 63")
        if wrap
        else e.op(f"call i32 @llvm.umin.i32(i32 {amount}, i32 64)")
    )
    m = e.op(f"zext i32 {n if wrap else e.op(f'and i32 {n}, 63')} to i64")
    if ins.has("L"):
        core, edge = e.op(f"shl i64 {v}, {m}"), "0"
    elif ins.has("S64"):
        core, edge = e.op(f"ashr i64 {v}, {m}"), e.op(f"ashr i64 {v}, 63")
    else:
        core, edge = e.op(f"lshr i64 {v}, {m}"), "0"
    r = core if wrap else e.op(f"select i1 {e.op(f'icmp eq i32 {n}, 64')}, i64 {edge}, i64 {core}")
    if ins.has("HI"):
        r = e.op(f"lshr i64 {r}, 32")
    return e.op(f"trunc i64 {r} to i32")


def lut3(e: Emitter, a: str, b: str, c: str, lut: int, ty: str) -> str:
    ones = "true" if ty == "i1" else "-1"
    if lut in LUT_SHORTCUTS and ty != "i1":
        expr = LUT_SHORTCUTS[lut]
        env = {"a": a, "b": b, "c": c}
        if expr in ("0", "-1"):
            return expr
        terms = expr.split("|") if "|" in expr else None
        if expr.startswith("~"):
            return e.op(f"xor {ty} {env[expr[1]]}, {ones}")
        for sep, llop in (("&", "and"), ("|", "or"), ("^", "xor")):
            if sep in expr:
                names = expr.split(sep)
                acc = env[names[0]]
                for n in names[1:]:
                    acc = e.op(f"{llop} {ty} {acc}, {env[n]}")
                return acc
        del terms
        return env[expr]
    # Shannon expansion on one input x: f = x ? f1(y, z) : f0(y, z), each half a two-input
    # function; the general case is the bit select f0 ^ (x & (f0 ^ f1)) (v_bfi_b32). The input
    # whose halves cost least is chosen (0xb8 = b ? c : a is one select). A sum of the table's
    # minterms (up to 27 operations: SHA-512's majority and choose functions, 600 of them in
    # sha512_chains) left instcombine a third of opt-16's time to fold back.
    x, y, z, lut = min(
        ((a, b, c, lut), (b, a, c, _permute(lut, 1)), (c, a, b, _permute(lut, 2))),
        key=lambda choice: _shannon_cost(choice[3]),
    )
    f1, f0 = lut >> 4, lut & 0xF

    def half(t: int) -> str:
        return lut2(e, y, z, t, ty)

    def neg(v: str) -> str:
        return e.op(f"xor {ty} {v}, {ones}")

    if f0 == f1:
        return half(f0)
    if f1 == f0 ^ 0xF:
        return e.op(f"xor {ty} {x}, {half(f0)}")
    if f0 == 0:
        return e.op(f"and {ty} {x}, {half(f1)}")
    if f1 == 0xF:
        return e.op(f"or {ty} {x}, {half(f0)}")
    if f1 == 0:
        return e.op(f"and {ty} {neg(x)}, {half(f0)}")
    if f0 == 0xF:
        return e.op(f"or {ty} {neg(x)}, {half(f1)}")
    lo, hi = half(f0), half(f1)
    differ = e.op(f"xor {ty} {lo}, {hi}")
    return e.op(f"xor {ty} {lo}, {e.op(f'and {ty} {x}, {differ}')}")


def _permute(lut: int, first: int) -> int:
    """The truth table with input `first` (0 a, 1 b, 2 c) moved to the front, the other two
    keeping their order: bit (x << 2) | (y << 1) | z of the result."""
    out = 0
    for i in range(8):
        bits = [i >> 2 & 1, i >> 1 & 1, i & 1]  # a, b, c
        moved = [bits[first]] + [v for k, v in enumerate(bits) if k != first]
        if lut >> i & 1:
            out |= 1 << (moved[0] << 2 | moved[1] << 1 | moved[2])
    return out


def _lut2_cost(t: int) -> int:
    return 0 if t in (0x0, 0xF, 0xC, 0xA) else 1 if t in (0x3, 0x5, 0x8, 0xE, 0x6) else 2


def _shannon_cost(lut: int) -> int:
    """Operations lut3 emits expanding on the first input (a bit select counted as one: llc
    makes one v_bfi_b32 of it)."""
    f1, f0 = lut >> 4, lut & 0xF
    if f0 == f1:
        return _lut2_cost(f0)
    if f1 == f0 ^ 0xF or f0 == 0 or f1 == 0xF:
        return 1 + _lut2_cost(f1 if f0 == 0 else f0)
    if f1 == 0 or f0 == 0xF:
        return 2 + _lut2_cost(f0 if f1 == 0 else f1)
    return 1 + _lut2_cost(f0) + _lut2_cost(f1)


def lut2(e: Emitter, b: str, c: str, t: int, ty: str) -> str:
    """The two-input function of b and c whose truth table is `t` (bit (b << 1) | c)."""
    ones = "true" if ty == "i1" else "-1"
    if t in (0x0, 0xF):
        return ones if t else ("false" if ty == "i1" else "0")
    if t in (0xC, 0xA):
        return b if t == 0xC else c
    if t in (0x3, 0x5):
        return e.op(f"xor {ty} {b if t == 0x3 else c}, {ones}")
    inverted = t in (0x1, 0x7, 0x9)  # not(or), not(and), not(xor)
    t = t ^ 0xF if inverted else t
    if t in (0x8, 0xE, 0x6):
        name = {0x8: "and", 0xE: "or", 0x6: "xor"}[t]
        value = e.op(f"{name} {ty} {b}, {c}")
    else:  # one input inverted: ~b & c, b & ~c, ~b | c, b | ~c
        op = "and" if t in (0x2, 0x4) else "or"
        nb = t in (0x2, 0xB)
        x = e.op(f"xor {ty} {b if nb else c}, {ones}")
        value = e.op(f"{op} {ty} {x}, {c}") if nb else e.op(f"{op} {ty} {b}, {x}")
    return e.op(f"xor {ty} {value}, {ones}") if inverted else value


def lop3(e: Emitter, ins: Instruction) -> None:
    ops = list(ins.operands)
    pout = ops.pop(0) if is_pred(ops[0]) else None
    d, a, b, c, lut = ops[:5]
    if not isinstance(lut, Imm):
        raise e.fail("LOP3 with a non-immediate truth table")
    value = lut3(e, e.i32(a), e.i32(b), e.i32(c), lut.value & 0xFF, "i32")
    e.write(d, value)
    if pout is not None:
        nonzero = e.op(f"icmp ne i32 {value}, 0")
        if len(ops) > 5 and is_pred(
            ops[5]
        ):  # `..., 0xc0, P0`: ORed in (64-bit tests: lo, then hi OR lo)
            nonzero = e.op(f"or i1 {nonzero}, {e.pred(ops[5])}")
        e.set_pred(pout, nonzero)


def lop(e: Emitter, ins: Instruction) -> None:
    """Old two-input LOP.AND/OR/XOR/PASS_B."""
    ops = list(ins.operands)
    pout = ops.pop(0) if is_pred(ops[0]) else None
    d, a, b = ops[:3]
    fn = {"AND": "and", "OR": "or", "XOR": "xor"}.get(ins.mods[0] if ins.mods else "")
    value = e.i32(b) if fn is None else e.op(f"{fn} i32 {e.i32(a)}, {e.i32(b)}")
    e.write(d, value)
    if pout is not None:
        e.set_pred(pout, e.op(f"icmp ne i32 {value}, 0"))


def plop3(e: Emitter, ins: Instruction) -> None:
    q0, q1, pa, pb, pc = ins.operands[:5]
    luts = [o for o in ins.operands[5:] if isinstance(o, Imm)]
    a, b, c = e.pred(pa), e.pred(pb), e.pred(pc)
    e.set_pred(q0, lut3(e, a, b, c, luts[0].value & 0xFF, "i1"))
    if len(luts) > 1:
        e.set_pred(q1, lut3(e, a, b, c, luts[1].value & 0xFF, "i1"))


def popc(e: Emitter, ins: Instruction) -> None:
    e.write(ins.operands[0], e.op(f"call i32 @llvm.ctpop.i32(i32 {e.i32(ins.operands[1])})"))


def flo(e: Emitter, ins: Instruction) -> None:
    ops = [o for o in ins.operands if not is_pred(o)]
    v = e.i32(ops[1])
    if ins.has("S32"):
        sign = e.op(f"ashr i32 {v}, 31")
        v = e.op(f"xor i32 {v}, {sign}")
    lz = e.op(f"call i32 @llvm.ctlz.i32(i32 {v}, i1 false)")
    zero = e.op(f"icmp eq i32 {v}, 0")
    pos = lz if ins.has("SH") else e.op(f"sub i32 31, {lz}")
    e.write(ops[0], e.op(f"select i1 {zero}, i32 -1, i32 {pos}"))


def brev(e: Emitter, ins: Instruction) -> None:
    e.write(ins.operands[0], e.op(f"call i32 @llvm.bitreverse.i32(i32 {e.i32(ins.operands[1])})"))


def iabs(e: Emitter, ins: Instruction) -> None:
    e.write(
        ins.operands[0], e.op(f"call i32 @llvm.abs.i32(i32 {e.i32(ins.operands[1])}, i1 false)")
    )


def sgxt(e: Emitter, ins: Instruction) -> None:
    d, a, n = ins.operands[:3]
    bits = e.op(f"call i32 @llvm.umin.i32(i32 {e.i32(n)}, i32 32)")
    sh = e.op(f"sub i32 32, {bits}")
    left = e.op(f"shl i32 {e.i32(a)}, {sh}")
    right = e.op(f"{'lshr' if ins.has('U32') else 'ashr'} i32 {left}, {sh}")
    zero = e.op(f"icmp eq i32 {bits}, 0")
    e.write(d, e.op(f"select i1 {zero}, i32 0, i32 {right}"))


def bmsk(e: Emitter, ins: Instruction) -> None:
    d, pos, width = ins.operands[:3]
    w = e.op(f"call i32 @llvm.umin.i32(i32 {e.i32(width)}, i32 32)")
    w64 = e.op(f"zext i32 {w} to i64")
    ones = e.op(f"shl i64 1, {w64}")
    mask = e.op(f"trunc i64 {e.op(f'sub i64 {ones}, 1')} to i32")
    p = e.op(f"and i32 {e.i32(pos)}, 31")
    e.write(d, e.op(f"shl i32 {mask}, {p}"))


def prmt(e: Emitter, ins: Instruction) -> None:
    if ins.mods:
        raise e.fail(f"PRMT mode .{'.'.join(ins.mods)} is not supported")
    d, a, sel, b = ins.operands[:4]
    e.write(d, e.op(f"call i32 @sass.prmt(i32 {e.i32(a)}, i32 {e.i32(sel)}, i32 {e.i32(b)})"))


def imnmx(e: Emitter, ins: Instruction) -> None:
    d, a, b, p = ins.operands[:4]
    ty = "u" if ins.has("U32") else "s"
    lo = e.op(f"call i32 @llvm.{ty}min.i32(i32 {e.i32(a)}, i32 {e.i32(b)})")
    hi = e.op(f"call i32 @llvm.{ty}max.i32(i32 {e.i32(a)}, i32 {e.i32(b)})")
    e.write(d, _relu(e, ins, e.op(f"select i1 {e.pred(p)}, i32 {lo}, i32 {hi}")))


def _relu(e: Emitter, ins: Instruction, v: str) -> str:
    """`.RELU` (VIMNMX, VIMNMX3, VIADDMNMX): negative results become 0 (clamped indices)."""
    return e.op(f"call i32 @llvm.smax.i32(i32 {v}, i32 0)") if ins.has("RELU") else v


def imnmx3(e: Emitter, ins: Instruction) -> None:
    """VIMNMX3 d, a, b, c, p: min (p) or max (!p) of three."""
    d, a, b, c, p = ins.operands[:5]
    ty = "u" if ins.has("U32") else "s"
    va, vb, vc = e.i32(a), e.i32(b), e.i32(c)
    lo = e.op(
        f"call i32 @llvm.{ty}min.i32(i32 {e.op(f'call i32 @llvm.{ty}min.i32(i32 {va}, i32 {vb})')}, i32 {vc})"
    )
    hi = e.op(
        f"call i32 @llvm.{ty}max.i32(i32 {e.op(f'call i32 @llvm.{ty}max.i32(i32 {va}, i32 {vb})')}, i32 {vc})"
    )
    e.write(d, _relu(e, ins, e.op(f"select i1 {e.pred(p)}, i32 {lo}, i32 {hi}")))


def viaddmnmx(e: Emitter, ins: Instruction) -> None:
    d, a, b, c, p = ins.operands[:5]
    s = e.op(f"add i32 {e.i32(a)}, {e.i32(b)}")
    ty = "u" if ins.has("U32") else "s"
    lo = e.op(f"call i32 @llvm.{ty}min.i32(i32 {s}, i32 {e.i32(c)})")
    hi = e.op(f"call i32 @llvm.{ty}max.i32(i32 {s}, i32 {e.i32(c)})")
    e.write(d, _relu(e, ins, e.op(f"select i1 {e.pred(p)}, i32 {lo}, i32 {hi}")))


def _lanes(e: Emitter, v: str, width: int, count: int, first: int, signed: bool) -> list[str]:
    """`count` sign- or zero-extended `width`-bit fields of v from field `first` on, as i32."""
    out = []
    for k in range(first, first + count):
        field = e.op(f"trunc i32 {e.op(f'lshr i32 {v}, {k * width}')} to i{width}")
        out.append(e.op(f"{'sext' if signed else 'zext'} i{width} {field} to i32"))
    return out


def idp(e: Emitter, ins: Instruction) -> None:
    """IDP.4A.Ta.Tb d, a, b, c = c + sum a.byte[i] * b.byte[i]; IDP.2A.LO|HI.Ta16.Tb8 multiplies
    a's two 16-bit halves by bytes 0-1 (LO) or 2-3 (HI) of b."""
    types = [m for m in ins.mods if m[0] in "SU" and m[1:] in ("8", "16")]
    if len(types) != 2 or not ins.has("4A", "2A"):
        raise e.fail(f"{ins.full} is not supported")
    d, a, b, c = ins.operands[:4]
    (sa, sb) = (t[0] == "S" for t in types)
    if ins.has("4A"):
        xs, ys = _lanes(e, e.i32(a), 8, 4, 0, sa), _lanes(e, e.i32(b), 8, 4, 0, sb)
    else:
        xs, ys = (
            _lanes(e, e.i32(a), 16, 2, 0, sa),
            _lanes(e, e.i32(b), 8, 2, 2 if ins.has("HI") else 0, sb),
        )
    total = e.i32(c)
    for x, y in zip(xs, ys):
        total = e.op(f"add i32 {total}, {e.op(f'mul i32 {x}, {y}')}")
    e.write(d, total)


def vabsdiff(e: Emitter, ins: Instruction) -> None:
    """VABSDIFF[.U32] d, a, b, c = |a - b| + c (the difference taken exactly: __sad / __usad)."""
    if any(m not in ("U32", "S32") for m in ins.mods):
        raise e.fail(f"{ins.full} (packed forms) is not supported")
    d, a, b, c = ins.operands[:4]
    signed = not ins.has("U32")
    diff = e.op(f"sub i64 {_ext(e, e.i32(a), signed)}, {_ext(e, e.i32(b), signed)}")
    neg, flipped = e.op(f"icmp slt i64 {diff}, 0"), e.op(f"sub i64 0, {diff}")
    mag = e.op(f"trunc i64 {e.op(f'select i1 {neg}, i64 {flipped}, i64 {diff}')} to i32")
    e.write(d, e.op(f"add i32 {mag}, {e.i32(c)}"))


# ---------------------------------------------------------------- compares and selects
def combine(e: Emitter, ins: Instruction, t: str, pacc: Operand, pd2: Operand | None = None
            ) -> tuple[str, str]:  # fmt: skip
    """(t BOP acc, !t BOP acc) of a compare's result `t` and its accumulated predicate; the second
    is "false" unread where `pd2` is PT."""
    bop = next((BOOL_OPS[m] for m in ins.mods if m in BOOL_OPS), "and")
    acc = e.pred(pacc)
    first = e.bool1(bop, t, acc)
    if pd2 is None or (isinstance(pd2, Reg) and pd2.is_true):
        return first, "false"
    return first, e.bool1(bop, e.not1(t), acc)


def isetp(e: Emitter, ins: Instruction) -> None:
    pd, pd2, a, b, pacc = ins.operands[:5]
    cmp = next(m for m in ins.mods if m in ICMP)
    unsigned = ins.has("U32")
    va, vb = e.i32(a), e.i32(b)
    t = e.op(f"icmp {(ICMP_U if unsigned else ICMP)[cmp]} i32 {va}, {vb}")
    if ins.has("EX"):
        low = e.pred(ins.operands[5])
        eq = e.op(f"icmp eq i32 {va}, {vb}")
        if cmp in ("EQ", "NE"):  # 64-bit equality: both halves
            t = e.op(f"{'and' if cmp == 'EQ' else 'or'} i1 {t}, {low}")
        else:
            t = e.op(f"select i1 {eq}, i1 {low}, i1 {t}")
    first, second = combine(e, ins, t, pacc, pd2)
    e.set_pred(pd, first)
    e.set_pred(pd2, second)


def sel(e: Emitter, ins: Instruction) -> None:
    d, a, b, p = ins.operands[:4]
    e.write(d, e.op(f"select i1 {e.pred(p)}, i32 {e.i32(a)}, i32 {e.i32(b)}"))


def _pred_bank(ins: Instruction, pr: Operand, src: Operand) -> tuple[str, int]:
    """The predicate file (`P` for PR, `UP` for UPR) and the shift of the byte its bits map to:
    `.B1`-`.B3` on the opcode or on the register (`R2P PR, R4.B1, 0x7f`)."""
    prefix = "UP" if isinstance(pr, Reg) and pr.name == "UPR" else "P"
    sel = [*ins.mods, getattr(src, "half", "")]
    byte = next((int(m[1]) for m in sel if m in ("B1", "B2", "B3")), 0)
    return prefix, 8 * byte


def _whole(o: Operand) -> Operand:
    """The register without its byte selector (the byte is the predicates' position, not a read)."""
    return Reg(o.name) if isinstance(o, Reg) else o


def p2r(e: Emitter, ins: Instruction) -> None:
    """P2R / UP2UR d, PR, src, mask: predicate i (mask bit i) -> bit i (of byte .Bn); other bits from src."""
    d, pr, src, mask = ins.operands[:4]
    (prefix, shift), m = _pred_bank(ins, pr, src), imm_value(mask) & 0x7F
    value = "0"
    for i in range(7):
        if m >> i & 1:
            bit = e.op(f"zext i1 {e.load_reg(Reg(f'{prefix}{i}'))} to i32")
            value = e.op(f"or i32 {value}, {e.op(f'shl i32 {bit}, {i + shift}')}")
    keep = e.op(f"and i32 {e.i32(_whole(src))}, {~(m << shift) & 0xFFFFFFFF}")
    e.write(d, e.op(f"or i32 {keep}, {value}"))


def r2p(e: Emitter, ins: Instruction) -> None:
    """R2P / R2UP PR, src, mask: predicate i (mask bit i) = bit i (of byte .Bn) of src."""
    pr, src, mask = ins.operands[:3]
    (prefix, shift), m, v = _pred_bank(ins, pr, src), imm_value(mask), e.i32(_whole(src))
    for i in range(7):
        if m >> i & 1:
            bit = e.op(f"and i32 {v}, {1 << (i + shift)}")
            e.store_reg(Reg(f"{prefix}{i}"), e.op(f"icmp ne i32 {bit}, 0"))


# ---------------------------------------------------------------- moves and constants
def mov(e: Emitter, ins: Instruction) -> None:
    e.write(ins.operands[0], e.i32(ins.operands[1]))


def ldc(e: Emitter, ins: Instruction) -> None:
    d, c = ins.operands[:2]
    assert isinstance(c, CBank)
    if ins.has("64"):
        e.write_pair(d, e.cbank(c, 8))
        return
    small = {"U8": (1, "zext"), "S8": (1, "sext"), "U16": (2, "zext"), "S16": (2, "sext")}
    kind = next((small[m] for m in ins.mods if m in small), None)
    if kind is None:
        e.write(d, e.cbank(c, 4))
        return
    size, ext = kind
    e.write(d, e.op(f"{ext} i{8 * size} {e.cbank(c, size)} to i32"))


def hfma2_const(e: Emitter, ins: Instruction) -> bool:
    """`HFMA2.MMA R7, -RZ, RZ, hi, lo`: ptxas' 32-bit constant move (two fp16 immediates)."""
    ops = ins.operands
    if (
        len(ops) == 5
        and all(isinstance(o, Reg) and o.is_zero for o in ops[1:3])
        and all(isinstance(o, (FImm, Imm)) for o in ops[3:])
    ):
        from cass.models.lift.emit import parse_float_bits

        def bits(o: Operand) -> int:
            return o.value & 0xFFFF if isinstance(o, Imm) else parse_float_bits(o.text, 16)

        value = bits(ops[3]) << 16 | bits(ops[4])
        e.write(ops[0], str(value - (1 << 32) if value >= 1 << 31 else value))
        return True
    return False


HANDLERS: dict[str, Handler] = {
    "IADD3": iadd3, "IADD": iadd3, "VIADD": viadd, "IMAD": imad, "LEA": lea, "SHF": shf, "LOP3": lop3,
    "LOP": lop, "PLOP3": plop3, "POPC": popc, "FLO": flo, "BREV": brev, "IABS": iabs, "SGXT": sgxt,
    "BMSK": bmsk, "PRMT": prmt, "IMNMX": imnmx, "VIMNMX": imnmx, "VIMNMX3": imnmx3, "VIADDMNMX": viaddmnmx,
    "IDP": idp, "VABSDIFF": vabsdiff, "ISETP": isetp, "SEL": sel, "P2R": p2r, "R2P": r2p, "UP2UR": p2r, "R2UP": r2p, "MOV": mov, "R2UR": mov, "LDC": ldc,
}  # fmt: skip
