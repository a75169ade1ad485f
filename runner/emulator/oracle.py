"""The interpreter as the oracle of the translated code (`CASS_EMULATOR_ENGINE=both`): each batch
of a launch runs first on the interpreter, then, from the same initial state and the same
memory, on the translated code; registers, LDS, every writable allocation, the instruction
counts and any fault must be identical, else the launch stops with an `engine-mismatch` fault
naming the first difference. Where the code has atomics, wave order legitimately changes how
often a compare-and-swap loop retries (the interpreter runs waves in lock-step, contending; the
translated code one wave at a time), so there only memory and LDS are compared."""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from typing import Any

import numpy as np
from cass.runner.emulator import memory as mem
from cass.runner.emulator.kinds import FaultKind
from cass.runner.emulator.ops_memory import _ds_kind
from cass.runner.emulator.state import Fault


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


def run_compared(m, make_reference: Callable[[], Any], regions: list[mem.Region]) -> None:
    """Run machine `m` (translated) after an interpreter run of the same batch; raise the
    translated run's fault, or a mismatch fault when the two runs differ."""
    spaces = _writable(regions)
    before = [_view(r).copy() for r in spaces]
    reference = make_reference()
    reference.jit = None
    ref_fault = _run(reference)
    after = [_view(r).copy() for r in spaces]
    for r, data in zip(spaces, before):
        _view(r)[:] = data
    m.deterministic = True  # one thread: atomics in the interpreter's wave order
    fault = _run(m)
    if _fault_key(reference, ref_fault) != _fault_key(m, fault):
        raise Fault(
            FaultKind.MISMATCH,
            f"the interpreter ended with {_describe(reference, ref_fault)}, the translated "
            f"code with {_describe(m, fault)}",
        )
    if fault is not None:
        raise fault
    difference = first_difference(reference, m, spaces, after, registers=not uses_atomics(m))
    if difference:
        raise Fault(FaultKind.MISMATCH, f"interpreter and translated code differ: {difference}")


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
    a, b, spaces: list[mem.Region], expected: list[np.ndarray], registers: bool = True
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
    for region, want in zip(spaces, expected):
        got = _view(region)
        if not np.array_equal(got, want):
            i = int(np.flatnonzero(got != want)[0])
            return (
                f"{region.label} byte {i} (0x{region.base + i:x}): "
                f"0x{int(want[i]):x} vs 0x{int(got[i]):x}"
            )
    return ""
