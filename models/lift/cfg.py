"""Control-flow recovery: basic-block leaders, subroutines, call return points.

Leaders are the entry, every branch/call target, and every instruction after a control transfer.

Subroutines (`CALL.REL.NOINC target` ... `RET.REL.NODEC R20`) are lifted two ways:
* inlined: a non-recursive subroutine is lifted again at each call site, as a copy whose blocks
  carry the site's prefix and whose `RET` jumps straight back to the instruction after the `CALL`.
  This keeps the CFG reducible (one shared body returning through a switch to 47 call sites made
  llc-16 run for more than ten minutes on the AMDGPU structurizer);
* shared: recursive subroutines and targets of indirect calls keep one copy; `RET` returns through
  a `switch` over the return points (addresses after each `CALL`), since the return address is
  data (`MOV R20, 0x300` before the `CALL`). An indirect call (`CALL.REL.NOINC R6`, a device
  function pointer) dispatches the same way over the subroutine entries: direct call targets and
  the first instruction after each unguarded `EXIT` or `RET` (ptxas lays device functions out
  after the kernel body; a function pointer's value is that offset in the kernel's text).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from cass.models.lift.ir import Function, Instruction, Reg, Target

TRANSFERS = frozenset({"BRA", "EXIT", "CALL", "RET", "BRX", "BRXU", "JMX", "JMP", "KILL"})
INLINE_BUDGET = 40_000  # instructions lifted again for inlined call sites, per kernel


@dataclass
class Inlining:
    """Subroutines that may be inlined (entry -> body addresses) and the copies still to lift."""

    bodies: dict[int, tuple[int, ...]]
    costs: dict[int, int]  # instructions one inlined call lifts, nested inlined calls included
    budget: int = INLINE_BUDGET
    queue: list[tuple[Cfg, int]] = field(default_factory=list)
    shared_returns: set[int] = field(
        default_factory=set
    )  # return points of calls into shared bodies
    outlined: dict = field(default_factory=dict)  # entry -> outline.Outlined, called not inlined


@dataclass(frozen=True)
class Cfg:
    leaders: frozenset[int]
    return_points: tuple[int, ...]
    addresses: frozenset[int]
    entries: tuple[int, ...] = ()  # subroutine entry points: where an indirect call may land
    prefix: str = ""  # block-name prefix of an inlined copy
    returns_to: str | None = None  # in an inlined copy: the block after its call site
    inlining: Inlining | None = None

    def block(self, address: int) -> str:
        return f"{self.prefix}{block_name(address)}"

    def call(self, site: int, target: int, return_block: str) -> str:
        """The block a direct CALL at `site` jumps to: a fresh inlined copy of the subroutine when
        it may be inlined (queued for lifting), else the shared body."""
        plan = self.inlining
        if plan is None or target not in plan.bodies:
            return self.shared_call(site, target)
        if self.returns_to is None:  # a call from the kernel body pays for the whole inlined tree
            if plan.budget < plan.costs[target]:
                return self.shared_call(site, target)
            plan.budget -= plan.costs[target]
        copy = replace(self, prefix=f"{self.prefix}c{site:x}.", returns_to=return_block)
        plan.queue.append((copy, target))
        return copy.block(target)

    def shared_call(self, site: int, target: int | None = None) -> str:
        """A call into a shared body (`target`, or None for an indirect call): its return point
        joins the RET dispatch."""
        if self.inlining is not None:
            self.inlining.shared_returns.add(site + 16)
        return self.block(target) if target is not None else ""

    def ret_cases(self) -> str:
        """The RET dispatch cases; filled in once every call site is lifted (see RET_CASES)."""
        return RET_CASES


RET_CASES = "@@return-points@@"


def fill_ret_cases(body: list[str], cfg: Cfg) -> list[str]:
    shared = cfg.inlining.shared_returns if cfg.inlining is not None else set(cfg.return_points)
    cases = "  ".join(f"i32 {a}, label %{cfg.block(a)}" for a in cfg.return_points if a in shared)
    return [line.replace(RET_CASES, cases) if RET_CASES in line else line for line in body]


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
    bodies = inlinable_bodies(fn)
    plan = Inlining(bodies, inline_costs(fn, bodies))
    return Cfg(
        frozenset(leaders | set(entries)),
        tuple(returns),
        frozenset(addresses),
        entries,
        inlining=plan,
    )


def subroutine_entries(fn: Function) -> tuple[int, ...]:
    found: set[int] = set()
    after_end = False
    for ins in fn.instructions:
        if after_end and ins.opcode != "NOP":
            found.add(ins.address)
            after_end = False
        if ins.opcode in ("EXIT", "RET") and unguarded(ins):
            after_end = True
        if ins.opcode == "CALL":
            found.update(op.address for op in ins.operands if isinstance(op, Target))
    addresses = {ins.address for ins in fn.instructions}
    return tuple(sorted(a for a in found if a in addresses))


def unguarded(ins: Instruction) -> bool:
    return ins.guard is None or (ins.guard.is_true and not ins.guard.invert)


def inlinable_bodies(fn: Function) -> dict[int, tuple[int, ...]]:
    """Direct call targets that may be inlined -> the addresses of their bodies, in order: not
    recursive (directly or through other subroutines) and without indirect calls."""
    code = {ins.address: ins for ins in fn.instructions}
    targets = {t.address for ins in fn.instructions if ins.opcode == "CALL" for t in ins.operands
               if isinstance(t, Target) and t.address in code}  # fmt: skip
    bodies = {t: subroutine_body(t, code) for t in targets}
    callees = {t: {o.address for a in body for o in code[a].operands if code[a].opcode == "CALL" and isinstance(o, Target)}
               for t, body in bodies.items()}  # fmt: skip
    indirect = {t for t, body in bodies.items() if any(_indirect_call(code[a]) for a in body)}
    ok: dict[int, bool] = {}

    def inlinable(t: int, path: frozenset[int]) -> bool:
        if t in path or t in indirect or t not in bodies:
            return False
        if t not in ok:
            ok[t] = all(inlinable(c, path | {t}) for c in callees[t])
        return ok[t]

    return {t: body for t, body in bodies.items() if inlinable(t, frozenset())}


def inline_costs(fn: Function, bodies: dict[int, tuple[int, ...]]) -> dict[int, int]:
    code = {ins.address: ins for ins in fn.instructions}
    costs: dict[int, int] = {}

    def cost(t: int) -> int:
        if t not in costs:
            calls = [
                o.address
                for a in bodies[t]
                for o in code[a].operands
                if code[a].opcode == "CALL" and isinstance(o, Target)
            ]
            costs[t] = len(bodies[t]) + sum(cost(c) for c in calls)
        return costs[t]

    for t in bodies:
        cost(t)
    return costs


def subroutine_body(start: int, code: dict[int, Instruction]) -> tuple[int, ...]:
    """Addresses reachable from `start` along branches and fall-through, up to RET/EXIT; a CALL
    falls through to its return point."""
    seen: set[int] = set()
    stack = [start]
    while stack:
        a = stack.pop()
        if a in seen or a not in code:
            continue
        seen.add(a)
        ins = code[a]
        if ins.opcode != "CALL":
            stack += [o.address for o in ins.operands if isinstance(o, Target)]
        if not (unguarded(ins) and _ends_flow(ins)):
            stack.append(a + 16)
    return tuple(sorted(seen))


def _ends_flow(ins: Instruction) -> bool:
    if ins.opcode in ("RET", "EXIT", "BRX", "BRXU", "JMX", "JMP", "KILL"):
        return True
    if ins.opcode != "BRA" or ins.has("DIV", "CONV"):
        return False
    return not any(
        isinstance(o, Reg) and o.is_pred and not (o.is_true and not o.invert) for o in ins.operands
    )


def _indirect_call(ins: Instruction) -> bool:
    return (
        ins.opcode == "CALL"
        and ins.has("REL")
        and not any(isinstance(o, Target) for o in ins.operands)
    )


POLL_WRITES = frozenset({"STS", "STG", "ST", "ATOMS", "ATOMG", "ATOM", "RED", "REDG", "BAR", "CALL", "SYNCS",
                         "ARRIVES", "LDGSTS"})  # fmt: skip


def polled_loads(fn: Function) -> frozenset[int]:
    """Shared and generic loads inside a spin-wait: a backward branch over at most 8 instructions,
    or over a loop with YIELD/NANOSLEEP (ptxas's back-off), that stores nothing. Another thread
    changes what they read (an mbarrier's phase on sm_80, a flag), so they must not be hoisted
    out of the loop as LLVM may do with a plain load."""
    code = fn.instructions
    index = {ins.address: k for k, ins in enumerate(code)}
    found: set[int] = set()
    for k, ins in enumerate(code):
        target = next((o.address for o in ins.operands if isinstance(o, Target)), None)
        if ins.opcode != "BRA" or target is None or target > ins.address or target not in index:
            continue
        body = code[index[target] : k + 1]
        if any(i.opcode in POLL_WRITES for i in body):
            continue
        if len(body) <= 8 or any(i.opcode in ("YIELD", "NANOSLEEP") for i in body):
            found.update(i.address for i in body if i.opcode in ("LDS", "LD"))
    return frozenset(found)


def block_name(address: int) -> str:
    return f"a{address:04x}"
