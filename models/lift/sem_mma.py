"""Tensor-core instructions as per-lane arithmetic: HMMA.16816 (PTX `mma.sync.m16n8k16` with f16 or
bf16 inputs and f16 or f32 accumulators, what `wmma::mma_sync` compiles to), MOVM.16.MT88
(`movmatrix.m8n8.trans.b16`) and LDSM.16.M88/MT88 x1/x2/x4 (`ldmatrix`).

A warp's fragments are spread over its 32 lanes in the layouts PTX's ISA gives for these
instructions (g = lane >> 2, t = lane & 3):

    A, 16x16, four f16x2 registers a0..a3: a0 = A[g][2t..2t+1], a1 = A[g+8][2t..], a2 = A[g][2t+8..],
        a3 = A[g+8][2t+8..]
    B, 16x8, two registers: b0 = B[2t..2t+1][g], b1 = B[2t+8..2t+9][g]
    C and D, 16x8: f32 c0..c3 = C[g][2t], C[g][2t+1], C[g+8][2t], C[g+8][2t+1];
        f16 c0 = C[g][2t..2t+1], c1 = C[g+8][2t..]
    an 8x8 b16 matrix (movmatrix, ldmatrix): lane 4r + c/2 holds M[r][c] in half c % 2

Each lane reads the words it needs from the lanes holding them (`sass.lane.read`: ds_bpermute
on gfx1100, shfl.sync on NVPTX; the warp is one wave32, all lanes converged as mma.sync requires)
and computes its own elements: D = C + A x B as f32 fused multiply-adds over k in order (an f16
accumulator widened first and rounded once at the end), ldmatrix's rows read from the shared
addresses the lanes give (lanes 8i..8i+7 address matrix i's rows).
"""

from __future__ import annotations

from cass.models.lift.emit import Emitter
from cass.models.lift.ir import Instruction, Mem, Reg
from cass.models.lift.sem_int import Handler
from cass.models.lift.sem_mem import shared_offset, shared_pointer


def _lane(e: Emitter) -> tuple[str, str]:
    """(g, t): this lane's group (lane >> 2) and its index in the group (lane & 3)."""
    lane = e.op("call i32 @sass.laneid()")
    return e.op(f"lshr i32 {lane}, 2"), e.op(f"and i32 {lane}, 3")


def _read(e: Emitter, value: str, lane: str) -> str:
    return e.op(f"call i32 @sass.lane.read(i32 {value}, i32 {lane})")


def _halves(e: Emitter, word: str, bf16: bool) -> tuple[str, str]:
    """The two 16-bit floats of `word` (low half first) as floats."""
    if bf16:
        lo = e.op(f"bitcast i32 {e.op(f'shl i32 {word}, 16')} to float")
        hi = e.op(f"bitcast i32 {e.op(f'and i32 {word}, -65536')} to float")
        return lo, hi
    pair = e.op(f"bitcast i32 {word} to <2 x half>")
    return tuple(  # type: ignore[return-value]
        e.op(f"fpext half {e.op(f'extractelement <2 x half> {pair}, i32 {k}')} to float")
        for k in (0, 1)
    )


def _reg(e: Emitter, o: object) -> Reg:
    if not isinstance(o, Reg) or o.is_pred:
        raise e.fail(f"expected a register, got {o}")
    return o


def hmma(e: Emitter, ins: Instruction) -> None:
    if "16816" not in ins.mods or ins.has("TF32", "S8", "U8", "S4", "U4", "SP"):
        raise e.fail(f"{ins.full}: only the m16n8k16 shape with f16/bf16 inputs is lifted")
    d, a, b, c = (_reg(e, o) for o in ins.operands[:4])
    bf16, f32_acc = ins.has("BF16"), ins.has("F32")
    g, t = _lane(e)
    group = e.op(f"shl i32 {g}, 2")
    rows: dict[tuple[int, int], str] = {}  # (row g or g+8, k) -> A element
    for j in range(4):  # A's rows g and g+8 are spread over the lanes 4g .. 4g+3
        src = e.add32(group, str(j))
        for reg in range(4):
            lo, hi = _halves(e, _read(e, e.i32(a.offset(reg)), src), bf16)
            k = 2 * j + 8 * (reg >> 1)
            rows[(reg & 1, k)], rows[(reg & 1, k + 1)] = lo, hi
    cols: dict[tuple[int, int], str] = {}  # (column 2t or 2t+1, k) -> B element
    for side in range(2):  # column n of B is held by the lanes 4n .. 4n+3
        column = e.op(f"or i32 {e.op(f'shl i32 {t}, 1')}, {side}")
        base = e.op(f"shl i32 {column}, 2")
        for j in range(4):
            src = e.add32(base, str(j))
            for reg in range(2):
                lo, hi = _halves(e, _read(e, e.i32(b.offset(reg)), src), bf16)
                k = 2 * j + 8 * reg
                cols[(side, k)], cols[(side, k + 1)] = lo, hi
    if f32_acc:
        acc = {(r, s): e.f32(c.offset(2 * r + s)) if not c.is_zero else "0.0"
               for r in range(2) for s in range(2)}  # fmt: skip
    else:
        acc = {}
        for r in range(2):
            lo, hi = _halves(e, e.i32(c.offset(r)), False) if not c.is_zero else ("0.0", "0.0")
            acc[(r, 0)], acc[(r, 1)] = lo, hi
    for (r, s), value in acc.items():
        for k in range(16):
            value = e.op(f"call float @llvm.fma.f32(float {rows[(r, k)]}, float {cols[(s, k)]}, "
                         f"float {value})")  # fmt: skip
        acc[(r, s)] = value
    if f32_acc:
        for (r, s), value in acc.items():
            e.write_f32(d.offset(2 * r + s), value)
        return
    for r in range(2):
        pair = "undef"
        for s in range(2):
            h = e.op(f"fptrunc float {acc[(r, s)]} to half")
            pair = e.op(f"insertelement <2 x half> {pair}, half {h}, i32 {s}")
        e.write(d.offset(r), e.op(f"bitcast <2 x half> {pair} to i32"))


def _half_of(e: Emitter, word: str, high: str) -> str:
    """The 16-bit half of `word` chosen by the i1 `high`, zero-extended."""
    shift = e.op(f"select i1 {high}, i32 16, i32 0")
    return e.op(f"and i32 {e.op(f'lshr i32 {word}, {shift}')}, 65535")


def movm(e: Emitter, ins: Instruction) -> None:
    """MOVM.16.MT88 d, a: this lane's two halves of the transposed 8x8 matrix, T[g][2t] = M[2t][g]
    (lane 8t + g/2) and T[g][2t+1] = M[2t+1][g] (lane 8t + 4 + g/2), each in half g % 2."""
    if ins.mods != ("16", "MT88"):
        raise e.fail(f"{ins.full} is not supported")
    d, a = _reg(e, ins.operands[0]), _reg(e, ins.operands[1])
    g, t = _lane(e)
    src = e.op(f"or i32 {e.op(f'shl i32 {t}, 3')}, {e.op(f'lshr i32 {g}, 1')}")
    value = e.i32(a)
    first, second = _read(e, value, src), _read(e, value, e.op(f"or i32 {src}, 4"))
    high = e.op(f"trunc i32 {g} to i1")
    lo, hi = _half_of(e, first, high), _half_of(e, second, high)
    e.write(d, e.op(f"or i32 {lo}, {e.op(f'shl i32 {hi}, 16')}"))


def ldsm(e: Emitter, ins: Instruction) -> None:
    """LDSM.16.M88[.2|.4] d, [addr]: matrix i's row r is at the shared address lane 8i + r gives;
    this lane gets word t of row g of each matrix. `.MT88`: the matrices transposed, T[g][2t] and
    T[g][2t+1] read as the halves at column g of rows 2t and 2t+1."""
    if "16" not in ins.mods or not ins.has("M88", "MT88"):
        raise e.fail(f"{ins.full} is not supported")
    count = 4 if ins.has("4") else 2 if ins.has("2") else 1
    d, mem = _reg(e, ins.operands[0]), ins.operands[1]
    if not isinstance(mem, Mem):
        raise e.fail(f"expected a shared address, got {mem}")
    offset = shared_offset(e, mem)
    g, t = _lane(e)
    words = []
    for i in range(count):
        if not ins.has("MT88"):
            row = _read(e, offset, e.add32(g, str(8 * i)))
            at = e.op(f"add i32 {row}, {e.op(f'shl i32 {t}, 2')}")
            words.append(e.op(f"load i32, ptr addrspace(3) {shared_pointer(e, at)}, align 4"))
            continue
        first = e.add32(e.op(f"shl i32 {t}, 1"), str(8 * i))
        column = e.op(f"shl i32 {g}, 1")
        halves = []
        for src in (first, e.op(f"or i32 {first}, 1")):
            at = e.op(f"add i32 {_read(e, offset, src)}, {column}")
            h = e.op(f"load i16, ptr addrspace(3) {shared_pointer(e, at)}, align 2")
            halves.append(e.op(f"zext i16 {h} to i32"))
        words.append(e.op(f"or i32 {halves[0]}, {e.op(f'shl i32 {halves[1]}, 16')}"))
    for i, word in enumerate(words):  # written after every read: d may be the address register
        e.write(d.offset(i), word)


HANDLERS: dict[str, Handler] = {"HMMA": hmma, "MOVM": movm, "LDSM": ldsm}
