"""Block-level synchronisation beyond `__syncthreads`: named barriers and mbarriers.

Named barriers (`BAR.SYNC id, count`, `BAR.ARV id, count`, `bar.sync 1, 128` in PTX) call
`sass.bar.named`: on gfx1100 counters in LDS (one workgroup barrier in hardware), on NVPTX the
hardware's. `count` is in threads and whole warps arrive; without it the whole block takes part.

mbarriers (`cuda::barrier`, `cuda::memcpy_async`, PTX `mbarrier.*`) are a 64-bit word in shared
memory that the SASS itself initialises and, on sm_80, reads and adjusts with ordinary shared
loads and atomics, so the lift keeps NVIDIA's encoding of it (read off ptxas's code for `init`,
`pending_count` and `test_wait`):

    sm_80 (ATOMS.ARRIVE.64, ARRIVES.LDGSTSBAR.64)   hi: bit 31 phase, bits 0-30 = 2^31 - pending
                                                      lo: 2^30 - expected arrivals per phase
    sm_90 (SYNCS.*)                                   bit 63 phase, bits 43-62 = 2^20 - pending,
                                                      bits 1-20 = 2^20 - expected
An arrival adds to the pending field; the carry out of it is the phase flip, after which pending
starts again from the expected count. sm_90 also counts transactions (`expect_tx`,
`complete_tx`, `cp.async` completions): the lift keeps them in bits 21-41 and bit 0 marks "every
arrival in, transactions outstanding"; a phase completes when both are done. Asynchronous copies
finish when issued (see `sem_mem.async_copy`), so their completion arrivals happen at once.
"""

from __future__ import annotations

from cass.models.lift.emit import Emitter
from cass.models.lift.ir import Instruction, Mem, Reg
from cass.models.lift.sem_mem import _cas_loop, address, atomic

# ---------------------------------------------------------------- named barriers


def named_barrier(e: Emitter, ins: Instruction, wait: bool) -> None:
    """`BAR.SYNC id[, count]` / `BAR.ARV id, count` on the lift's named-barrier counters."""
    ident = e.i32(ins.operands[0])
    count = e.i32(ins.operands[1]) if len(ins.operands) > 1 else "0"
    whole = _whole_block(e)
    if count != whole:
        count = e.op(f"select i1 {e.op(f'icmp eq i32 {count}, 0')}, i32 {whole}, i32 {count}")
    e.uses_named_barriers = True
    flag = "true" if wait else "false"
    e.emit(
        f"call void @sass.bar.named(ptr addrspace(3) {e.named_barrier_symbol}, i32 {ident}, i32 {count}, i1 {flag})"
    )


def _whole_block(e: Emitter) -> str:
    """Threads in the block, rounded up to whole warps."""
    x, y, z = (e.op(f"call i32 @sass.ntid.{a}()") for a in "xyz")
    n = e.op(f"mul i32 {e.op(f'mul i32 {x}, {y}')}, {z}")
    return e.op(f"and i32 {e.op(f'add i32 {n}, 31')}, -32")


# ---------------------------------------------------------------- mbarriers

SM80, SM90 = "sm_80", "sm_90"
PHASE64 = -(1 << 63)  # bit 63 as an i64 literal
PENDING90 = 0xFFFFF << 43
EXPECTED90 = 0xFFFFF << 1
TX90 = 0x1FFFFF << 21


def arrive_sm80(e: Emitter, ins: Instruction) -> None:
    """`ATOMS.ARRIVE.64 d, [a]`: one arrival, d = the state before it (the token is its high word);
    `ARRIVES.LDGSTSBAR.64 [a]`: the arrival of this thread's finished copies (ptxas raised the
    pending count for them first, with ATOMS.ADD on the high word)."""
    if ins.has("TRANSCNT"):
        _update_sm90(e, ins, _mbar_pointer(e, ins), "0", "-1", False)
        return
    dest = ins.operands[0] if ins.opcode == "ATOMS" else None
    old = _update(e, ins, _mbar_pointer(e, ins), lambda old: _step_sm80(e, old))
    if isinstance(dest, Reg) and not dest.is_zero:
        e.write_pair(dest, old)


def _step_sm80(e: Emitter, old: str) -> str:
    lo, hi = e.split(old)
    field = e.op(f"add i32 {e.op(f'and i32 {hi}, 2147483647')}, 1")
    phase = e.op(f"and i32 {hi}, -2147483648")
    done = e.op(f"icmp uge i32 {field}, 2147483648")
    reset = e.op(f"and i32 {e.op(f'add i32 {lo}, 1073741824')}, 2147483647")
    flipped = e.op(f"or i32 {e.op(f'xor i32 {phase}, -2147483648')}, {reset}")
    new_hi = e.op(f"select i1 {done}, i32 {flipped}, i32 {e.op(f'or i32 {phase}, {field}')}")
    return e.join(lo, new_hi)


def syncs(e: Emitter, ins: Instruction) -> None:
    """sm_90 `SYNCS.EXCH.64` (init), `SYNCS.ARRIVE.TRANS64[.RED][.OPTOUT].A<n>T<m>` (arrive with n
    arrivals or a register's count `AR`, m transactions: `T0`, `T1`, `TR` = +register, `TX` =
    -register; no field = `A1TR`), `SYNCS.PHASECHK.TRANS64[.TRYWAIT] p, [a], token` (the phase
    the token saw has completed) and `SYNCS.CCTL` (no effect here)."""
    if ins.has("CCTL"):
        return
    ptr = _mbar_pointer(e, ins)
    if ins.has("EXCH"):
        value, dest = e.pair(ins.operands[2]), ins.operands[0]
        if isinstance(dest, Reg) and not dest.is_zero:
            e.write_pair(
                dest,
                e.op(
                    f'atomicrmw xchg ptr addrspace(3) {ptr}, i64 {value} syncscope("workgroup") acq_rel'
                ),
            )
        else:  # init: a store (the emulator has no ds_storexchg_rtn_b64, NVPTX-16 no atomic i64 store)
            e.emit('fence syncscope("workgroup") release')
            e.emit(f"store volatile i64 {value}, ptr addrspace(3) {ptr}, align 8")
        return
    if ins.has("PHASECHK"):
        pd, _, token = ins.operands[:3]
        word = e.op(f"load volatile i64, ptr addrspace(3) {ptr}, align 8")
        e.emit('fence syncscope("workgroup") acquire')
        now = e.op(f"trunc i64 {e.op(f'lshr i64 {word}, 63')} to i32")
        seen = e.op(f"lshr i32 {e.i32(token)}, 31")
        e.set_pred(pd, e.op(f"icmp ne i32 {now}, {seen}"))
        return
    if not ins.has("ARRIVE"):
        raise e.fail(f"{ins.full} is not supported")
    arrivals, tx = _arrive_counts(e, ins)
    old = _update_sm90(e, ins, ptr, arrivals, tx, ins.has("OPTOUT"))
    dest = ins.operands[0]
    if isinstance(dest, Reg) and not dest.is_zero:
        e.write_pair(dest, old)


def _arrive_counts(e: Emitter, ins: Instruction) -> tuple[str, str]:
    field = next(
        (m for m in ins.mods if m.startswith("A") and "T" in m and m not in ("ARRIVE",)), "A1TR"
    )
    a, t = field[1:].split("T", 1)
    reg = ins.operands[2] if len(ins.operands) > 2 else Reg("RZ")
    arrivals = e.i32(reg) if a == "R" else str(int(a))
    if t == "R":
        tx = e.i32(reg)
    elif t == "X":
        tx = e.op(f"sub i32 0, {e.i32(reg)}")
    else:
        tx = str(int(t))
    return arrivals, tx


def _update_sm90(e: Emitter, ins: Instruction, ptr: str, arrivals: str, tx: str, drop: bool) -> str:
    return _update(e, ins, ptr, lambda old: _step_sm90(e, old, arrivals, tx, drop))


def _step_sm90(e: Emitter, old: str, arrivals: str, tx: str, drop: bool) -> str:
    waiting = e.op(f"trunc i64 {old} to i1")  # every arrival in, transactions outstanding
    field = e.op(f"lshr i64 {e.op(f'and i64 {old}, {PENDING90}')}, 43")
    field = e.op(f"select i1 {waiting}, i64 1048576, i64 {field}")
    field = e.op(f"add i64 {field}, {e.op(f'zext i32 {arrivals} to i64')}")
    expected = e.op(f"and i64 {old}, {EXPECTED90}")
    if drop:
        expected = e.op(f"add i64 {expected}, 2")
    count = e.op(f"lshr i64 {e.op(f'and i64 {old}, {TX90}')}, 21")
    delta = e.op(f"sext i32 {tx} to i64")
    count = e.op(f"and i64 {e.op(f'add i64 {count}, {delta}')}, 2097151")
    arrived = e.op(f"icmp uge i64 {field}, 1048576")
    done = e.op(f"and i1 {arrived}, {e.op(f'icmp eq i64 {count}, 0')}")
    phase = e.op(f"and i64 {old}, {PHASE64}")
    phase = e.op(f"select i1 {done}, i64 {e.op(f'xor i64 {phase}, {PHASE64}')}, i64 {phase}")
    pending = e.op(
        f"select i1 {done}, i64 {e.op(f'lshr i64 {expected}, 1')}, i64 {e.op(f'and i64 {field}, 1048575')}"
    )
    open_ = e.op(f"xor i1 {done}, true")
    flag = e.op(f"zext i1 {e.op(f'and i1 {arrived}, {open_}')} to i64")
    parts = [phase, e.op(f"shl i64 {pending}, 43"), e.op(f"shl i64 {count}, 21"), expected, flag]
    word = parts[0]
    for p in parts[1:]:
        word = e.op(f"or i64 {word}, {p}")
    return word


def _update(e: Emitter, ins: Instruction, ptr: str, step) -> str:
    e.emit('fence syncscope("workgroup") release')
    old = _cas_loop(e, f"ptr addrspace(3) {ptr}", "i64", ' syncscope("workgroup")', step)
    e.emit('fence syncscope("workgroup") acquire')
    return old


def _mbar_pointer(e: Emitter, ins: Instruction) -> str:
    mem = next((o for o in ins.operands if isinstance(o, Mem)), None)
    if mem is None:
        raise e.fail(f"{ins.full} without an mbarrier address")
    return address(e, ins, mem, "shared")


def atoms(e: Emitter, ins: Instruction) -> None:
    if ins.has("ARRIVE"):
        if not ins.has("64") or len(ins.mods) != 2:
            raise e.fail(f"{ins.full}: only the plain 64-bit mbarrier arrive is supported")
        arrive_sm80(e, ins)
        return
    atomic(e, ins, "shared", True)


HANDLERS = {"SYNCS": syncs, "ARRIVES": arrive_sm80, "ATOMS": atoms}
