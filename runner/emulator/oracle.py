"""The interpreter as the oracle of the translated code (`CASS_EMULATOR_ENGINE=both`): each batch
of a launch runs first on the interpreter, then, from the same initial state and the same
memory, on the translated code; registers, LDS, every writable allocation, the instruction
counts and any fault must be identical. Where the code has atomics, wave order legitimately
changes how often a compare-and-swap loop retries (the interpreter runs waves in lock-step,
contending; the translated code one wave at a time), so there only memory and LDS are compared.

When the two differ, the batch runs a third time from the same saved state: on the interpreter
again, but in the translated code's wave order (`JitOrder`: each wave of a group on its own, in
index order, until it reaches a barrier, the end, an instruction left to the interpreter or its
step budget; barriers released between rounds; exactly where `cass_jit_run` stops and resumes a
wave). Same program, same order, two engines: the translated run must equal this one entirely
(registers, counts, LDS, memory, fault), else the launch stops with an `engine-mismatch` fault
naming the first difference; a wrong translation cannot hide behind a race. When it does equal
it, the interpreter itself ended differently in two wave orders: the batch's result depends on
which wave wins a race (a contended compare-and-swap, a label written by several waves), it is
counted `schedule-dependent` and the program goes on from that state (the interpreter's, in the
translated code's order); its own output decides its verdict."""

from __future__ import annotations

import ctypes
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from cass.runner.emulator import memory as mem
from cass.runner.emulator.kinds import FaultKind
from cass.runner.emulator.ops_memory import _ds_kind
from cass.runner.emulator.state import EXEC, Fault, Group

VCC_LO = 106
CHECK_EVERY = 1024  # steps of the interpreter between looks at the kernel's time budget


def _view(region: mem.Region) -> np.ndarray:
    return np.ctypeslib.as_array((ctypes.c_uint8 * region.size).from_address(region.base))


def _writable(regions: list[mem.Region]) -> list[mem.Region]:
    """Every region, the code object's too: it holds the program's __device__ variables."""
    return [r for r in regions if r.size]


def _run(m) -> Fault | None:
    try:
        m.run()
    except Fault as fault:
        return fault
    return None


def _fault_key(m, fault: Fault | None):
    if fault is None:
        return None
    if fault.kind == FaultKind.TIMEOUT:  # where each engine was stopped is its own business
        return (str(fault.kind),)
    pc = m.current[0] if m.current else None
    return (str(fault.kind), pc, fault.wave, fault.lane, fault.address)


CHUNK = 1 << 20  # snapshots keep the chunks of memory that hold anything but zeros


def _chunks(region: mem.Region):
    view = _view(region)
    for off in range(0, region.size, CHUNK):
        yield off, view[off : off + CHUNK]


def _snapshot(spaces: list[mem.Region]) -> list[dict[int, np.ndarray]]:
    """Each region's non-zero chunks, copied: a huge lazily mapped allocation the program barely
    touched costs what it touched (reading an untouched page maps the shared zero page)."""
    return [{off: c.copy() for off, c in _chunks(r) if c.any()} for r in spaces]


def _restore(spaces: list[mem.Region], data: list[dict[int, np.ndarray]]) -> None:
    for r, saved in zip(spaces, data):
        for off, chunk in _chunks(r):
            want = saved.get(off)
            if want is not None:
                chunk[:] = want
            elif chunk.any():  # written since: zero again (untouched zero chunks stay unmapped)
                chunk[:] = 0


def _differ(a, a_fault, b, b_fault, spaces, a_memory, registers: bool) -> str:
    """How finished machine b (memory now) differs from a (memory `a_memory`); '' if not."""
    if _fault_key(a, a_fault) != _fault_key(b, b_fault):
        return f"{_describe(a, a_fault)} vs {_describe(b, b_fault)}"
    if a_fault is not None:  # the same report; the state a fault leaves is not the program's
        return ""  # (the interpreter moves a group's PC past the faulting instruction first)
    return first_difference(a, b, spaces, a_memory, registers=registers)


def run_compared(m, make_reference: Callable[[], Any], regions: list[mem.Region]) -> str:
    """Run machine `m` (translated) after an interpreter run of the same batch; raise the
    translated run's fault, or a mismatch fault when the translated run differs from the
    interpreter's in the same wave order. Returns '' when the two engines agreed at once, else
    how the interpreter differed from itself in two wave orders (schedule-dependent)."""
    spaces = _writable(regions)
    before = _snapshot(spaces)
    reference = make_reference()
    reference.jit = None
    ref_fault = _run(reference)
    after = _snapshot(spaces)
    _restore(spaces, before)
    m.deterministic = True  # one thread: waves in a fixed order that JitOrder repeats
    fault = _run(m)
    registers = not uses_atomics(m)
    if not _differ(reference, ref_fault, m, fault, spaces, after, registers):
        if fault is not None:
            raise fault
        return ""
    translated = _snapshot(spaces)
    _restore(spaces, before)
    ordered = make_reference()
    ordered.jit = JitOrder(m.jit)
    ordered_fault = _run(ordered)
    ordered_after = _snapshot(spaces)
    _restore(spaces, translated)
    if ordered_fault is not None and ordered_fault.kind == FaultKind.TIMEOUT:
        raise Fault(
            FaultKind.TIMEOUT,
            "the engines differ and the interpreter, run again in the translated code's wave "
            "order to tell a race from a wrong translation, ran past the kernel's time budget: "
            "undecided (set CASS_EMULATOR_KERNEL_TIMEOUT_S to allow it longer)",
        )
    difference = _differ(ordered, ordered_fault, m, fault, spaces, ordered_after, True)
    if difference:
        raise Fault(
            FaultKind.MISMATCH,
            "interpreter and translated code differ (the interpreter run in the translated "
            f"code's wave order): {difference}",
        )
    if fault is not None:
        raise fault
    _restore(spaces, after)  # how the interpreter differed from itself, for the report
    dependent = _differ(reference, ref_fault, ordered, ordered_fault, spaces, ordered_after, True)
    _restore(spaces, translated)
    return dependent or "the same state"  # unreachable unless the first comparison was unsound


class JitOrder:
    """Stands in for a JitEngine on an interpreter machine: where the scheduler would run a group
    natively, the interpreter steps its waves in exactly the order `cass_jit_run` runs them
    with one thread (native/jit_prelude.h): wave by wave in index order, each until it reaches
    an instruction left to the interpreter, s_barrier, s_endpgm or (at a taken branch) its step
    budget; then the waves of the group whose barrier completed go again, until none does or
    the call has run its budget."""

    def __init__(self, engine) -> None:
        from cass.runner.emulator.jit.engine import MAX_STEPS

        self.max_steps = MAX_STEPS
        self.started = time.monotonic()  # the kernel's time budget counts from here
        self.stepped = 0
        self.entries = engine.entries
        translation = engine.translation
        self.interpreted = (
            translation.interpreted if translation else frozenset(engine.program.instructions)
        )

    def count_interpreted(self, op: str, n: int) -> None:
        """Interpreted steps are the oracle's own; nothing to count."""

    def run_group(self, m, g: Group) -> bool:
        if m.flush32 or m.flush64:  # as JitEngine.run_group: the interpreter steps the group
            return False
        st, ran = m.st, 0
        budget = self.max_steps * max(int(g.k), 1)
        waves = [int(w) for w in m.waves_of(g)]
        try:
            while waves:
                for w in waves:
                    ran += self._run_wave(m, w)
                waiting = any(st.alive[w] and st.barrier[w] for w in waves)
                if not waiting or ran >= budget:
                    break
                pending = np.bincount(m.wave_wg[st.alive & ~st.barrier], minlength=m.wg_count)
                release = st.barrier & (pending[m.wave_wg] == 0)
                waves = [w for w in waves if release[w]]
                st.barrier[release] = False
        finally:
            g.reset_exec()
        return ran > 0

    def _run_wave(self, m, w: int) -> int:
        """Wave instructions wave `w` ran from its PC (0: it cannot enter here)."""
        st, code = m.st, m.program.instructions
        if int(st.PC[w]) not in self.entries:
            return 0
        one, ran = Group(slice(w, w + 1), 1, False), 0
        while True:
            pc = int(st.PC[w])
            ins = code.get(pc)
            if ins is None or pc in self.interpreted:
                return ran
            if ins.op in ("s_barrier", "s_endpgm"):  # the wave stops; nothing released yet
                m.current = (pc, ins, one)
                m.wave_instructions += 1
                m.lane_instructions += int(st.S[EXEC, w]).bit_count()
                st.PC[w] = pc + ins.size
                if ins.op == "s_barrier":
                    st.barrier[w] = True
                else:
                    st.alive[w] = False
                return ran + 1
            taken = _taken(ins.op, st, w)
            counted = m.wave_instructions
            m.step(pc, one)
            ran += m.wave_instructions - counted
            self.stepped += 1  # not m.steps: the scheduler's fairness counts those
            if self.stepped % CHECK_EVERY == 0:
                m.budget.check(m, self.started)
            if taken and ran >= self.max_steps:
                return ran


_CONDITIONS = {  # the branches the translator handles (translate.BRANCHES): taken when
    "s_branch": lambda scc, vcc, exec_: True,
    "s_cbranch_scc0": lambda scc, vcc, exec_: scc == 0,
    "s_cbranch_scc1": lambda scc, vcc, exec_: scc != 0,
    "s_cbranch_vccz": lambda scc, vcc, exec_: vcc == 0,
    "s_cbranch_vccnz": lambda scc, vcc, exec_: vcc != 0,
    "s_cbranch_execz": lambda scc, vcc, exec_: exec_ == 0,
    "s_cbranch_execnz": lambda scc, vcc, exec_: exec_ != 0,
}


def _taken(op: str, st, w: int) -> bool:
    """Whether branch `op` is taken by wave `w` (False for any other instruction)."""
    condition = _CONDITIONS.get(op)
    if condition is None:
        return False
    return bool(condition(int(st.SCC[w]), int(st.S[VCC_LO, w]), int(st.S[EXEC, w])))


def _describe(m, fault: Fault | None) -> str:
    if fault is None:
        return "no fault"
    pc = f" at pc 0x{m.current[0]:x}" if m.current else ""
    return f"a {fault.kind} fault{pc} ({fault.message})"


def uses_atomics(m) -> bool:
    for ins in m.program.instructions.values():
        if "_atomic_" in ins.op or (
            ins.op.startswith("ds_") and _ds_kind(ins.op)[0].startswith("atomic")
        ):
            return True
    return False


def first_difference(
    a, b, spaces: list[mem.Region], expected: list[dict[int, np.ndarray]], registers: bool = True
) -> str:
    """The first difference between two finished machines (a: the reference) and between the
    memory `expected` after the reference run and the memory now; '' when identical. Without
    `registers`, only LDS and memory."""
    counts = (a.wave_instructions, a.lane_instructions), (b.wave_instructions, b.lane_instructions)
    if registers and counts[0] != counts[1]:
        return f"(wave, lane) instructions {counts[0]} vs {counts[1]}"
    for name in ("V", "S", "SCC", "PC", "alive") if registers else ():
        x, y = getattr(a.st, name), getattr(b.st, name)
        if not np.array_equal(x, y):
            where = tuple(int(i) for i in np.argwhere(x != y)[0])
            return f"{name}{list(where)}: 0x{int(x[where]):x} vs 0x{int(y[where]):x}"
    if not np.array_equal(a.lds, b.lds):
        i = int(np.flatnonzero(a.lds != b.lds)[0])
        return f"LDS byte {i}: 0x{int(a.lds[i]):x} vs 0x{int(b.lds[i]):x}"
    for region, saved in zip(spaces, expected):
        for off, got in _chunks(region):
            want = saved.get(off)
            if want is None:
                if not got.any():
                    continue
                want = np.zeros_like(got)
            if not np.array_equal(got, want):
                i = off + int(np.flatnonzero(got != want)[0])
                return (
                    f"{region.label} byte {i} (0x{region.base + i:x}): "
                    f"0x{int(want[i - off]):x} vs 0x{int(got[i - off]):x}"
                )
    return ""
