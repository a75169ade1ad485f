"""Each kernel's code and its tiers of translated code: which instructions a kernel is (its own
and the device functions beside it), the hash its libraries are cached by, when each tier is
made (the ski-rental thresholds) and the translation and libraries of one kernel."""

from __future__ import annotations

import bisect
import functools
import hashlib
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

from cass.runner.diagnostics import CassError
from cass.runner.emulator.jit import native
from cass.runner.emulator.jit.translate import Translation, translate
from cass.runner.outputs import write_atomic

BASELINE, OPTIMISED = native.BASELINE, native.OPTIMISED
# CPU seconds a kernel runs (interpreted, or as the tier below) before a tier of it is compiled:
# the larger of the tier's floor and what compiling it is expected to cost (clang++-16 takes
# about 1.1 ms of CPU per instruction at -O0, 5-8 ms at -O2, benchmarks/bench_jit_compile.py),
# so a kernel never runs longer than the compile would have cost before compiling (the
# ski-rental rule, per tier: at worst twice the better choice in hindsight).
# CASS_EMULATOR_JIT_HOT_S replaces the rule for every tier (0: at once).
HOT_CPU_S = {BASELINE: 0.5, OPTIMISED: 2.0}
COMPILE_CPU_PER_INSTRUCTION_S = {BASELINE: 0.0015, OPTIMISED: 0.008}
COMPARE_AFTER_CPU_S = 0.25  # CPU of the interpreter and of the baseline before comparing them
# wave instructions a call of the baseline runs before the scheduler looks again (the optimised
# tier may have been loaded meanwhile): the step budget per wave is this over the waves
BASELINE_CALL_INSTRUCTIONS = 1 << 20
USAGE = "cpu_s"
SLOWER = "slower"  # beside a baseline library that ran slower than the interpreter: not loaded  # beside a library below the highest tier: CPU its kernel used in earlier runs
TIERS_ENV = "CASS_EMULATOR_JIT_TIERS"  # "1,2" (default), "2": optimised only, "1": baseline only


def hot_threshold(instructions: int, tier: int = OPTIMISED) -> float:
    """CPU seconds a kernel of `instructions` runs before its `tier` is compiled."""
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
    return max(HOT_CPU_S[tier], instructions * COMPILE_CPU_PER_INSTRUCTION_S[tier])


def tiers() -> tuple[int, ...]:
    """The tiers made, lowest first: CASS_EMULATOR_JIT_TIERS ("1,2", "1" or "2"); anything
    else is reported and both are made."""
    raw = os.environ.get(TIERS_ENV, "").strip()
    words = [w.strip() for w in raw.split(",")] if raw else []
    if all(w in ("1", "2") for w in words) and words:
        return tuple(sorted({int(w) for w in words}))
    if raw:
        print(
            f"cass emulator: {TIERS_ENV}={raw!r} is not a list of tiers (1, 2); making both",
            file=sys.stderr,
        )
    return (BASELINE, OPTIMISED)


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
    """One kernel's translation, its libraries (a tier each) and counters."""

    def __init__(
        self, entry: int, instructions: dict, hot_s: float | None, made: tuple[int, ...]
    ) -> None:
        self.entry, self.instructions = entry, instructions
        self.tiers = made
        n = len(instructions)
        self.hot = {t: hot_threshold(n, t) if hot_s is None else hot_s for t in made}
        self.translation: Translation | None = None
        self.run: Any = None  # the entry function of the highest tier loaded
        self.tier = 0  # that tier (0: none)
        self._libs: list = []  # every library loaded stays loaded (a wave may be inside one)
        self.translate_s = self.compile_s = 0.0
        self.interp_cpu_s = 0.0  # CPU of its launches so far (interpreted or translated)
        # the interpreter's speed while warming up, and the baseline's (wave instructions and
        # CPU seconds): a baseline slower than the interpreter is dropped (uniform code over
        # many waves is the interpreter's best case and -O0 code's worst)
        self.warm_instructions, self.warm_cpu_s = 0, 0.0
        self.base_instructions, self.base_cpu_s = 0, 0.0
        self.dropped = False
        self.error = ""
        self.builders: dict[int, threading.Thread] = {}
        self._translating = threading.Lock()

    @functools.cached_property
    def key(self) -> bytes:
        """The hash of its code (only for kernels that launch)."""
        return code_key(self.instructions)

    def path(self, tier: int) -> Path:
        return native.library_path(self.key, tier)

    def cached_tier(self) -> int:
        """The highest tier in the cache (not a baseline found slower than the interpreter)."""
        return max(
            (
                t
                for t in self.tiers
                if (self.path(t) / native.LIBRARY).exists()
                and not (t == BASELINE and (self.path(t) / SLOWER).exists())
            ),
            default=0,
        )

    def mark_baseline_slower(self) -> None:
        """Remember beside the baseline library that it ran slower than the interpreter."""
        self.dropped = True
        try:
            write_atomic(self.path(BASELINE) / SLOWER, "the interpreter ran this kernel faster\n")
        except (OSError, CassError):
            pass

    def load_usage(self, tier: int) -> None:
        """Loading cached `tier` below the highest: the CPU the kernel used in earlier runs
        counts towards the next tier (a kernel of a second per run is optimised after a few)."""
        try:
            self.interp_cpu_s += float((self.path(tier) / USAGE).read_text())
        except (OSError, ValueError):
            pass

    def save_usage(self) -> None:
        """At exit, below the highest tier: the CPU used so far, for the next run."""
        if 0 < self.tier < max(self.tiers):
            try:
                write_atomic(self.path(self.tier) / USAGE, f"{self.interp_cpu_s:.3f}\n")
            except (OSError, CassError):
                pass  # a cache folder removed meanwhile: the next run counts from zero

    def baseline_is_slower(self) -> bool:
        """Whether the baseline, measured long enough, runs fewer instructions per CPU second
        than the interpreter did."""
        if self.dropped or min(self.base_cpu_s, self.warm_cpu_s) < COMPARE_AFTER_CPU_S:
            return False
        interp = self.warm_instructions / self.warm_cpu_s
        return self.base_instructions / self.base_cpu_s < interp

    def pending(self) -> list[int]:
        """The tiers above the loaded one not yet being made, lowest first."""
        if self.error:
            return []
        return [t for t in self.tiers if t > self.tier and t not in self.builders]

    def build(self, tier: int) -> Any:
        """Translate (once for every tier), compile and load `tier`: its entry function, or
        None with `error` set."""
        try:
            with self._translating:
                if self.translation is None:
                    started = time.perf_counter()
                    self.translation = translate(self.instructions, [self.entry])
                    self.translate_s = time.perf_counter() - started
            t = self.translation
            started = time.perf_counter()
            try:
                path = native.compile_source(t.units, t.main, self.path(tier), tier)
                lib, run = native.load(path)
            finally:
                self.compile_s += time.perf_counter() - started
        except (CassError, OSError) as exc:
            self.error = str(exc).splitlines()[0]
            return None
        except Exception as exc:  # a translator defect: reported, the interpreter runs on
            self.error = f"translator error {type(exc).__name__}: {exc}"
            return None
        self._libs.append(lib)
        return run
