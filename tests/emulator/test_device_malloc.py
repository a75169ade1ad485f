"""Device malloc/free: the heap's allocator, and a HIP program calling malloc/free in kernels
(clang-16 + ROCm 5.2 cannot compile ockl's allocator for gfx1100; the emulator build supplies
one over hostcall service 3, see runner/emulator/native/device_lib_overrides.h)."""

from __future__ import annotations

from pathlib import Path

import pytest
from cass.runner.emulator import build_hip_program, run_program
from cass.runner.emulator.device_heap import DeviceHeap

PROGRAM = Path(__file__).parent / "programs" / "device_malloc.hip"


def test_heap_blocks_are_aligned_distinct_and_reused_after_free():
    heap = DeviceHeap(1024)
    a, b = heap.alloc(1), heap.alloc(40)
    assert a % 16 == 0 and b == a + 16 and heap.in_use == 16 + 48
    assert heap.free(a) and not heap.free(a)  # a second free of one block is refused
    assert heap.alloc(16) == a


def test_heap_coalesces_neighbours_and_returns_0_when_full():
    heap = DeviceHeap(256)
    blocks = [heap.alloc(64) for _ in range(4)]
    assert heap.alloc(16) == 0
    for addr in (blocks[1], blocks[3], blocks[2]):
        heap.free(addr)
    assert heap.alloc(192) == blocks[1]


def test_service_slots_allocate_then_free():
    heap = DeviceHeap(256)
    slots = [100, 0, 0, 0, 0, 0, 0, 0]
    heap.serve(slots)
    addr = slots[0]
    assert addr == heap.address and heap.in_use == 112
    heap.serve([0, addr, 0, 0, 0, 0, 0, 0])
    assert heap.in_use == 0


@pytest.mark.toolchain
@pytest.mark.parametrize("level", ["-O0", "-O2"])
def test_kernels_malloc_and_free(tmp_path, level):
    exe = build_hip_program(PROGRAM, tmp_path / "device_malloc", extra_args=[level])
    run = run_program(exe, timeout_s=240)
    assert run.exit_code == 0 and "device_malloc: PASS" in run.stdout, run.stdout + run.stderr
