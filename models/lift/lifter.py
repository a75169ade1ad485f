"""The lifter pipeline: a parsed SASS function -> one LLVM IR kernel, pass by pass.

layout    = infer_layout(fn, arch)          parameters in constant bank 0
fn        = attach_jump_tables(fn, pool)    BRX targets from the literal pool
cfg       = build_cfg(fn)                   leaders, call return points
resources = estimate_resources(fn, arch)    local stack and shared window sizes
outlined  = outline_subroutines(...)        large, often-called subroutines as LLVM functions
body      = lift_body(fn, cfg, emitter)     per-instruction semantics, predication
kernel    = kernel_text(fn, emitter)        signature, entry block, register file
"""

from __future__ import annotations

from dataclasses import dataclass

from cass.models.lift import (
    bulk_copy,
    sem_ctrl,
    sem_float,
    sem_half,
    sem_int,
    sem_mem,
    sem_mma,
    sem_sync,
    sem_sys,
    sem_warp,
    surfaces,
    textures,
)
from cass.models.lift.cfg import TRANSFERS, Cfg, build_cfg, fill_ret_cases, polled_loads
from cass.models.lift.constants import ConstantBanks
from cass.models.lift.elfinfo import CubinInfo
from cass.models.lift.emit import Emitter, LiftError
from cass.models.lift.ir import CBank, Function, Imm, Instruction, Mem, Reg
from cass.models.lift.jumps import attach_jump_tables
from cass.models.lift.outline import outline_subroutines
from cass.models.lift.params import ParamLayout, infer_layout, layout_from_cubin
from cass.models.lift.targets import LlvmTarget

HANDLERS = {**sem_int.HANDLERS, **sem_float.HANDLERS, **sem_mem.HANDLERS, **sem_warp.HANDLERS,
            **sem_ctrl.HANDLERS, **sem_half.HANDLERS, **sem_sys.HANDLERS, **sem_sync.HANDLERS,
            **textures.HANDLERS, **surfaces.HANDLERS, **bulk_copy.HANDLERS, **sem_mma.HANDLERS}  # fmt: skip
IMAGE_HANDLERS = frozenset({*textures.HANDLERS.values(), *surfaces.HANDLERS.values()})
# Opcodes without memory access, side effects or warp collectives: predicated forms are lifted as
# compute-then-select instead of a branch around.
SPECULATABLE = frozenset((set(sem_int.HANDLERS) | set(sem_float.HANDLERS) | set(sem_half.HANDLERS)
                          | {"S2R", "S2UR", "CS2R", "LEPC"}) - {"LDC"})  # fmt: skip
SHARED_DEFAULT = 40 * 1024  # bytes of LDS for the NVIDIA shared window when the text cannot say
LDS_LIMIT = 64 * 1024
SM90_SHARED_RESERVE = 0x400


@dataclass(frozen=True)
class LiftedKernel:
    name: str
    uses_printf: bool
    text: str  # the LLVM function (and its LDS global)
    errors: tuple[LiftError, ...]
    layout: ParamLayout
    shared_size: int
    stack_size: int
    instructions: int


def handler_for(opcode: str):
    if opcode in HANDLERS:
        return HANDLERS[opcode]
    if opcode.startswith("U") and opcode[1:] in HANDLERS:
        return HANDLERS[opcode[1:]]  # uniform datapath twin (UIADD3, ULEA, UMOV...)
    return None


def estimate_resources(fn: Function, arch: str | None) -> tuple[int, int]:
    """(stack bytes, shared window bytes) from the text: frame adjustments of R1, shared offsets."""
    frame, shared_bound, uses_shared, calls = 0, 0, False, False
    for ins in fn.instructions:
        ops = ins.operands
        if (
            ops
            and isinstance(ops[0], Reg)
            and ops[0].name == "R1"
            and any(isinstance(o, Reg) and o.name == "R1" for o in ops[1:])
        ):
            frame += sum(
                -_signed32(o.value) for o in ops if isinstance(o, Imm) and _signed32(o.value) < 0
            )
        if ins.opcode in ("LDS", "STS", "ATOMS", "LDSM"):
            uses_shared = True
            mem = next((o for o in ops if isinstance(o, Mem)), None)
            if mem is not None:
                shared_bound = max(shared_bound, (mem.offset & 0xFFFFFF) + 16)
        calls |= ins.opcode == "CALL"
    uses_local = frame > 0 or any(i.opcode in ("LDL", "STL") for i in fn.instructions)
    stack = 0
    if uses_local:
        stack = max(1024, frame * (64 if calls else 1) + 256)
        stack = min(stack, 64 * 1024)
    shared = 0
    if uses_shared:
        reserve = SM90_SHARED_RESERVE if (arch or "").startswith("sm_9") else 0
        shared = min(LDS_LIMIT, max(shared_bound, reserve + SHARED_DEFAULT))
    return stack, shared


def _signed32(value: int) -> int:
    """sm_90 prints `VIADD R1, R1, 0xfffffa00` for a 1536-byte frame: the immediate is signed."""
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value >> 31 else value


def lift_function(
    fn: Function, arch: str | None, target: LlvmTarget, cubin: CubinInfo | None = None
) -> LiftedKernel:
    known = cubin is not None and fn.name in cubin.params
    layout = layout_from_cubin(cubin.params[fn.name], arch) if known else infer_layout(fn, arch)
    fn = attach_jump_tables(fn, cubin.constant2.get(fn.name) if cubin is not None else None)
    cfg = build_cfg(fn)
    stack, shared = estimate_resources(fn, arch)
    if cubin is not None and cubin.stack.get(fn.name, 0) > 0:  # what ptxas reserved, when more
        stack = min(max(stack, cubin.stack[fn.name] + 256), 64 * 1024)
    if known:
        reserve = SM90_SHARED_RESERVE if (arch or "").startswith("sm_9") else 0
        shared = max(cubin.shared.get(fn.name, 0), reserve)
    e = Emitter(target, layout, stack_size=stack, shared_size=shared)
    e.shared_symbol = f'@"sass.shared.{fn.name}"'
    e.barrier_symbol = f'@"sass.barred.{fn.name}"'
    e.named_barrier_symbol = f'@"sass.named.{fn.name}"'
    e.constants = ConstantBanks.for_kernel(cubin, fn.name)
    e.polled = polled_loads(fn)
    # what the lift-time trackers follow only matters to c[0x4] reads and texture/surface access
    e.tracks_c4 = any(
        isinstance(o, CBank) and o.bank == 4 for i in fn.instructions for o in i.operands
    )
    e.tracks_handles = any(handler_for(i.opcode) in IMAGE_HANDLERS for i in fn.instructions)
    outlined = outline_subroutines(fn, cfg, e, SPECULATABLE, lift_run)
    if cfg.inlining is not None:
        cfg.inlining.outlined = outlined
    errors = lift_body(fn, cfg, e)
    return LiftedKernel(
        fn.name,
        e.uses_printf,
        kernel_text(fn, e) + "".join(o.text for o in outlined.values()),
        tuple(errors),
        layout,
        shared,
        stack,
        len(fn.instructions),
    )


def lift_body(fn: Function, cfg: Cfg, e: Emitter) -> list[LiftError]:
    """The kernel in address order, then every inlined subroutine copy its calls queued."""
    e.body.append("body:")
    e.jump(cfg.block(fn.instructions[0].address))
    errors = lift_run(fn.instructions, cfg, e)
    code = {ins.address: ins for ins in fn.instructions}
    while cfg.inlining is not None and cfg.inlining.queue:
        copy, start = cfg.inlining.queue.pop(0)
        e.c4_regs, e.imm_regs = {}, {}
        errors += lift_run([code[a] for a in cfg.inlining.bodies[start]], copy, e)
    e.body.append("exit:")
    e.emit("ret void")
    e.body = fill_ret_cases(e.body, cfg)
    unique = {(err.ins.address if err.ins else -1, err.message): err for err in errors}
    return list(unique.values())


def lift_run(instructions: list[Instruction], cfg: Cfg, e: Emitter) -> list[LiftError]:
    """Lift instructions in order; a gap in addresses starts a new block."""
    errors: list[LiftError] = []
    following = [i.address for i in instructions[1:]] + [None]
    previous = None
    for ins, nxt in zip(instructions, following, strict=True):
        if ins.address in cfg.leaders or previous is None or ins.address != previous + 16:
            e.label(cfg.block(ins.address))
        elif e.terminated:
            e.label(e.fresh_block("dead"))
        previous = ins.address
        e.emit(f"; {ins.address:04x}: {ins.text.replace(chr(10), ' ')}")
        e.ins = ins
        try:
            lift_instruction(
                e, ins, cfg, nxt if nxt == ins.address + 16 or not cfg.prefix else None
            )
        except LiftError as exc:
            errors.append(exc)
            e.terminated = False
        if e.tracks_c4:
            sem_sys.track(e, ins)
        if e.tracks_handles:
            textures.track(e, ins)
    if not e.terminated:
        e.jump("exit")
    return errors


def lift_instruction(e: Emitter, ins: Instruction, cfg: Cfg, nxt: int | None) -> None:
    if ins.opcode in TRANSFERS:
        sem_ctrl.lift_control(e, ins, cfg, nxt)
        return
    handler = handler_for(ins.opcode)
    if handler is None:
        raise LiftError(ins, f"unsupported SASS instruction {ins.full}")
    if ins.guard is None or (ins.guard.is_true and not ins.guard.invert):
        _apply(handler, e, ins)
        return
    base = (
        ins.opcode[1:] if ins.opcode.startswith("U") and ins.opcode not in HANDLERS else ins.opcode
    )
    if base in SPECULATABLE:  # compute, then select: no extra blocks for LLVM to fold
        e.guard_value = e.pred(ins.guard)
        try:
            _apply(handler, e, ins)
        finally:
            e.guard_value = None
        return
    then, skip = e.fresh_block("then"), e.fresh_block("skip")
    e.branch(e.pred(ins.guard), then, skip)
    e.label(then)
    _apply(handler, e, ins)
    e.label(skip)


def _apply(handler, e: Emitter, ins: Instruction) -> None:
    try:
        handler(e, ins)
    except (ValueError, IndexError, StopIteration, AssertionError, TypeError, AttributeError):
        raise LiftError(ins, f"unsupported operand form of {ins.full}") from None


def llvm_param_type(size: int, align: int, target: LlvmTarget) -> str:
    if size in (1, 2, 4, 8) and align == size:
        return f"i{size * 8}"
    if target.private_as == 5:
        return f"ptr addrspace(4) byref([{size} x i8]) align {align}"
    return f"ptr byval([{size} x i8]) align {align}"


def kernel_text(fn: Function, e: Emitter) -> str:
    t = e.target
    sp = e.pspace
    params, entry = [], []
    image = max(e.layout.size, 4)
    entry.append(
        f"  %param.image = alloca [{image} x i8], align 16, addrspace({t.private_as})"
        if t.private_as
        else f"  %param.image = alloca [{image} x i8], align 16"
    )
    for k, p in enumerate(e.layout.params):
        ty = llvm_param_type(p.size, p.align, t)
        params.append(f"{ty} %p{k}")
        entry.append(f"  %p{k}.at = getelementptr i8, {sp} %param.image, i32 {p.offset}")
        if ty.startswith("i"):
            entry.append(f"  store {ty} %p{k}, {sp} %p{k}.at, align {p.align}")
        else:
            src = "p4" if t.private_as else "p0"
            dst = "p5" if t.private_as else "p0"
            entry.append(f"  call void @llvm.memcpy.{dst}.{src}.i64({sp} %p{k}.at, "
                         f"{t.ptr(4 if t.private_as else 0)} %p{k}, i64 {p.size}, i1 false)")  # fmt: skip
    aspace = f", addrspace({t.private_as})" if t.private_as else ""
    for name in sorted(e.regs):
        ty = "i1" if name.startswith(("P", "UP")) else "i32"
        entry.append(f"  %r.{name} = alloca {ty}{aspace}")
        entry.append(f"  store {ty} {'false' if ty == 'i1' else '0'}, {sp} %r.{name}")
    if e.uses_stack or e.stack_size:
        entry.append(f"  %stack = alloca [{max(e.stack_size, 16)} x i8], align 16{aspace}")
        if t.private_as:
            entry.append(f"  %stack.flat = addrspacecast {sp} %stack to ptr")
            entry.append("  %stack.base = ptrtoint ptr %stack.flat to i64")
        else:
            entry.append("  %stack.base = ptrtoint ptr %stack to i64")
    if e.uses_named_barriers:
        entry.append(f"  call void @sass.bar.named.init(ptr addrspace(3) {e.named_barrier_symbol})")
    entry.append("  br label %body")
    cc = f"{t.kernel_cc} " if t.kernel_cc else ""
    head = f'define {cc}void @"{fn.name}"({", ".join(params)}) #0 {{'
    lds = e.constants.kernel_globals()
    if e.uses_barrier_word:
        lds += f"{e.barrier_symbol} = internal addrspace(3) global i32 undef, align 4\n"
    if e.uses_named_barriers:
        lds += (
            f"{e.named_barrier_symbol} = internal addrspace(3) global [32 x i32] undef, align 16\n"
        )
    if e.uses_shared:
        lds += f"{e.shared_symbol} = internal addrspace(3) global [{max(e.shared_size, 16)} x i8] undef, align 16\n"
    body = "\n".join(e.body)
    return f"{lds}{head}\nentry:\n" + "\n".join(entry) + f"\n{body}\n}}\n"
