"""Names of the emulator's kinds as enums: memory spaces, kinds of access, kinds of fault and
execution engines. Each is a `StrEnum`, so its members compare equal to (and print as) the
plain words fault reports and handlers have always used."""

from __future__ import annotations

from enum import StrEnum


class Space(StrEnum):
    """An address space a wave's memory instruction may reach."""

    GLOBAL = "global"
    LDS = "lds"
    SCRATCH = "scratch"
    FLAT = "flat"


class Access(StrEnum):
    LOAD = "load"
    STORE = "store"
    ATOMIC = "atomic"
    SCALAR_LOAD = "scalar load"


class FaultKind(StrEnum):
    """The `kind=` of a fault report."""

    MEMORY = "memory"
    LDS = "lds"
    SCRATCH = "scratch"
    MISALIGNED = "misaligned"
    DEADLOCK = "deadlock"
    TIMEOUT = "timeout"
    TRAP = "trap"
    UNSUPPORTED = "unsupported"
    INTERNAL = "internal"
    MISMATCH = "engine-mismatch"


class Engine(StrEnum):
    """How kernels run: the interpreter, the translator to host code (with the interpreter for
    what it does not translate), or both compared launch by launch."""

    INTERP = "interp"
    JIT = "jit"
    BOTH = "both"


# The engine when neither --engine nor CASS_EMULATOR_ENGINE chooses one: translated code, tiered
# (a kernel runs on the interpreter until it is hot; jit.engine). It became the default once every
# bench task ran identically under `both` (benchmarks/results/emulator-jit-sweep.md) and every
# emulator test passed under it.
DEFAULT_ENGINE = Engine.JIT


def other_wave_order(engine: str) -> Engine | None:
    """The engine that runs a workgroup's waves in the other order than `engine` (a value of
    CASS_EMULATOR_ENGINE, '' for the default): the interpreter steps them in lock-step,
    translated code runs each to its next barrier alone; None for `both`, which runs the two."""
    engine = engine or DEFAULT_ENGINE
    if engine == Engine.BOTH:
        return None
    return Engine.JIT if engine == Engine.INTERP else Engine.INTERP


# The GPU the emulator executes: code objects are taken from a bundle for it (the toolchain's
# default target, cass.runner.toolchain.DEFAULT_GFX_ARCH, names the same one).
EMULATED_GFX_ARCH = "gfx1100"
