"""sm_90 bulk asynchronous copies (cp.async.bulk, `cuda::memcpy_async` into a block-scope
`cuda::barrier`), read off ptxas 13.0 (tests/lift/data/bulk_copy.cu):

    UBLKCP.S.G [URd], [URs], URn        global URs:URs+1 -> shared URd; URn = bytes / 16;
                                        the mbarrier is URd+1 (complete_tx::bytes)
    UBLKCP.G.S [URd], [URs], URn        shared URs -> global URd:URd+1 (bulk_group)
    UBLKRED.G.S.<op>.<type> [URd], [URs], URn   global[i] = global[i] <op> shared[i], per element
    UBLKPF.L2 [URa], URn                prefetch: nothing to do
    UTMACMDFLUSH                        commit_group: nothing to do (copies finish when issued)
    ELECT Pd, URd, Pg                   one lane among those with Pg: Pd true in it, URd its lane

Uniform-datapath instructions run once per warp, so the copy is made by the warp's first active
lane. It is synchronous, and its completion is the mbarrier's transaction count going down by the
bytes copied (sem_sync's sm_90 encoding), so a wait on the barrier observes the data.

Tensor-map copies (UTMALDG, UTMASTG, UTMAPF, UTMAREDG: `cp.async.bulk.tensor` with a CUtensorMap)
are located errors: NVIDIA does not document the tensor map's layout and HIP has no counterpart.
"""

from __future__ import annotations

from cass.models.lift.emit import Emitter
from cass.models.lift.ir import Instruction, Mem, Reg
from cass.models.lift.sem_mem import address
from cass.models.lift.sem_sync import _update_sm90

REDUCTIONS = {"ADD": "add", "MIN": "min", "MAX": "max", "AND": "and", "OR": "or", "XOR": "xor",
              "INC": "uinc_wrap", "DEC": "udec_wrap"}  # fmt: skip
TYPES = {"S32": ("i32", 4, True), "U32": ("i32", 4, False), "B32": ("i32", 4, False),
         "U64": ("i64", 8, False), "S64": ("i64", 8, True), "F32": ("float", 4, False)}  # fmt: skip


def _leader(e: Emitter) -> str:
    """i1: this lane is the lowest active lane of its warp."""
    active = e.op("call i32 @sass.activemask()")
    lane = e.op("call i32 @sass.laneid()")
    below = e.op(f"sub i32 {e.op(f'shl i32 1, {lane}')}, 1")
    return e.op(f"icmp eq i32 {e.op(f'and i32 {active}, {below}')}, 0")


def elect(e: Emitter, ins: Instruction) -> None:
    pd, ud, pg = ins.operands[:3]
    mask = e.op(f"call i32 @sass.ballot(i1 {e.pred(pg)})")
    lane = e.op("call i32 @sass.laneid()")
    below = e.op(f"sub i32 {e.op(f'shl i32 1, {lane}')}, 1")
    first = e.op(f"icmp eq i32 {e.op(f'and i32 {mask}, {below}')}, 0")
    e.set_pred(pd, e.op(f"and i1 {e.pred(pg)}, {first}"))
    if isinstance(ud, Reg) and not ud.is_zero:
        if not e.target.private_as:
            raise e.fail(f"{ins.full}: the elected lane's number is lifted for AMD GPUs only")
        e.write(ud, e.op(f"call i32 @llvm.cttz.i32(i32 {mask}, i1 false)"))


def _once_per_warp(e: Emitter, body) -> None:
    then, done = e.fresh_block("blk.one"), e.fresh_block("blk.done")
    e.branch(_leader(e), then, done)
    e.label(then)
    body()
    e.label(done)


def _loop(e: Emitter, count: str, body) -> None:
    """for (k = 0; k < count; k++) body(k)"""
    pre, head = e.fresh_block("blk.pre"), e.fresh_block("blk.loop")
    step, done = e.fresh_block("blk.step"), e.fresh_block("blk.end")
    e.label(pre)
    e.label(head)
    k, nxt = e.tmp("k"), e.tmp("k")
    e.emit(f"{k} = phi i32 [0, %{pre}], [{nxt}, %{step}]")
    e.branch(e.op(f"icmp ult i32 {k}, {count}"), step, done)
    e.label(step)
    body(k)
    e.emit(f"{nxt} = add i32 {k}, 1")
    e.jump(head)
    e.label(done)


def _operands(e: Emitter, ins: Instruction) -> tuple[Reg, Reg, str]:
    dst, src, size = ins.operands[:3]
    if not (isinstance(dst, Mem) and isinstance(src, Mem) and dst.reg and src.reg):
        raise e.fail(f"{ins.full}: expected [dst], [src], size")
    return dst.reg, src.reg, e.i32(size)


def _global(e: Emitter, ins: Instruction, reg: Reg, offset: str) -> str:
    base = e.pair(reg)
    at = e.op(f"add i64 {base}, {e.op(f'zext i32 {offset} to i64')}")
    return e.op(f"inttoptr i64 {at} to ptr addrspace(1)")


def _shared(e: Emitter, ins: Instruction, reg: Reg, offset: str) -> str:
    base = address(e, ins, Mem(reg), "shared")
    return e.op(f"getelementptr i8, ptr addrspace(3) {base}, i32 {offset}")


def bulk_copy(e: Emitter, ins: Instruction) -> None:
    to_shared = ins.mods == ("S", "G")
    if ins.mods not in (("S", "G"), ("G", "S")):
        raise e.fail(f"{ins.full}: only global <-> shared bulk copies are supported")
    dst, src, chunks = _operands(e, ins)

    def copy() -> None:
        def one(k: str) -> None:
            offset = e.op(f"shl i32 {k}, 4")
            if to_shared:
                value = e.op(
                    f"load <4 x i32>, ptr addrspace(1) {_global(e, ins, src, offset)}, align 16"
                )
                e.emit(
                    f"store <4 x i32> {value}, ptr addrspace(3) {_shared(e, ins, dst, offset)}, align 16"
                )
            else:
                value = e.op(
                    f"load <4 x i32>, ptr addrspace(3) {_shared(e, ins, src, offset)}, align 16"
                )
                e.emit(
                    f"store <4 x i32> {value}, ptr addrspace(1) {_global(e, ins, dst, offset)}, align 16"
                )

        _loop(e, chunks, one)
        if to_shared:  # complete_tx::bytes on the mbarrier in the register after the destination
            e.emit('fence syncscope("workgroup") release')
            mbar = address(e, ins, Mem(dst.offset(1)), "shared")
            _update_sm90(
                e, ins, mbar, "0", e.op(f"sub i32 0, {e.op(f'shl i32 {chunks}, 4')}"), False
            )
        else:
            e.emit('fence syncscope("agent") release')

    _once_per_warp(e, copy)


def bulk_reduce(e: Emitter, ins: Instruction) -> None:
    op = next((REDUCTIONS[m] for m in ins.mods if m in REDUCTIONS), None)
    kind = next((TYPES[m] for m in ins.mods if m in TYPES), None)
    if ins.mods[:2] != ("G", "S") or op is None or kind is None:
        raise e.fail(
            f"{ins.full}: only shared -> global reductions of 32/64-bit elements are supported"
        )
    ty, size, signed = kind
    if ty == "float" and op != "add":
        raise e.fail(f"{ins.full}: only add reduces floats")
    if op in ("min", "max") and not signed:
        op = "u" + op
    if ty == "float":
        op = "fadd"
    dst, src, chunks = _operands(e, ins)
    count = e.op(f"shl i32 {chunks}, {2 if size == 4 else 1}")  # 16-byte chunks -> elements

    def reduce() -> None:
        def one(k: str) -> None:
            offset = e.op(f"mul i32 {k}, {size}")
            value = e.op(
                f"load {ty}, ptr addrspace(3) {_shared(e, ins, src, offset)}, align {size}"
            )
            ptr = _global(e, ins, dst, offset)
            e.op(
                f'atomicrmw {op} ptr addrspace(1) {ptr}, {ty} {value} syncscope("agent") monotonic'
            )

        _loop(e, count, one)

    _once_per_warp(e, reduce)


def tensor_map(e: Emitter, ins: Instruction) -> None:
    raise e.fail(f"{ins.full}: a tensor-map copy (cp.async.bulk.tensor with a CUtensorMap): NVIDIA "
                 "does not document the tensor map's layout and HIP has no counterpart; use "
                 "cp.async.bulk / cuda::memcpy_async (non-tensor) or plain loads")  # fmt: skip


HANDLERS = {"UBLKCP": bulk_copy, "UBLKRED": bulk_reduce, "UBLKPF": lambda e, i: None,
            "UTMACMDFLUSH": lambda e, i: None, "ELECT": elect, "UTMALDG": tensor_map,
            "UTMASTG": tensor_map, "UTMAPF": tensor_map, "UTMAREDG": tensor_map,
            "UTMACCTL": tensor_map}  # fmt: skip
