"""Control-flow recovery: basic-block leaders, call return points, the divergence-guard policy.

Leaders are the entry, every branch/call target, and every instruction after a control transfer.
`RET` returns through a `switch` over the return points (addresses after each `CALL`), since the
return address is data (`MOV R20, 0x300` before `CALL.REL.NOINC`). An indirect call
(`CALL.REL.NOINC R6`, a function pointer loaded from memory) dispatches the same way over the
subroutine entries: direct call targets and the first instruction after each unguarded `EXIT` or
`RET` (ptxas places device functions after the kernel body, one after another; a function
pointer's value is that offset in the kernel's text section).
"""

from __future__ import annotations

from dataclasses import dataclass

from cass.models.lift.ir import Function, Target

TRANSFERS = frozenset({"BRA", "EXIT", "CALL", "RET", "BRX", "JMX", "JMP", "KILL"})


@dataclass(frozen=True)
class Cfg:
    leaders: frozenset[int]
    return_points: tuple[int, ...]
    addresses: frozenset[int]
    entries: tuple[int, ...] = ()  # subroutine entry points: where an indirect call may land


def build_cfg(fn: Function) -> Cfg:
    leaders = {fn.instructions[0].address}
    returns: list[int] = []
    addresses = {ins.address for ins in fn.instructions}
    for ins, nxt in zip(fn.instructions, fn.instructions[1:] + [None], strict=True):
        if ins.opcode not in TRANSFERS:
            continue
        for op in ins.operands:
            if isinstance(op, Target) and op.address in addresses:
                leaders.add(op.address)
        if nxt is not None:
            leaders.add(nxt.address)
            if ins.opcode == "CALL":
                returns.append(nxt.address)
    entries = subroutine_entries(fn)
    return Cfg(frozenset(leaders | set(entries)), tuple(returns), frozenset(addresses), entries)


def subroutine_entries(fn: Function) -> tuple[int, ...]:
    found: set[int] = set()
    after_end = False
    for ins in fn.instructions:
        if after_end and ins.opcode != "NOP":
            found.add(ins.address)
            after_end = False
        if ins.opcode in ("EXIT", "RET") and (ins.guard is None or (ins.guard.is_true and not ins.guard.invert)):
            after_end = True
        if ins.opcode == "CALL":
            found.update(op.address for op in ins.operands if isinstance(op, Target))
    addresses = {ins.address for ins in fn.instructions}
    return tuple(sorted(a for a in found if a in addresses))


def block_name(address: int) -> str:
    return f"a{address:04x}"
