"""Control-flow recovery: basic-block leaders, call return points, the divergence-guard policy.

Leaders are the entry, every branch/call target, and every instruction after a control transfer.
`RET` returns through a `switch` over the return points (addresses after each `CALL`), since the
return address is data (`MOV R20, 0x300` before `CALL.REL.NOINC`).
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
    return Cfg(frozenset(leaders), tuple(returns), frozenset(addresses))


def block_name(address: int) -> str:
    return f"a{address:04x}"
