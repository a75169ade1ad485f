"""cass RDNA3 (gfx1100) emulator and HIP host runtime.

Public API: `build_hip_program` compiles a whole HIP program with clang-16 and links it against
the cass HIP runtime (libcasship.so); `run_program` runs it on the emulated GPU and returns an
`EmulatorRun` (stdout, stderr, exit code, time-out flag, statistics).
"""

from cass.runner.emulator.build import build_hip_program, runtime_library
from cass.runner.emulator.faults import parse_fault_line
from cass.runner.emulator.process import FAULT_EXIT_CODE, EmulatorRun, EmulatorStats, run_program

__all__ = [
    "FAULT_EXIT_CODE",
    "EmulatorRun",
    "EmulatorStats",
    "build_hip_program",
    "parse_fault_line",
    "run_program",
    "runtime_library",
]
