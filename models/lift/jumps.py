"""Jump tables of indirect branches (`BRX Rn imm`), recovered before the CFG is built.

ptxas compiles a dense `switch` (and PTX `brx.idx`) to a table of 32-bit code offsets in the
kernel's literal pool, `.nv.constant2.<kernel>`, read by a register-indexed constant load right
before the branch:

    LDC R10, c[0x2][R12+0x30]        the entry: a code offset within the function
    SHF.R.S32.HI R11, RZ, 0x1f, R10  sign-extended into a pair
    BRX R10 -0x370                   target = (address of the next instruction) + imm + R10

or, for PTX `brx.idx` on a uniform index, `ULDC UR4, c[0x2][UR4]` and `BRXU UR4 -0x70`.

The table's extent is not written anywhere: it runs from the load's offset over consecutive words
that are instruction addresses of the function, up to the next table another load starts at.
A table read too long only adds `switch` cases no thread takes; one read too short would send a
thread to the trap default, never to a wrong block. nvdisasm text names the targets itself
(`(*"BRANCH_TARGETS .L_x_36,.L_x_37"*)`); the parser turns those into `Target` operands, which
take precedence. A `BRX` whose register is not such a load stays without targets and its lift is
a located error.

`JMX Rn imm` jumps to the absolute address Rn + imm. The lift places each function's code at
address 0 (a relocatable cubin's `.text.<kernel>` starts there and its symbol's value is 0), so
an absolute target is the target's offset, and its table holds offsets less the displacement:
the same recovery with the branch's base the displacement alone. A table the loader relocates
(words zero until then) recovers no target: a located error, as any other register source is.
"""

from __future__ import annotations

import struct
from dataclasses import replace

from cass.models.lift.ir import CBank, Function, Imm, Instruction, Reg, Target

INDIRECT = ("BRX", "BRXU", "JMX")  # BRXU: PTX `brx.idx` on a uniform index, read by ULDC


def attach_jump_tables(fn: Function, pool: bytes | None) -> Function:
    """`fn` with every recoverable `BRX`/`JMX` carrying its targets as `Target` operands."""
    if not any(ins.opcode in INDIRECT for ins in fn.instructions):
        return fn
    addresses = {ins.address for ins in fn.instructions}
    starts = table_starts(fn)
    out = []
    for k, ins in enumerate(fn.instructions):
        if ins.opcode in INDIRECT and pool and not any(isinstance(o, Target) for o in ins.operands):
            targets = table_targets(fn.instructions[:k], ins, pool, addresses, starts)
            ins = replace(ins, operands=(*ins.operands, *map(Target, targets))) if targets else ins
        out.append(ins)
    return Function(fn.name, out, fn.line, fn.labels)


def branch_base(ins: Instruction) -> int:
    """What the register is added to: the next instruction's address plus the displacement
    (`BRX`), or the displacement alone (`JMX`, an absolute address)."""
    imm = next((o.value for o in ins.operands if isinstance(o, Imm)), 0)
    return imm if ins.opcode == "JMX" else ins.address + 16 + imm


def table_starts(fn: Function) -> set[int]:
    """Pool offsets register-indexed constant loads start at: each may begin a table."""
    return {o.offset for ins in fn.instructions for o in ins.operands
            if isinstance(o, CBank) and o.bank == 2 and o.reg is not None}  # fmt: skip


def table_targets(before: list[Instruction], brx: Instruction, pool: bytes, addresses: set[int],
                  starts: set[int]) -> tuple[int, ...]:  # fmt: skip
    load = defining_load(before, brx)
    if load is None:
        return ()
    base = branch_base(brx)
    targets: list[int] = []
    offset = load.offset
    while offset + 4 <= len(pool) and (offset == load.offset or offset not in starts):
        (value,) = struct.unpack_from("<i", pool, offset)
        if base + value not in addresses:
            break
        targets.append(base + value)
        offset += 4
    return tuple(dict.fromkeys(targets))


def defining_load(before: list[Instruction], brx: Instruction) -> CBank | None:
    """The `c[0x2][Rx+off]` operand of the unguarded `LDC` that last wrote the branch register,
    searched back to the previous control transfer; None when something else wrote it."""
    reg = next((o for o in brx.operands if isinstance(o, Reg)), None)
    if reg is None:
        return None
    for ins in reversed(before):
        if ins.opcode in ("BRA", *INDIRECT, "EXIT", "CALL", "RET", "BSYNC"):
            return None
        dest = ins.operands[0] if ins.operands else None
        if not (isinstance(dest, Reg) and dest.name == reg.name):
            continue
        src = ins.operands[1] if len(ins.operands) > 1 else None
        if (
            ins.opcode in ("LDC", "ULDC")
            and ins.guard is None
            and isinstance(src, CBank)
            and src.bank == 2
            and not ins.mods
        ):
            return src
        return None
    return None
