"""One kernel launch: kernarg layout from the metadata (explicit and hidden arguments), the HSA
dispatch packet, the gfx1100 initial wave state (user/system SGPRs, packed work-item ids,
EXEC), batching of workgroups, and fault reports."""

from __future__ import annotations

import ctypes
import os
import struct
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from cass.runner.emulator import memory as mem
from cass.runner.emulator.codeobject import Kernel
from cass.runner.emulator.hostcall import HostcallBuffer
from cass.runner.emulator.machine import PRIVATE_HI, SHARED_HI, Machine
from cass.runner.emulator.program import Program
from cass.runner.emulator.state import EXEC, U32, Fault

# Waves resident at once: 8192 keeps the register arrays cache-friendly (measured fastest in
# benchmarks/bench_emulator.py); override with CASS_EMULATOR_MAX_WAVES.
MAX_RESIDENT_WAVES = int(os.environ.get("CASS_EMULATOR_MAX_WAVES", "8192"))
VGPR_BUDGET_BYTES = 1 << 30
USER_SGPR_SIZES = ((0, 4), (1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (6, 1))
DYNAMIC_STACK_BYTES = 16384
SCALAR_OVERREAD = 256  # padding after every block for widened scalar loads


@dataclass
class Dims:
    grid: tuple[int, int, int]
    block: tuple[int, int, int]

    @property
    def threads(self) -> int:
        return self.block[0] * self.block[1] * self.block[2]

    @property
    def groups(self) -> int:
        return self.grid[0] * self.grid[1] * self.grid[2]

    @property
    def rank(self) -> int:
        if self.grid[2] > 1 or self.block[2] > 1:
            return 3
        return 2 if self.grid[1] > 1 or self.block[1] > 1 else 1

    def group_xyz(self, linear: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        gx, gy = self.grid[0], self.grid[1]
        return linear % gx, (linear // gx) % gy, linear // (gx * gy)


class Budget:
    """Wall-clock limit per kernel, so an endless loop becomes a fault report; `heartbeat` is
    called on every check (the device writes its running statistics from it)."""

    def __init__(self, seconds: float, heartbeat: Callable[[Machine], None] | None = None) -> None:
        self.seconds = seconds
        self.heartbeat = heartbeat

    def check(self, machine: Machine, started: float) -> None:
        if self.heartbeat is not None:
            self.heartbeat(machine)
        if time.monotonic() - started > self.seconds:
            raise Fault(
                "timeout",
                f"the kernel ran past its time budget of {self.seconds:g} s "
                "(endless loop?); set CASS_EMULATOR_KERNEL_TIMEOUT_S to change it",
            )


class LaunchFault(Exception):
    def __init__(self, report: str) -> None:
        super().__init__(report)
        self.report = report


class Block:
    """Zeroed host memory kept alive for the launch, registered so kernels may touch it."""

    def __init__(self, size: int, label: str, align: int = 64) -> None:
        self.raw = np.zeros(size + align + SCALAR_OVERREAD, np.uint8)
        self.address = (self.raw.ctypes.data + align - 1) & ~(align - 1)
        self.size, self.label = size, label
        self.view = self.raw[self.address - self.raw.ctypes.data :][:size]

    def region(self) -> mem.Region:
        return mem.Region(self.address, self.size, self.label)

    def put(self, offset: int, fmt: str, value) -> None:
        data = struct.pack("<" + fmt, value)
        self.view[offset : offset + len(data)] = np.frombuffer(data, np.uint8)


def build_kernargs(
    kernel: Kernel,
    dims: Dims,
    args_ptr: int,
    blob: bytes | None,
    shmem: int,
    hostcall: HostcallBuffer,
    queue: Block,
) -> Block:
    block = Block(kernel.kernarg_size + 256, "kernarg segment")
    if blob is not None:
        block.view[: len(blob)] = np.frombuffer(blob, np.uint8)
    explicit = 0
    for arg in kernel.args:
        kind, off, size = arg[".value_kind"], int(arg[".offset"]), int(arg[".size"])
        if not kind.startswith("hidden_"):
            if blob is None:
                src = ctypes.c_void_p.from_address(args_ptr + 8 * explicit).value
                block.view[off : off + size] = np.frombuffer(ctypes.string_at(src, size), np.uint8)
            explicit += 1
            continue
        value = _hidden_value(kind, dims, shmem, hostcall, queue)
        fmt = {1: "B", 2: "H", 4: "I", 8: "Q"}.get(size)
        if fmt:
            block.put(off, fmt, value & ((1 << (8 * size)) - 1))
    return block


def _hidden_value(kind: str, dims: Dims, shmem: int, hostcall: HostcallBuffer, queue: Block) -> int:
    axes = {"x": 0, "y": 1, "z": 2}
    if kind.startswith("hidden_block_count_"):
        return dims.grid[axes[kind[-1]]]
    if kind.startswith("hidden_group_size_"):
        return dims.block[axes[kind[-1]]]
    return {
        "hidden_hostcall_buffer": hostcall.address,
        "hidden_grid_dims": dims.rank,
        "hidden_dynamic_lds_size": shmem,
        "hidden_queue_ptr": queue.address,
        "hidden_shared_base": SHARED_HI,
        "hidden_private_base": PRIVATE_HI,
    }.get(kind, 0)


def dispatch_packet(kernel_object: int, kernarg: int, dims: Dims, lds: int, private: int) -> Block:
    pkt = Block(64, "dispatch packet")
    pkt.put(2, "H", dims.rank)
    for i in range(3):
        pkt.put(4 + 2 * i, "H", dims.block[i])
        pkt.put(12 + 4 * i, "I", dims.grid[i] * dims.block[i])
    pkt.put(24, "I", private)
    pkt.put(28, "I", lds)
    pkt.put(32, "Q", kernel_object)
    pkt.put(40, "Q", kernarg)
    return pkt


def initial_state(
    m: Machine, kernel: Kernel, dims: Dims, first_group: int, groups: int, pointers: dict[str, int]
) -> None:
    st, desc = m.st, kernel.descriptor
    wpg = (dims.threads + 31) // 32
    waves = groups * wpg
    m.wave_wg[:waves] = np.repeat(np.arange(groups), wpg)
    st.alive[:waves] = True
    st.PC[:waves] = kernel.entry
    present = np.minimum(dims.threads - np.arange(wpg) * 32, 32)
    exec_pattern = np.where(present >= 32, 0xFFFFFFFF, (1 << present) - 1).astype(U32)
    st.S[EXEC, :waves] = np.tile(exec_pattern, groups)
    st.sync_exec()
    _user_sgprs(st, desc, waves, pointers)
    ids = dims.group_xyz(first_group + np.arange(groups))
    reg = desc.user_sgpr_count
    for enabled, axis in zip(desc.workgroup_id_enabled, ids):
        if enabled:
            st.S[reg, :waves] = np.repeat(axis, wpg)
            reg += 1
    st.V[0, :waves] = np.tile(_packed_ids(dims, wpg, desc.workitem_id_dims), (groups, 1))


def _packed_ids(dims: Dims, wpg: int, dims_on: int) -> np.ndarray:
    """v0 of each wave of one workgroup: x | y << 10 | z << 20 (only enabled components)."""
    tid = np.arange(wpg * 32).reshape(wpg, 32)
    bx, by = dims.block[0], dims.block[1]
    x, y, z = tid % bx, (tid // bx) % by, tid // (bx * by)
    packed = x | ((y << 10) if dims_on >= 2 else 0) | ((z << 20) if dims_on >= 3 else 0)
    return packed.astype(U32)


def _user_sgprs(st, desc, waves: int, pointers: dict[str, int]) -> None:
    values = {
        1: pointers["dispatch"],
        2: pointers["queue"],
        3: pointers["kernarg"],
        4: 0,
        6: pointers["private"],
    }
    reg = 0
    for bit, size in USER_SGPR_SIZES:
        if not desc.enabled(bit):
            continue
        value = values.get(bit, 0)
        for i in range(size):
            st.S[reg + i, :waves] = (value >> (32 * i)) & 0xFFFFFFFF if i < 2 else 0
        reg += size


def batch_size(kernel: Kernel, dims: Dims, program: Program) -> int:
    wpg = (dims.threads + 31) // 32
    nv = max(kernel.vgpr_count, program.max_vgpr + 1)
    by_memory = max(1, VGPR_BUDGET_BYTES // (nv * 128 * wpg))
    return max(1, min(dims.groups, MAX_RESIDENT_WAVES // wpg or 1, by_memory))
