"""Memory forms end to end: nvcc compiles mem_kernels.cu to sm_80 and sm_90 cubins, the lifter
translates their SASS to gfx1100, the rules engine ports the host code, and the RDNA3 emulator
runs the program. main() checks each kernel against its own CPU reference and prints `<kernel> ok`.

Covered: LDGSTS (4/8/16 bytes, `.ZFILL` partial source sizes, `!PT` zero fill, predicated
forms) + LDGDEPBAR/DEPBAR, cooperative groups' memcpy_async, generic pointers into the shared,
global and local windows (c[0x0][0x18] on sm_80, SR_SWINHI on sm_90) with generic float
atomics, U8/S16/64/128-bit accesses, local arrays, shared and global atomics (int, u64, float,
double, packed fp16, 64-bit CAS loops, CAS, inc/dec), STRONG (volatile) accesses, `__device__`
variables (zeroed and initialised, read back by name), register-indexed `__constant__` reads,
cooperative grid.sync() (workspace from %envreg1/2; sm_90's `BAR.SYNC Rx, Rx` slow path).
"""

from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"
KERNELS = ["async_copy", "async_partial", "cg_copy", "generic_ptrs", "widths", "atomics", "atomics_wide", "strong",
           "device_vars", "constants", "grid_sync"]  # fmt: skip


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_memory_kernels_match_their_cpu_reference(arch: str, tmp_path: Path, build_lifted) -> None:
    from cass.runner.emulator import run_program

    run = run_program(
        build_lifted(DATA / "mem_kernels.cu", arch, tmp_path, defines=("-DMEM_KERNELS_NVCC",))
    )
    assert run.stdout.splitlines() == [f"{name} ok" for name in KERNELS], run.stdout + run.stderr
    assert run.exit_code == 0
