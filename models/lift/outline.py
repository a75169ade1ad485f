"""Subroutines lifted once, as LLVM functions, instead of one inlined copy per call site.

ptxas calls the slow paths of double division, reciprocal and square root (`CALL.REL.NOINC`
... `RET.REL.NODEC R20`) from every division in a kernel: Rodinia's myocyte makes 423 calls to
ten subroutines of 43 to 135 instructions, which inlined per call site (cfg.py) tripled the code
llc-16 compiled (20,500 SASS instructions lifted as about 63,000; 17.5 s of llc-16's CPU time,
9 s once outlined: benchmarks/bench_lift_speed.py). A subroutine that only computes (no memory,
no barrier, no warp collective, no nested call, no constant bank but the literal pool c[0x2] at
fixed offsets) is lifted instead as one function over the registers it names: each one is passed
in by value and each one it writes comes back in a returned struct, so a call has the
subroutine's exact effect on the register file. Only kernels whose inlined copies would add
OUTLINE_MIN instructions or more (OUTLINE_MIN_LARGE in large kernels) are outlined: a call costs
more than the copy it replaces in a small kernel (finance/bond_yield_duration, its divisions in a
loop, ran 6% more wave instructions on the emulator with its 4,700 copied instructions
outlined), so the benchmark's kernels keep their inlined copies and their code unchanged (its
only kernel of LARGE_KERNEL instructions or more, sha512_chains, makes no call).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from cass.models.lift.cfg import Cfg
from cass.models.lift.emit import Emitter
from cass.models.lift.ir import CBank, Function, Target
from cass.models.lift.targets import LARGE_KERNEL

OUTLINE_MIN = 10_000  # instructions the inlined copies would add to the kernel, in all
# ... and in a kernel of targets.LARGE_KERNEL SASS instructions or more, compiled for speed of
# compilation already: there the copies cost llc-16 more than the calls cost the run. Rodinia's
# heartwall (5,712 instructions, 17 + 7 calls of two division slow paths, 1,929 copied
# instructions) lifts in 1.24 instead of 1.76 s of CPU, its gfx1100 code 16,120 -> 13,574
# instructions; a 4,416-instruction kernel of 20 double divisions in a loop among 64-bit integer
# mixing runs fewer emulated wave instructions with its calls than with its copies (207,736 ->
# 195,776 from sm_80, 207,776 -> 191,600 from sm_90, same output), where the smaller
# finance/bond_yield_duration (1,488 instructions, 5,780 copied) ran 6% more.
OUTLINE_MIN_LARGE = 1_000
OUTLINE_SITES = 2  # call sites, at least (a single call gains nothing)
# what an outlined body may hold: arithmetic, conversions, moves, branches and its own returns
OUTLINE_CONTROL = frozenset({"BRA", "RET", "BSSY", "BSYNC", "NOP"})
OUTLINE_EXCLUDED = frozenset({"S2R", "S2UR", "CS2R", "LEPC", "LDC", "ULDC"})


@dataclass(frozen=True)
class Outlined:
    """One subroutine lifted as `define internal {results} @name(params)`."""

    name: str
    params: tuple[str, ...]  # register names, passed by value in this order
    results: tuple[str, ...]  # registers the body writes, returned in this order
    text: str

    def emit_call(self, e: Emitter) -> None:
        """At a call site: the registers in, the call, the written registers back."""
        args = []
        for reg in self.params:
            ty = reg_type(reg)
            args.append(f"{ty} " + e.read_slot(reg, ty))
        ret = self.struct_type()
        value = e.op(f'call {ret} @"{self.name}"({", ".join(args)})')
        for k, reg in enumerate(self.results):
            e.write_slot(reg, reg_type(reg), e.op(f"extractvalue {ret} {value}, {k}"))

    def struct_type(self) -> str:
        return "{ " + ", ".join(reg_type(r) for r in self.results) + " }"


def reg_type(name: str) -> str:
    return "i1" if name.startswith(("P", "UP")) else "i32"


def call_sites(fn: Function) -> dict[int, int]:
    counts: dict[int, int] = {}
    for ins in fn.instructions:
        if ins.opcode == "CALL":
            for o in ins.operands:
                if isinstance(o, Target):
                    counts[o.address] = counts.get(o.address, 0) + 1
    return counts


def outlinable(fn: Function, body: tuple[int, ...], handled: frozenset[str]) -> bool:
    code = {ins.address: ins for ins in fn.instructions}
    for address in body:
        ins = code[address]
        base = (
            ins.opcode[1:]
            if ins.opcode.startswith("U") and ins.opcode not in handled
            else ins.opcode
        )
        if ins.opcode in OUTLINE_EXCLUDED or base in OUTLINE_EXCLUDED:
            return False
        if base not in handled and ins.opcode not in OUTLINE_CONTROL:
            return False
        if any(isinstance(o, CBank) and not _pool_word(o) for o in ins.operands):
            return False
    return True


def _pool_word(o: CBank) -> bool:
    """c[0x2][imm]: a word of the kernel's literal pool, an internal constant global whose loads
    at fixed offsets opt-16 folds into the literals (the logarithm inside double pow() reads its
    polynomial's coefficients there: in each of myocyte's kernels 26 calls of 135 instructions,
    a quarter of the code llc-16 compiled while they were inlined)."""
    return o.bank == 2 and o.reg is None


def outline_min(instructions: int) -> int:
    """Copied instructions from which a kernel of `instructions` SASS instructions outlines."""
    return OUTLINE_MIN_LARGE if instructions >= LARGE_KERNEL else OUTLINE_MIN


def outline_subroutines(fn: Function, cfg: Cfg, e: Emitter, handled: frozenset[str],
                        lift_run) -> dict[int, Outlined]:  # fmt: skip
    """Lift each subroutine worth outlining as a function; {} where none is (see OUTLINE_MIN).
    `handled` is the set of opcodes an outlined body may use (the speculatable ones),
    `lift_run` the lifter's instruction loop."""
    plan = cfg.inlining
    if plan is None:
        return {}
    code = {ins.address: ins for ins in fn.instructions}
    found: dict[int, Outlined] = {}
    calls = call_sites(fn)
    copies = sum(
        n * plan.costs[t] for t, n in calls.items() if t in plan.bodies and n >= OUTLINE_SITES
    )
    if copies < outline_min(len(fn.instructions)):
        return found
    for target, sites in sorted(calls.items()):
        body = plan.bodies.get(target)
        if (
            body is None or sites < OUTLINE_SITES or plan.costs[target] != len(body)
        ):  # nested: inline
            continue
        if not outlinable(fn, body, handled):
            continue
        name = f"{fn.name}.sub.{target:x}"
        sub = Emitter(e.target, e.layout, constants=e.constants)
        copy = replace(cfg, prefix="", returns_to="ret", inlining=None)
        sub.body.append("body:")
        errors = lift_run([code[a] for a in body], copy, sub)
        text = "\n".join(sub.body)
        if errors or sub.uses_stack or sub.uses_shared or "%param.image" in text or "%exit" in text:
            continue
        found[target] = function_text(name, sub, text)
    return found


def function_text(name: str, sub: Emitter, body: str) -> Outlined:
    regs = tuple(sorted(sub.regs))
    stored = {line.rsplit("%r.", 1)[1] for line in body.splitlines()
              if line.startswith("  store ") and "%r." in line}  # fmt: skip
    written = tuple(r for r in regs if r in stored)
    live = live_in(body, set(written))
    params = tuple(r for r in regs if r in live)
    out = Outlined(name, params, written, "")
    ret = out.struct_type()
    aspace = f", addrspace({sub.target.private_as})" if sub.target.private_as else ""
    lines = [f'define internal {ret} @"{name}"({", ".join(f"{reg_type(r)} %in.{r}" for r in params)}) noinline nounwind willreturn memory(none) {{',
             "entry:"]  # fmt: skip
    for r in regs:
        lines.append(f"  %r.{r} = alloca {reg_type(r)}{aspace}")
        if r in params:
            lines.append(f"  store {reg_type(r)} %in.{r}, {sub.pspace} %r.{r}")
    lines += ["  br label %body", body, "ret:"]
    value = "poison"
    for k, r in enumerate(written):
        v = f"%out.{r}"
        lines.append(f"  {v} = load {reg_type(r)}, {sub.pspace} %r.{r}")
        lines.append(f"  %ret.{k} = insertvalue {ret} {value}, {reg_type(r)} {v}, {k}")
        value = f"%ret.{k}"
    lines += [f"  ret {ret} {value}", "}"]
    return replace(out, text="\n".join(lines) + "\n")


def live_in(body: str, results: set[str]) -> set[str]:
    """Registers whose value at the call matters: read before written on some path, or returned
    without being written on every path (the `ret` block reads every result). Registers a
    subroutine always writes before reading them are not passed in."""
    blocks: dict[str, tuple[set[str], set[str], list[str]]] = {}  # name -> (use, def, successors)
    use: set[str] = set()
    defined: set[str] = set()
    succ: list[str] = []
    for line in body.splitlines():
        if not line.startswith(" ") and line.endswith(":"):
            use, defined, succ = set(), set(), []
            blocks[line[:-1]] = (use, defined, succ)
        elif "%r." in line:
            reg = line.rsplit("%r.", 1)[1]
            if line.startswith("  store "):
                defined.add(reg)
            elif " = load " in line and reg not in defined:
                use.add(reg)
        if "label %" in line:
            succ += [t.split(",")[0].split()[0] for t in line.split("label %")[1:]]
    blocks["ret"] = (set(results), set(), [])
    live: dict[str, set[str]] = {b: set() for b in blocks}
    changed = True
    while changed:
        changed = False
        for b, (use, defined, succ) in reversed(blocks.items()):
            out = set().union(*(live.get(s, set()) for s in succ))
            new = use | (out - defined)
            if new != live[b]:
                live[b], changed = new, True
    return live["body"]
