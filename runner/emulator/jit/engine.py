"""The translated code of one code object, attached to the machines that run its launches: the
scheduler calls `run_group` when a group of waves reaches an entry; the waves run natively (on
worker threads) until each reaches an instruction left to the interpreter, a barrier, the end of
the program or its step budget. A fault inside becomes the interpreter's own fault report.

Each kernel is translated and compiled on its own (its code and the device functions beside it),
and only the kernels that run: a library's code object of hundreds of kernels costs the compiler
only the few a program launches. Translation is tiered: a kernel whose library is in the cache
(by the hash of its code) runs translated from its first launch; any other runs on the
interpreter until it has used `hot_threshold` seconds of CPU there (at least HOT_CPU_S, more for
a large kernel), and only then is translated and compiled (in the background; the interpreter
goes on until the library is loaded). A short program never pays the compiler."""

from __future__ import annotations

import bisect
import functools
import hashlib
import os
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
from cass.runner.diagnostics import CassError
from cass.runner.emulator.jit import native
from cass.runner.emulator.jit.translate import Translation, translate
from cass.runner.emulator.kinds import Access, FaultKind, Space
from cass.runner.emulator.state import Fault, Group

MAX_STEPS = 1 << 16  # wave instructions a wave runs per call before the scheduler looks again
THREADS = int(os.environ.get("CASS_EMULATOR_THREADS", "0")) or (os.cpu_count() or 1)
_KINDS = {1: Access.LOAD, 2: Access.STORE, 3: Access.SCALAR_LOAD, 4: Access.ATOMIC}
FAULT_MISALIGNED = 5
_SCRATCH = {6: Access.LOAD, 7: Access.STORE}
SCRATCH_BYTES = 256 << 20  # a launch's whole private memory, allocated before a native run
# CPU seconds the interpreter spends in a kernel before it is compiled: the larger of HOT_CPU_S
# and what compiling it is expected to cost (clang++-16 -O2 takes 6-12 ms of CPU per
# instruction, benchmarks/bench_jit_compile.py), so the interpreter never runs longer than the
# compile would have cost before compiling (the ski-rental rule: at worst twice the better
# choice in hindsight). CASS_EMULATOR_JIT_HOT_S replaces the whole rule (0: at once).
HOT_CPU_S = 2.0
COMPILE_CPU_PER_INSTRUCTION_S = 0.008
HOT_CHECK_STEPS = 256  # interpreter steps between looks at the CPU clock


def hot_threshold(instructions: int) -> float:
    """CPU seconds of interpretation after which a kernel of `instructions` is compiled."""
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


def kernel_code(program) -> dict[int, dict]:
    """Each kernel's instructions by entry: its function symbol's range (to the next kernel
    where the symbol has no size) and every device function outside all kernels (called
    functions, translated with each kernel that may call them)."""
    instructions = program.instructions
    pcs = sorted(instructions)
    symbols = getattr(program.co, "symbols", {}) or {}
    sized = {v: v + n for v, n, kind in symbols.values() if kind == "STT_FUNC" and n > 0}
    entries = sorted({k.entry for k in program.co.kernels.values()})
    owned: dict[int, list[int]] = {}
    for i, entry in enumerate(entries):
        end = sized.get(entry) or (entries[i + 1] if i + 1 < len(entries) else 1 << 62)
        owned[entry] = pcs[bisect.bisect_left(pcs, entry) : bisect.bisect_left(pcs, end)]
    inside = {pc for own in owned.values() for pc in own}
    shared = {pc: ins for pc, ins in instructions.items() if pc not in inside}
    return {e: {**{pc: instructions[pc] for pc in own}, **shared} for e, own in owned.items()}


def code_key(instructions: dict) -> bytes:
    """What a kernel's library is cached by: its instructions' addresses, encodings and text."""
    h = hashlib.sha256()
    for pc in sorted(instructions):
        ins = instructions[pc]
        h.update(f"{pc}:{ins.words}:{ins.text}\n".encode())
    return h.digest()


class KernelCode:
    """One kernel's translation, library and counters."""

    def __init__(self, entry: int, instructions: dict, hot_s: float | None) -> None:
        self.entry, self.instructions = entry, instructions
        self.hot_s = hot_threshold(len(instructions)) if hot_s is None else hot_s
        self.translation: Translation | None = None
        self.run: Any = None
        self.translate_s = self.compile_s = 0.0
        self.interp_cpu_s = 0.0
        self.error = ""
        self.builder: threading.Thread | None = None

    @functools.cached_property
    def path(self) -> Path:
        """The library's cache folder (hashing the code: only for kernels that launch)."""
        return native.library_path(code_key(self.instructions))

    @property
    def cached(self) -> bool:
        return (self.path / native.LIBRARY).exists()

    def build(self) -> None:
        started = time.perf_counter()
        try:
            self.translation = t = translate(self.instructions, [self.entry])
            self.translate_s = time.perf_counter() - started
            started = time.perf_counter()
            path = native.compile_source(t.units, t.main, self.path)
            self._lib, self.run = native.load(path)
        except (CassError, OSError) as exc:
            self.error = str(exc).splitlines()[0]
        except Exception as exc:  # a translator defect: reported, the interpreter runs on
            self.error = f"translator error {type(exc).__name__}: {exc}"
        self.compile_s = time.perf_counter() - started


class JitEngine:
    """The translated kernels of one code object and their counters."""

    def __init__(self, program, background: bool = True, hot_s: float | None = None) -> None:
        """Nothing is translated until a kernel's launch begins: then a library in the cache is
        loaded at once; otherwise, without `background`, the kernel is translated and compiled
        before it runs; with it, once the interpreter has spent `hot_s` CPU seconds (default:
        `hot_threshold`) in that kernel, in the background (it runs interpreted until loaded)."""
        self.program = program
        self.threads = THREADS
        self.background = background
        self.kernels = {e: KernelCode(e, code, hot_s) for e, code in kernel_code(program).items()}
        self.entries: frozenset[int] = frozenset()  # where the scheduler may call in
        self._run_at: dict[int, Any] = {}  # entry -> the library function that runs from it
        self._lock = threading.Lock()
        self.reported = 0  # errors already told (the session prints each once)
        self.native_instructions = self.warmup = 0
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
        return any(
            k.builder is not None or k.run is not None or k.error for k in self.kernels.values()
        )

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
    def _build(self, k: KernelCode) -> None:
        k.build()
        if k.run is None or k.translation is None:
            return
        with self._lock:  # published whole: the entries last, so a scheduler that sees an
            run_at = dict(self._run_at)  # entry finds its function
            run_at.update(dict.fromkeys(k.translation.entries, k.run))
            self._run_at = run_at
            self.entries = frozenset(run_at)

    def _start(self, k: KernelCode) -> None:
        """Translate and compile `k` in the background (once)."""
        if k.builder is None and k.run is None and not k.error:
            k.builder = threading.Thread(
                target=self._build, args=(k,), name="cass-jit", daemon=True
            )
            k.builder.start()

    def wait(self, timeout: float | None = None, every: bool = False) -> None:
        """Until the current kernel's library (with `every`, or outside a launch: every started
        one) is loaded or failed, or `timeout` seconds in all."""
        todo = [self.current] if self.current is not None and not every else self.kernels.values()
        deadline = None if timeout is None else time.monotonic() + timeout
        for k in todo:
            if k.builder is not None:
                left = None if deadline is None else max(0.0, deadline - time.monotonic())
                k.builder.join(left)

    # --- launches -----------------------------------------------------------------------------
    def launch_begins(self, entry: int | None = None) -> None:
        """A launch of the kernel at `entry` (the first kernel when None) begins: its cached
        library is loaded, or without `background` it is built now, before it runs, or with a
        zero threshold its compile starts."""
        if entry is None:
            entry = min(self.kernels) if self.kernels else -1
        self.current = k = self.kernels.get(entry)
        if k is not None and k.run is None and not k.error and k.builder is None:
            if k.cached or not self.background:
                self._build(k)
            elif k.hot_s <= 0:
                self._start(k)
        self._launch_cpu = time.process_time()

    def launch_ends(self) -> None:
        if self._launch_cpu is not None:
            spent = time.process_time() - self._launch_cpu
            self.interp_cpu_s += spent
            if self.current is not None:
                self.current.interp_cpu_s += spent
            self._launch_cpu = None

    def _hot(self, k: KernelCode) -> bool:
        running = 0.0 if self._launch_cpu is None else time.process_time() - self._launch_cpu
        return k.interp_cpu_s + running >= k.hot_s

    def count_interpreted(self, op: str, n: int) -> None:
        """Wave instructions the interpreter ran: while compiling, or not translated."""
        k = self.current
        if k is None or k.run is not None:
            self.interpreted[op] += n
            return
        self.warmup += n
        self._steps += 1
        if self._steps % HOT_CHECK_STEPS == 0 and k.builder is None and self._hot(k):
            self._start(k)

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
        status = run(c, waves.ctypes.data, waves.size)
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
