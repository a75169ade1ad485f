"""The scheduler: runs every resident wave of a batch of workgroups in lock-step, one
instruction at a time for the group of waves sharing the lowest PC (now and then the highest, so
a spinning wave cannot starve the one it waits for); barriers and grid-wide barriers release
here, and a deadlock becomes a fault."""

from __future__ import annotations

import sys
import time
from typing import Any

import numpy as np
from cass.runner.emulator.kinds import FaultKind
from cass.runner.emulator.ops_control import NOOPS
from cass.runner.emulator.program import Program
from cass.runner.emulator.state import EXEC, Fault, Group, WaveState

# no-ops that run back to back as one step; s_code_end (padding after the code) is left alone
IDLE_OPS = frozenset(op for op in NOOPS if op.startswith(("s_waitcnt", "s_delay_alu", "s_nop")))
IDLE_OPS |= NOOPS & {"s_clause", "buffer_gl0_inv", "buffer_gl1_inv", "s_set_inst_prefetch_distance"}
BIG_PC = np.iinfo(np.int64).max
FAIRNESS_PERIOD = 64


class Scheduler:
    """Picks and steps groups of waves; the machine supplies the state and the memory spaces."""

    program: Program
    st: WaveState
    wave_wg: np.ndarray
    wg_count: int
    gws_target: int
    waves_per_group: int
    napping: np.ndarray
    budget: Any
    steps: int
    wave_instructions: int
    lane_instructions: int
    current: tuple | None
    trace: int | None
    _idle: dict[int, tuple[int, int]]
    jit: Any  # a JitEngine when kernels run translated, else None

    def run(self) -> None:
        started, check_every = time.monotonic(), 1024
        follow = None  # (pc, group) when every runnable wave moved on together
        while True:
            if follow is not None:
                pc, prev = follow
                g, everyone = Group(prev.idx, prev.k, prev.full), True
            else:
                picked = self._pick()
                if picked is None:
                    return
                pc, g, everyone = picked
            if self.jit is not None and pc in self.jit.entries and self._native(g):
                follow = None
                self.budget.check(self, started)
                continue
            nxt, flow = self.step(pc, g)
            follow = (nxt, g) if everyone and not flow else None
            self.steps += 1
            if self.steps % check_every == 0:
                self.budget.check(self, started)
                follow = None  # let the fairness rule look again

    def _native(self, g: Group) -> bool:
        """Run group `g` through the translated code (False: the interpreter steps it)."""
        if not self.jit.run_group(self, g):
            return False
        self.steps += 1
        wave = int(self.waves_of(g)[0])  # where a report (a timeout) finds the group now
        pc = int(self.st.PC[wave])
        self.current = (
            pc,
            self.program.instructions.get(pc),
            Group(slice(wave, wave + 1), 1, False),
        )
        if self.st.barrier.any():  # waves that ended may complete a barrier
            self._release_barriers()
        return True

    def _pick(self):
        """The next group: every runnable wave at the lowest PC (now and then the highest)."""
        st = self.st
        while True:
            runnable = st.alive & ~st.barrier & ~st.gws
            if runnable.any():
                awake = runnable & (self.napping <= self.steps)
                if awake.any():  # spinning waves wait while a wave they may wait for runs
                    runnable = awake
                break
            if not st.alive.any():
                return None
            if not self._release_barriers():
                raise Fault(
                    FaultKind.DEADLOCK,
                    "every live wave waits at s_barrier that can never complete",
                    wave=int(np.flatnonzero(st.alive)[0]),
                )
        if self.steps % FAIRNESS_PERIOD == FAIRNESS_PERIOD - 1:
            # fairness: now and then run the furthest-ahead waves, so a wave spinning at a low
            # PC (a lock, a flag) cannot starve the wave it waits for
            pcs = np.where(runnable, st.PC, -1)
            pc = int(pcs.max())
        else:
            pcs = np.where(runnable, st.PC, BIG_PC)
            pc = int(pcs.min())
        sel = pcs == pc
        if sel.all():
            return pc, Group(slice(None), st.W, True), True
        idx = np.flatnonzero(sel)
        return pc, Group(_evenly_spaced(idx), idx.size, False), idx.size == int(runnable.sum())

    def step(self, pc: int, g: Group):
        """Execute one instruction for group `g` (or a run of no-ops: waits, ALU delays, cache
        hints, all counted); returns (next PC, whether it may change control flow)."""
        try:
            ins, handler = self.program.at(pc)
        except Exception as exc:  # a decoder defect: still a located report
            self.current = (pc, None, g)
            raise Fault(FaultKind.INTERNAL, f"emulator error {type(exc).__name__}: {exc}") from exc
        self.current = (pc, ins, g)
        if self.trace is not None:
            self._trace(pc, ins, g)
        count, end = 1, pc + ins.size
        if ins.op in IDLE_OPS and self.trace is None:
            count, end = self._idle_run(pc)
        self.st.PC[g.idx] = end
        if self.jit is not None:
            self.jit.count_interpreted(ins.op, g.k * count)
        self.wave_instructions += g.k * count
        self.lane_instructions += count * int(np.bitwise_count(self.st.S[EXEC, g.idx]).sum())
        try:
            handler(self, g)
        except Fault:
            raise
        except Exception as exc:  # an emulator defect: still a located report, never a crash
            raise Fault(FaultKind.INTERNAL, f"emulator error {type(exc).__name__}: {exc}") from exc
        return end, self.program.flow(pc)

    def _idle_run(self, pc: int) -> tuple[int, int]:
        """(count, next PC) of the consecutive no-op instructions starting at `pc`."""
        known = self._idle.get(pc)
        if known is None:
            count, at, code = 0, pc, self.program.instructions
            while (ins := code.get(at)) is not None and ins.op in IDLE_OPS:
                count, at = count + 1, at + ins.size
            known = self._idle[pc] = (count, at)
        return known

    def _trace(self, pc: int, ins, g: Group) -> None:
        waves = self.waves_of(g)
        if self.trace is not None and self.trace >= 0:
            waves = waves[waves % self.waves_per_group == self.trace]
        if waves.size:
            execs = " ".join(f"{int(self.st.S[EXEC, w]):08x}" for w in waves[:4])
            print(
                f"cass-emulator: trace pc=0x{pc:x} waves={waves.size} exec={execs} {ins.text}",
                file=sys.stderr,
            )

    def _release_barriers(self) -> bool:
        st = self.st
        pending = np.bincount(self.wave_wg[st.alive & ~st.barrier], minlength=self.wg_count)
        release = st.barrier & (pending[self.wave_wg] == 0)
        st.barrier[release] = False
        released = bool(release.any())
        if st.gws.any() and int(st.gws.sum()) >= self.gws_target:
            st.gws[:] = False
            released = True
        return released

    def waves_of(self, g: Group) -> np.ndarray:
        if g.full or isinstance(g.idx, slice):
            return np.arange(self.st.W)[g.idx]
        return g.idx


def _evenly_spaced(idx: np.ndarray):
    """Wave indices as a slice when evenly spaced (one wave per workgroup, a run of waves), so
    register reads and writes are numpy views instead of gathers and scatters."""
    if idx.size == 1:
        return slice(int(idx[0]), int(idx[0]) + 1)
    step = int(idx[1] - idx[0])
    if (idx[1:] - idx[:-1] == step).all():
        return slice(int(idx[0]), int(idx[-1]) + 1, step)
    return idx
