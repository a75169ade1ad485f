"""Control flow: branches, EXIT, CALL/RET, barriers, and the no-op bookkeeping opcodes.

Policy for divergence guards (design brief §6.4): `BRA.DIV` is never taken and `BRA.CONV` always
is, so warp collectives run on their converged fast path. `BSSY/BSYNC/BMOV` and `WARPSYNC` have no
per-thread effect: LLVM's structurizer reconverges at post-dominators, where ptxas put BSYNC.
"""

from __future__ import annotations

from cass.models.lift.cfg import Cfg
from cass.models.lift.emit import Emitter
from cass.models.lift.ir import Imm, Instruction, Reg, Target
from cass.models.lift.jumps import INDIRECT, branch_base
from cass.models.lift.sem_sync import named_barrier

NO_OPS = frozenset({"BSSY", "BSYNC", "BREAK", "BRK", "NOP", "YIELD", "DEPBAR", "ERRBAR", "CGAERRBAR", "CCTL", "ENDCOLLECTIVE",
                    "PMTRIG", "FENCE", "WARPSYNC", "BPT", "UCGABAR_ARV", "UCGABAR_WAIT", "ACQBULK",
                    "CCTLL"})  # fmt: skip


def next_block(cfg: Cfg, ins: Instruction, following: int | None) -> str:
    return cfg.block(following) if following is not None else "exit"


def lift_control(e: Emitter, ins: Instruction, cfg: Cfg, following: int | None) -> bool:
    """Emit a control instruction; False when `ins` is not one."""
    fall = next_block(cfg, ins, following)
    op = ins.opcode
    if op == "EXIT":
        _guarded_jump(e, ins, None, "exit", fall)
        return True
    if op == "BRA":
        if ins.has("DIV"):
            e.jump(fall)
            return True
        target = cfg.block(_target(e, ins))
        cond = next((o for o in ins.operands if isinstance(o, Reg) and o.is_pred), None)
        if ins.has("CONV"):
            cond = None
        _guarded_jump(e, ins, cond, target, fall)
        return True
    if op == "CALL":
        if not ins.has("REL"):
            from cass.models.lift.sem_sys import call_absolute

            _guarded_call(e, ins, call_absolute, fall)
            return True
        if not any(isinstance(o, Target) for o in ins.operands):
            _guarded_call(e, ins, lambda e, ins: _indirect_call(e, ins, cfg), fall)
            return True
        outlined = cfg.inlining.outlined.get(_target(e, ins)) if cfg.inlining else None
        if outlined is not None:  # one LLVM function for every call site (outline.py)
            _guarded_call(e, ins, lambda e, ins: outlined.emit_call(e), fall)
            return True
        _guarded_jump(e, ins, None, cfg.call(ins.address, _target(e, ins), fall), fall)
        return True
    if op == "RET":
        _ret(e, ins, cfg, fall)
        return True
    if op in INDIRECT:  # BRXU: the offset in a uniform register; JMX: an absolute address
        _guarded_call(e, ins, lambda e, ins: _indirect_branch(e, ins, cfg), fall)
        return True
    if op in ("JMP", "KILL"):
        raise e.fail(f"{ins.full} is not supported")
    return False


def bmov(e: Emitter, ins: Instruction) -> None:
    """`BMOV.32.CLEAR Rx, B6` saves a convergence barrier (no per-thread meaning): Rx = 0."""
    d = ins.operands[0] if ins.operands else None
    if isinstance(d, Reg) and d.kind == "R":
        e.write(d, "0")


def _target(e: Emitter, ins: Instruction) -> int:
    t = next((o for o in ins.operands if isinstance(o, Target)), None)
    if t is None:
        raise e.fail(f"{ins.full} without a resolvable target")
    return t.address


def _guarded_jump(e: Emitter, ins: Instruction, cond: Reg | None, target: str, fall: str) -> None:
    conds = [
        e.pred(r) for r in (ins.guard, cond) if r is not None and not (r.is_true and not r.invert)
    ]
    if not conds:
        e.jump(target)
        return
    c = conds[0] if len(conds) == 1 else e.op(f"and i1 {conds[0]}, {conds[1]}")
    e.branch(c, target, fall)


def _guarded_call(e: Emitter, ins: Instruction, body, fall: str) -> None:
    if ins.guard is not None and not (ins.guard.is_true and not ins.guard.invert):
        then = e.fresh_block("call")
        e.branch(e.pred(ins.guard), then, fall)
        e.label(then)
    body(e, ins)
    if not e.terminated:
        e.jump(fall)


def _indirect_call(e: Emitter, ins: Instruction, cfg: Cfg) -> None:
    """`CALL.REL.NOINC R6`: the register holds a subroutine's offset in the kernel's text (a
    function pointer); dispatch over the known entries, trap on any other value."""
    reg = next((o for o in ins.operands if isinstance(o, Reg) and not o.is_pred), None)
    if reg is None or not cfg.entries:
        raise e.fail(f"{ins.full}: indirect call without a register target or known subroutines")
    where = e.i32(reg)
    cfg.shared_call(ins.address)
    bad = e.fresh_block("badcall")
    cases = "  ".join(f"i32 {a}, label %{cfg.block(a)}" for a in cfg.entries)
    e.emit(f"switch i32 {where}, label %{bad} [ {cases} ]")
    e.body.append(f"{bad}:")
    e.emit("call void @llvm.trap()")
    e.emit("unreachable")
    e.terminated = True


def _indirect_branch(e: Emitter, ins: Instruction, cfg: Cfg) -> None:
    """`BRX Rn imm` (or `JMX Rn imm`) with its recovered jump table (see jumps.py): a `switch` on
    the computed target over the table's targets; any other value traps."""
    targets = [o.address for o in ins.operands if isinstance(o, Target)]
    reg = next((o for o in ins.operands if isinstance(o, Reg) and not o.is_pred), None)
    if not targets or reg is None:
        raise e.fail(f"{ins.full}: the jump table is not recoverable (the register is not loaded from the "
                     "kernel's literal pool c[0x2] before the branch, or no cubin was given)")  # fmt: skip
    where = e.op(f"add i32 {e.i32(reg)}, {branch_base(ins)}")
    bad = e.fresh_block("badjump")
    cases = "  ".join(f"i32 {a}, label %{cfg.block(a)}" for a in dict.fromkeys(targets))
    e.emit(f"switch i32 {where}, label %{bad} [ {cases} ]")
    e.body.append(f"{bad}:")
    e.emit("call void @llvm.trap()")
    e.emit("unreachable")
    e.terminated = True


def _ret(e: Emitter, ins: Instruction, cfg: Cfg, fall: str) -> None:
    """In an inlined copy: back to the call site. In a shared body: a switch over the return
    points on the return-address register."""
    if cfg.returns_to is not None:
        _guarded_jump(e, ins, None, cfg.returns_to, fall)
        return
    reg = next((o for o in ins.operands if isinstance(o, Reg)), None)
    if reg is None or not cfg.return_points:
        raise e.fail(f"{ins.full}: return without a known call site")
    dispatch = e.fresh_block("ret")
    _guarded_jump(e, ins, None, dispatch, fall)
    e.body.append(f"{dispatch}:")
    where = e.i32(reg)
    e.emit(f"switch i32 {where}, label %exit [ {cfg.ret_cases()} ]")
    e.terminated = True


def barrier(e: Emitter, ins: Instruction) -> None:
    """`BAR.SYNC 0x0` (`__syncthreads`) is the workgroup barrier; a barrier with another id or a
    thread count, and `BAR.ARV`, go through the named-barrier counters (sem_sync)."""
    if ins.has("RED"):
        _barrier_reduction(e, ins)
        return
    if not ins.has("SYNC", "ARV"):
        raise e.fail(f"{ins.full} is not supported")
    if ins.operands and all(isinstance(o, Reg) for o in ins.operands) and not ins.has("ARV"):
        _register_barrier(e, ins)
        return
    ident = ins.operands[0] if ins.operands else Imm(0)
    if (
        isinstance(ident, Imm)
        and ident.value == 0
        and len(ins.operands) <= 1
        and not ins.has("ARV")
    ):
        e.emit("call void @sass.bar.sync()")
        return
    named_barrier(e, ins, wait=not ins.has("ARV"))


def _register_barrier(e: Emitter, ins: Instruction) -> None:
    """`BAR.SYNC Rx[, Ry]` (sm_90's WARPSYNC.COLLECTIVE slow path of grid.sync()/__syncthreads()
    computes id and count as 0): barrier 0 over the whole block when both are 0, else a named
    barrier."""
    zero = "true"
    for o in ins.operands:
        zero = e.op(f"and i1 {zero}, {e.op(f'icmp eq i32 {e.i32(o)}, 0')}")
    sync, other, done = (
        e.fresh_block("bar.whole"),
        e.fresh_block("bar.named"),
        e.fresh_block("bar.done"),
    )
    e.branch(zero, sync, other)
    e.label(sync)
    e.emit("call void @sass.bar.sync()")
    e.jump(done)
    e.label(other)
    named_barrier(e, ins, wait=True)
    e.label(done)


def _barrier_reduction(e: Emitter, ins: Instruction) -> None:
    """BAR.RED.{POPC,AND,OR} 0x0, P (`__syncthreads_count/and/or`): a block-wide reduction through one
    LDS word, bracketed by barriers; B2R.RESULT reads it."""
    kind = next((m for m in ("POPC", "AND", "OR") if ins.has(m)), None)
    pred = next((o for o in ins.operands if isinstance(o, Reg) and o.is_pred), None)
    if kind is None or pred is None:
        raise e.fail(f"{ins.full} is not supported")
    e.uses_barrier_word = True
    word = e.barrier_symbol
    p = e.pred(pred)
    contribution = e.op(f"xor i1 {p}, true") if kind == "AND" else p
    first = e.op("call i1 @sass.first.thread()")
    e.emit("call void @sass.bar.sync()")
    init, after = e.fresh_block("barinit"), e.fresh_block("barred")
    e.branch(first, init, after)
    e.label(init)
    e.emit(f"store i32 0, ptr addrspace(3) {word}")
    e.label(after)
    e.emit("call void @sass.bar.sync()")
    add, done = e.fresh_block("baradd"), e.fresh_block("bardone")
    e.branch(contribution, add, done)
    e.label(add)
    e.emit(
        f'%{add}.old = atomicrmw add ptr addrspace(3) {word}, i32 1 syncscope("workgroup") monotonic'
    )
    e.label(done)
    e.emit("call void @sass.bar.sync()")
    total = e.op(f"load i32, ptr addrspace(3) {word}")
    e.emit("call void @sass.bar.sync()")
    if kind == "POPC":
        result = total
    else:
        hit = e.op(f"icmp ne i32 {total}, 0")
        result = e.op(f"zext i1 {e.op(f'xor i1 {hit}, true') if kind == 'AND' else hit} to i32")
    e.store_reg(Reg("R_BARRES"), result)


def b2r(e: Emitter, ins: Instruction) -> None:
    """B2R.RESULT d[, P]: the last barrier reduction's value (and, for AND/OR, as a predicate)."""
    value = e.load_reg(Reg("R_BARRES"))
    d = ins.operands[0] if ins.operands else None
    if isinstance(d, Reg) and not d.is_pred:
        e.write(d, value)
    pred = next((o for o in ins.operands if isinstance(o, Reg) and o.is_pred), None)
    if pred is not None:
        e.set_pred(pred, e.op(f"icmp ne i32 {value}, 0"))


def _no_op(e: Emitter, ins: Instruction) -> None:
    return None


HANDLERS = {**{op: _no_op for op in NO_OPS}, "BAR": barrier, "BMOV": bmov, "B2R": b2r,
            "NANOSLEEP": lambda e, ins: e.emit("call void @sass.nanosleep()")}  # fmt: skip
