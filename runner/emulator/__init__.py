"""cass RDNA3 (gfx1100) emulator and HIP host runtime.

Public API: `build_hip_program` compiles a whole HIP program with clang-16 and links it against
the cass HIP runtime (libcasship.so); `run_program` runs it on the emulated GPU and returns an
`EmulatorRun` (stdout, stderr, exit code, time-out flag, statistics).

The names are imported when first used: a program running on the emulator imports this package
for its runtime (`bridge`), which needs neither the compilers nor the process runner.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cass.runner.emulator.build import build_hip_program, runtime_library
    from cass.runner.emulator.faults import parse_fault_line
    from cass.runner.emulator.process import (
        FAULT_EXIT_CODE,
        EmulatorRun,
        EmulatorStats,
        run_program,
    )

_HOME = {
    "build_hip_program": "build",
    "runtime_library": "build",
    "parse_fault_line": "faults",
    "FAULT_EXIT_CODE": "process",
    "EmulatorRun": "process",
    "EmulatorStats": "process",
    "run_program": "process",
}

__all__ = [
    "FAULT_EXIT_CODE",
    "EmulatorRun",
    "EmulatorStats",
    "build_hip_program",
    "parse_fault_line",
    "run_program",
    "runtime_library",
]


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
