"""The translated code of one code object, attached to the machines that run its launches: the
scheduler calls `run_group` when a group of waves reaches an entry; the waves run natively (on
worker threads) until each reaches an instruction left to the interpreter, a barrier, the end of
the program or its step budget. A fault inside becomes the interpreter's own fault report.

Translation is tiered: a code object whose library is in the cache (by code-object hash) runs
translated from its first launch; any other runs on the interpreter until its kernels have used
`hot_threshold` seconds of CPU there (at least HOT_CPU_S, more for a large code object), and only
then is translated and compiled (in the background; the interpreter goes on until the library is
loaded). A short program never pays the compiler."""

from __future__ import annotations

import os
import sys
import threading
import time
from collections import Counter
from typing import Any

import numpy as np
from cass.runner.diagnostics import CassError
from cass.runner.emulator.jit import native
from cass.runner.emulator.jit.translate import translate
from cass.runner.emulator.kinds import Access, FaultKind, Space
from cass.runner.emulator.state import Fault, Group

MAX_STEPS = 1 << 16  # wave instructions a wave runs per call before the scheduler looks again
THREADS = int(os.environ.get("CASS_EMULATOR_THREADS", "0")) or (os.cpu_count() or 1)
_KINDS = {1: Access.LOAD, 2: Access.STORE, 3: Access.SCALAR_LOAD, 4: Access.ATOMIC}
FAULT_MISALIGNED = 5
_SCRATCH = {6: Access.LOAD, 7: Access.STORE}
SCRATCH_BYTES = 256 << 20  # a launch's whole private memory, allocated before a native run
# CPU seconds the interpreter spends in a code object's kernels before it is compiled: the
# larger of HOT_CPU_S and what compiling it is expected to cost (clang++-16 -O2 takes 6-12 ms of
# CPU per instruction, benchmarks/bench_jit_compile.py), so the interpreter never runs longer
# than the compile would have cost before compiling (the ski-rental rule: at worst twice the
# better choice in hindsight). CASS_EMULATOR_JIT_HOT_S replaces the whole rule (0: at once).
HOT_CPU_S = 2.0
COMPILE_CPU_PER_INSTRUCTION_S = 0.008
HOT_CHECK_STEPS = 256  # interpreter steps between looks at the CPU clock


def hot_threshold(instructions: int) -> float:
    """CPU seconds of interpretation after which a code object of `instructions` is compiled."""
    chosen = os.environ.get("CASS_EMULATOR_JIT_HOT_S", "")
    if chosen:
        try:
            return float(chosen)
        except ValueError:
            print(
                f"cass emulator: CASS_EMULATOR_JIT_HOT_S={chosen!r} is not a number of seconds; "
                "using the default rule",
                file=sys.stderr,
            )
    return max(HOT_CPU_S, instructions * COMPILE_CPU_PER_INSTRUCTION_S)


class JitEngine:
    """Translation, compiled library and counters of one code object."""

    def __init__(self, program, background: bool = True, hot_s: float | None = None) -> None:
        """A library already in the cache is loaded at once. Otherwise, without `background`,
        translate and compile before returning; with it, once the interpreter has spent `hot_s`
        CPU seconds (default: `hot_threshold`) in the code object's kernels, translate and
        compile in the background (kernels run interpreted until the library is loaded)."""
        self.program = program
        self.threads = THREADS
        self.translation: Any = None  # translated when needed: cached, hot, or waited for
        self.translate_s = self.compile_s = 0.0
        self.error, self.reported = "", False
        self.entries: set[int] = set()  # empty until the library is loaded
        self._run: Any = None
        self.native_instructions = self.warmup = 0
        self.interpreted: Counter = Counter()  # op -> wave instructions run by the interpreter
        self.ctx = native.Ctx()
        self._path = native.library_path(program.co.elf)
        self._builder: threading.Thread | None = None
        self.hot_s = hot_threshold(len(program.instructions)) if hot_s is None else hot_s
        self.interp_cpu_s = 0.0  # CPU of the interpreter in this code object's launches so far
        self._launch_cpu: float | None = None  # process CPU clock when the current launch began
        self._steps = 0
        if (self._path / native.LIBRARY).exists() or not background:
            self._build()
        elif self.hot_s <= 0:
            self.start()

    def start(self) -> None:
        """Translate and compile in the background (once)."""
        if self._builder is None and not self.entries and not self.error:
            self._builder = threading.Thread(target=self._build, name="cass-jit", daemon=True)
            self._builder.start()

    @property
    def started(self) -> bool:
        return self._builder is not None or bool(self.entries) or bool(self.error)

    def launch_begins(self) -> None:
        self._launch_cpu = time.process_time()

    def launch_ends(self) -> None:
        if self._launch_cpu is not None:
            self.interp_cpu_s += time.process_time() - self._launch_cpu
            self._launch_cpu = None

    def _hot(self) -> bool:
        running = 0.0 if self._launch_cpu is None else time.process_time() - self._launch_cpu
        return self.interp_cpu_s + running >= self.hot_s

    def _build(self) -> None:
        started = time.perf_counter()
        try:
            entries = [k.entry for k in self.program.co.kernels.values()]
            self.translation = t = translate(self.program.instructions, entries)
            self.translate_s = time.perf_counter() - started
            started = time.perf_counter()
            path = native.compile_source(t.units, t.main, self._path)
            self._lib, self._run = native.load(path)
            self.entries = self.translation.entries  # from now on the scheduler calls in
        except (CassError, OSError) as exc:
            self.error = str(exc).splitlines()[0]
        except Exception as exc:  # a translator defect: reported, the interpreter runs on
            self.error = f"translator error {type(exc).__name__}: {exc}"
        self.compile_s = time.perf_counter() - started

    def count_interpreted(self, op: str, n: int) -> None:
        """Wave instructions the interpreter ran: while compiling, or not translated."""
        if self.entries:
            self.interpreted[op] += n
            return
        self.warmup += n
        self._steps += 1
        if self._steps % HOT_CHECK_STEPS == 0 and self._builder is None and self._hot():
            self.start()

    def wait(self, timeout: float | None = None) -> None:
        """Until the library is loaded (or failed), or `timeout` seconds."""
        if self._builder is not None:
            self._builder.join(timeout)

    def run_group(self, m, g: Group) -> bool:
        """Run group `g` of machine `m` natively from its PC; False when it cannot (denormal
        flushing, which the translated code does not model): the interpreter steps instead."""
        if m.flush32 or m.flush64:
            return False
        st = m.st
        waves = np.ascontiguousarray(m.waves_of(g), np.int64)
        c = self._context(m)
        status = self._run(c, waves.ctypes.data, waves.size)
        if not status and not c.wave_instructions:
            return False  # left at once (scratch beyond the array so far): the interpreter steps
        st.sync_exec(waves)
        g.reset_exec()
        m.wave_instructions += c.wave_instructions
        m.lane_instructions += c.lane_instructions
        self.native_instructions += c.wave_instructions
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
        c.threads = 1 if getattr(m, "deterministic", False) else self.threads
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
