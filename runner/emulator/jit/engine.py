"""The translated code of one code object, attached to the machines that run its launches: the
scheduler calls `run_group` when a group of waves reaches an entry; the waves run natively (on
worker threads) until each reaches an instruction left to the interpreter, a barrier, the end of
the program or its step budget. A fault inside becomes the interpreter's own fault report.

Each kernel is translated and compiled on its own (its code and the device functions beside it),
and only the kernels that run: a library's code object of hundreds of kernels costs the compiler
only the few a program launches. Translation is tiered, as a baseline and an optimising compiler:
a kernel whose library is in the cache (by the hash of its code) runs translated from its first
launch at the highest tier cached; any other runs on the interpreter until it has used
`hot_threshold` seconds of CPU (at least HOT_CPU_S, more for a large kernel), then its baseline
tier (-O0, cheap to compile) is made in the background while the interpreter goes on; once the
kernel has run as long as the optimised tier (-O2) would cost, that is made too and replaces it.
A baseline measured slower than the interpreter (uniform code over many waves) is dropped and
the optimised tier compiled at once. A short program never pays the compiler; a mid-length one
pays only the cheap one."""

from __future__ import annotations

import os
import threading
import time
from collections import Counter
from typing import Any

import numpy as np
from cass.runner.emulator.jit import native
from cass.runner.emulator.jit.kernels import (
    BASELINE,
    BASELINE_CALL_INSTRUCTIONS,
    OPTIMISED,
    KernelCode,
    kernel_code,
    tiers,
)
from cass.runner.emulator.jit.translate import Translation
from cass.runner.emulator.kinds import Access, FaultKind, Space
from cass.runner.emulator.state import Fault, Group

MAX_STEPS = 1 << 16  # wave instructions a wave runs per call before the scheduler looks again
THREADS = int(os.environ.get("CASS_EMULATOR_THREADS", "0")) or (os.cpu_count() or 1)
_KINDS = {1: Access.LOAD, 2: Access.STORE, 3: Access.SCALAR_LOAD, 4: Access.ATOMIC}
FAULT_MISALIGNED = 5
_SCRATCH = {6: Access.LOAD, 7: Access.STORE}
SCRATCH_BYTES = 256 << 20  # a launch's whole private memory, allocated before a native run
HOT_CHECK_STEPS = 256  # interpreter steps between looks at the CPU clock


class JitEngine:
    """The translated kernels of one code object and their counters."""

    def __init__(self, program, background: bool = True, hot_s: float | None = None) -> None:
        """Nothing is translated until a kernel's launch begins: then a library in the cache is
        loaded at once; otherwise, without `background`, the kernel's highest tier is translated
        and compiled before it runs; with it, each tier once the kernel has spent `hot_s` CPU
        seconds (default: `hot_threshold` of the tier), in the background (the interpreter or
        the tier below runs until it is loaded)."""
        self.program = program
        self.threads = THREADS
        self.background = background
        made = tiers()
        self.kernels = {
            e: KernelCode(e, code, hot_s, made) for e, code in kernel_code(program).items()
        }
        self.entries: frozenset[int] = frozenset()  # where the scheduler may call in
        self._run_at: dict[int, Any] = {}  # entry -> the library function that runs from it
        self._lock = threading.Lock()
        self.reported = 0  # errors already told (the session prints each once)
        self.native_instructions = self.baseline_instructions = self.warmup = 0
        self.interpreted: Counter = Counter()  # op -> wave instructions run by the interpreter
        self.ctx = native.Ctx()
        self.current: KernelCode | None = None  # the kernel of the launch running now
        self.interp_cpu_s = 0.0  # CPU of the interpreter in this code object's launches so far
        self._launch_cpu: float | None = None  # process CPU clock when the current launch began
        self._steps = 0

    # --- what the session and the statistics read ---------------------------------------------
    @property
    def errors(self) -> list[str]:
        return [k.error for k in self.kernels.values() if k.error]

    @property
    def error(self) -> str:
        errors = self.errors
        return errors[0] if errors else ""

    @property
    def started(self) -> bool:
        return any(k.builders or k.run is not None or k.error for k in self.kernels.values())

    @property
    def translate_s(self) -> float:
        return sum(k.translate_s for k in self.kernels.values())

    @property
    def compile_s(self) -> float:
        return sum(k.compile_s for k in self.kernels.values())

    @property
    def translation(self) -> Translation | None:
        """The translated kernels together (None while none is): entries, what was left to the
        interpreter, and every PC outside them as interpreted."""
        untranslated: Counter = Counter()
        translated: set[int] = set()
        count = 0
        for k in self.kernels.values():
            t = k.translation
            if t is not None and k.run is not None:
                untranslated.update(t.untranslated)
                translated |= set(k.instructions) - t.interpreted
                count += t.instructions
        if not count:
            return None
        interpreted = frozenset(self.program.instructions) - translated
        return Translation([], "", set(self.entries), untranslated, count, interpreted)

    # --- building -----------------------------------------------------------------------------
    def _build(self, k: KernelCode, tier: int) -> None:
        run = k.build(tier)
        if run is None or k.translation is None:
            return
        with self._lock:  # published whole: the entries last, so a scheduler that sees an
            # entry finds its function; a lower tier never replaces a higher, nor a dropped one
            if tier <= k.tier or (k.dropped and tier == BASELINE):
                return
            k.run, k.tier = run, tier
            run_at = dict(self._run_at)
            run_at.update(dict.fromkeys(k.translation.entries, run))
            self._run_at = run_at
            self.entries = frozenset(run_at)

    def _start(self, k: KernelCode, tier: int) -> None:
        """Translate and compile `k`'s `tier` in the background (once)."""
        if tier not in k.builders and not k.error:
            k.builders[tier] = builder = threading.Thread(
                target=self._build, args=(k, tier), name=f"cass-jit-t{tier}", daemon=True
            )
            builder.start()

    def wait(self, timeout: float | None = None, every: bool = False) -> None:
        """Until the current kernel's libraries (with `every`, or outside a launch: every
        started one) are loaded or failed, or `timeout` seconds in all."""
        todo = [self.current] if self.current is not None and not every else self.kernels.values()
        deadline = None if timeout is None else time.monotonic() + timeout
        for k in todo:
            for builder in list(k.builders.values()):
                left = None if deadline is None else max(0.0, deadline - time.monotonic())
                builder.join(left)

    # --- launches -----------------------------------------------------------------------------
    def launch_begins(self, entry: int | None = None) -> None:
        """A launch of the kernel at `entry` (the first kernel when None) begins: its highest
        cached tier is loaded; without `background` its highest tier is built now, before it
        runs; with a zero threshold the compiles start."""
        if entry is None:
            entry = min(self.kernels) if self.kernels else -1
        self.current = k = self.kernels.get(entry)
        if k is not None and not k.error:
            cached = k.cached_tier()
            if cached > k.tier:
                self._build(k, cached)
                if k.tier == cached < max(k.tiers):
                    k.load_usage(cached)
            if not self.background and k.tier < max(k.tiers) and not k.error:
                self._build(k, max(k.tiers))
            for tier in k.pending():
                if k.hot[tier] <= 0:
                    self._start(k, tier)
        self._launch_cpu = time.process_time()

    def _drop_baseline(self, k: KernelCode) -> None:
        """The baseline runs `k` slower than the interpreter did: the interpreter takes it back
        and the optimised tier is compiled now (the kernel has run long enough to need it)."""
        with self._lock:
            if k.tier != BASELINE:
                return
            dropped, k.run, k.tier, k.dropped = k.run, None, 0, True
            run_at = {pc: fn for pc, fn in self._run_at.items() if fn is not dropped}
            self._run_at = run_at
            self.entries = frozenset(run_at)
        k.mark_baseline_slower()
        if OPTIMISED in k.pending():
            self._start(k, OPTIMISED)

    def save_usage(self) -> None:
        """At exit: each kernel below its highest tier keeps the CPU it used (next run's start)."""
        for k in self.kernels.values():
            k.save_usage()

    def launch_ends(self) -> None:
        if self._launch_cpu is not None:
            spent = time.process_time() - self._launch_cpu
            self.interp_cpu_s += spent
            if self.current is not None:
                self.current.interp_cpu_s += spent
            self._launch_cpu = None

    def _next_if_hot(self, k: KernelCode) -> None:
        """Start the next tier of `k` once the kernel has run its threshold."""
        pending = k.pending()
        if pending:
            running = 0.0 if self._launch_cpu is None else time.process_time() - self._launch_cpu
            if k.interp_cpu_s + running >= k.hot[pending[0]]:
                self._start(k, pending[0])

    def count_interpreted(self, op: str, n: int) -> None:
        """Wave instructions the interpreter ran: while compiling, or not translated."""
        k = self.current
        if k is None or k.run is not None:
            self.interpreted[op] += n
            return
        self.warmup += n
        k.warm_instructions += n
        self._steps += 1
        if self._steps % HOT_CHECK_STEPS == 0:
            if self._launch_cpu is not None:
                k.warm_cpu_s = k.interp_cpu_s + time.process_time() - self._launch_cpu
            if not k.builders:
                self._next_if_hot(k)

    def run_group(self, m, g: Group) -> bool:
        """Run group `g` of machine `m` natively from its PC; False when it cannot (denormal
        flushing, which the translated code does not model): the interpreter steps instead."""
        if m.flush32 or m.flush64:
            return False
        st = m.st
        waves = np.ascontiguousarray(m.waves_of(g), np.int64)
        run = self._run_at.get(int(st.PC[int(waves[0])]))
        if run is None:
            return False
        c = self._context(m)
        k = self.current
        below = k is not None and k.tier < max(k.tiers)  # a higher tier may replace it
        if below:
            c.max_steps = max(256, min(MAX_STEPS, BASELINE_CALL_INSTRUCTIONS // waves.size))
        baseline = k is not None and k.tier == BASELINE
        cpu = time.process_time() if baseline else 0.0  # its speed is compared, not the others'
        status = run(c, waves.ctypes.data, waves.size)
        if not status and not c.wave_instructions:
            return False  # left at once (scratch beyond the array so far): the interpreter steps
        st.sync_exec(waves)
        g.reset_exec()
        m.wave_instructions += c.wave_instructions
        m.lane_instructions += c.lane_instructions
        self.native_instructions += c.wave_instructions
        if baseline and k is not None:
            self.baseline_instructions += c.wave_instructions
            k.base_instructions += c.wave_instructions
            k.base_cpu_s += time.process_time() - cpu
        if k is not None and below:
            if baseline and k.baseline_is_slower():
                self._drop_baseline(k)
            self._next_if_hot(k)
        if status:
            raise self._fault(m, c)
        return True

    def _context(self, m) -> native.Ctx:
        st, c = m.st, self.ctx
        c.V, c.S, c.SCC, c.PC = (a.ctypes.data for a in (st.V, st.S, st.SCC, st.PC))
        c.alive, c.wave_wg = st.alive.ctypes.data, m.wave_wg.ctypes.data
        c.barrier, c.wg_count = st.barrier.ctypes.data, m.wg_count
        c.W, c.vgprs = st.W, st.V.shape[0]
        table = m.table
        c.bases, c.limits, c.regions = (
            table.bases.ctypes.data,
            table.limits.ctypes.data,
            table.bases.size,
        )
        c.lds, c.lds_bytes, c.lds_stride = m.lds.ctypes.data, m.lds_bytes, m.lds_stride
        c.code_base, c.max_steps = self.program.base, MAX_STEPS
        limit = m.private_limit
        if m.scratch_stride < limit and st.W * 32 * ((limit + 15) & ~15) <= SCRATCH_BYTES:
            m._grow_scratch(limit)  # as the interpreter would, on first touching the top
        c.scratch, c.scratch_stride = m.scratch.ctypes.data, m.scratch_stride
        c.private_limit = limit
        races = m.races  # checked one wave at a time: the shadow is not shared between threads
        c.race_shadow = races.shadow.ctypes.data if races is not None else None
        c.race_barriers = races.barriers.ctypes.data if races is not None else None
        c.race_report = races.report.ctypes.data if races is not None else None
        deterministic = getattr(m, "deterministic", False) or races is not None
        c.threads = 1 if deterministic else self.threads
        c.wave_instructions = c.lane_instructions = c.fault_code = 0
        return c

    def _fault(self, m, c: native.Ctx) -> Fault:
        """The interpreter's report for the first faulting wave (as `_global_index` words it)."""
        pc, wave = int(c.fault_pc), int(c.fault_wave)
        m.current = (pc, self.program.instructions.get(pc), Group(slice(wave, wave + 1), 1, False))
        code = int(c.fault_code)
        if code == FAULT_MISALIGNED:  # a 32-bit global atomic (the only misaligned fault here)
            ins = self.program.instructions.get(pc)
            suffix = ins.op.split("_", 2)[2] if ins is not None else "?"
            return Fault(
                FaultKind.MISALIGNED,
                f"atomic {suffix} at an address not aligned to 4",
                wave=wave,
                lane=int(c.fault_lane),
                address=int(c.fault_address),
                space=Space.GLOBAL,
            )
        if code in _SCRATCH:
            nbytes, off = int(c.fault_bytes), int(c.fault_address)
            return Fault(
                FaultKind.SCRATCH,
                f"private (scratch) {_SCRATCH[code]} of {nbytes} bytes at offset "
                f"{off} beyond the {m.private_limit} bytes per lane",
                wave=wave,
                lane=int(c.fault_lane),
                address=off,
                space=Space.SCRATCH,
            )
        kind = _KINDS.get(code, Access.LOAD)
        return Fault(
            FaultKind.MEMORY,
            f"{kind} of {int(c.fault_bytes)} bytes outside every allocation",
            wave=wave,
            lane=int(c.fault_lane),
            address=int(c.fault_address),
            space=Space.GLOBAL,
        )

    def summary(self) -> dict:
        t = self.translation
        return {
            "translated": t.instructions - sum(t.untranslated.values()) if t else 0,
            "instructions": t.instructions if t else len(self.program.instructions),
            "untranslated_ops": dict(t.untranslated) if t else {},
            "translate_s": self.translate_s,
            "compile_s": self.compile_s,
            "error": self.error,
        }
