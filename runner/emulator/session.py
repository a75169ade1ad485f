"""The emulated device of one process: loaded code objects, kernel launches, the device clock,
statistics and fault reports (one stable `key=value` line on stderr per fault)."""

from __future__ import annotations

import ctypes
import json
import os
import sys
import time
from typing import Any

import numpy as np
from cass.runner.cache import cache_dir
from cass.runner.emulator import codeobject
from cass.runner.emulator import memory as mem
from cass.runner.emulator.device_heap import DeviceHeap
from cass.runner.emulator.hostcall import HostcallBuffer
from cass.runner.emulator.kinds import DEFAULT_ENGINE, Engine, FaultKind
from cass.runner.emulator.launch import (
    DYNAMIC_STACK_BYTES,
    Block,
    Budget,
    Dims,
    batch_size,
    build_kernargs,
    dispatch_packet,
    initial_state,
)
from cass.runner.emulator.machine import Machine
from cass.runner.emulator.oracle import run_compared
from cass.runner.emulator.program import Program
from cass.runner.emulator.races import LdsRaces
from cass.runner.emulator.races import enabled as races_enabled
from cass.runner.emulator.state import Fault
from cass.runner.emulator.stats import EmulatorStats

LDS_LIMIT = 65536
STATS_INTERVAL_S = 0.5  # statistics are written this often while kernels run, and at exit
KEEP_COMPILE_S = 1.0
KEEP_COMPILE_WAIT_S = 30.0  # at most this long: a huge kernel may take minutes
KEEP_COMPILE_SHARE = 0.25  # and at most this share of the emulation: the cache is for later
LDS_GRANULE = 512
STATUS_OK, STATUS_ERROR, STATUS_FAULT = 0, 1, 2
_KINDS = {1: "hipMalloc", 2: "hipHostMalloc", 3: "hipMallocManaged", 4: "hipHostRegister"}


def host_allocations() -> list[mem.Region]:
    """Allocations made through the cass HIP runtime (empty when it is not loaded)."""
    try:
        lib = ctypes.CDLL(None)
        count = lib.cass_rt_allocation_count()
    except AttributeError:
        return []
    out = []
    base, size = ctypes.c_uint64(), ctypes.c_uint64()
    kind, serial = ctypes.c_int(), ctypes.c_int()
    for i in range(count):
        if lib.cass_rt_allocation_get(
            i, ctypes.byref(base), ctypes.byref(size), ctypes.byref(kind), ctypes.byref(serial)
        ):
            label = f"{_KINDS.get(kind.value, 'allocation')} #{serial.value}"
            out.append(mem.Region(base.value, size.value, label))
    return out


M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # mallopt parameters (glibc malloc.h)


def keep_freed_memory() -> None:
    """Let glibc reuse freed lane arrays instead of unmapping them: every instruction of a large
    launch allocates a few arrays of megabytes, and mapping them afresh costs a page fault per
    4 KiB (in a VM several times the arithmetic itself)."""
    try:
        libc = ctypes.CDLL(None)
        libc.mallopt(M_MMAP_THRESHOLD, 32 << 20)  # glibc's largest allowed threshold
        libc.mallopt(M_TRIM_THRESHOLD, 1 << 30)
    except (AttributeError, OSError):  # not glibc: allocation stays as it is
        pass


class Device:
    def __init__(self) -> None:
        keep_freed_memory()
        self.modules: list[tuple[codeobject.CodeObject, Program]] = []
        self.extra_regions: list[mem.Region] = []
        self.heap = DeviceHeap()  # device malloc; outlives launches
        self.stats = EmulatorStats()
        self.trace = os.environ.get("CASS_EMULATOR_TRACE") or None
        self.kernel_timeout = float(os.environ.get("CASS_EMULATOR_KERNEL_TIMEOUT_S", "300"))
        self._saved_at = -STATS_INTERVAL_S  # monotonic time the statistics were last written
        self._launch_started = time.perf_counter()
        self.engine = engine_from_env()
        self.check_races = races_enabled()  # CASS_EMULATOR_RACE_CHECK
        if self.check_races and self.engine == Engine.BOTH:  # `both` reruns batches
            print("cass emulator: CASS_EMULATOR_RACE_CHECK is ignored under the both engine "
                  "(use interp or jit)", file=sys.stderr)  # fmt: skip
        self.stats.engine = str(self.engine)
        self._jits: dict[int, Any] = {}

    # --- modules -----------------------------------------------------------------------------
    def load(self, image: bytes) -> int:
        co = codeobject.load(image)
        program = Program(co, cache_dir())
        self.modules.append((co, program))
        self.jit(program)  # its kernels found; each is translated when its launch begins
        return len(self.modules) - 1

    def symbol(self, module: int, name: str) -> tuple[int, int] | None:
        return self.modules[module][0].symbol_address(name)

    def kernel(self, module: int, name: str):
        kernels = self.modules[module][0].kernels
        if name not in kernels and name.startswith("_ZL"):  # static: clang's host registers
            return kernels.get("_Z" + name[3:])  # `_ZL..`, nvcc's cubin (so a lift of it) `_Z..`
        return kernels.get(name)

    def register(self, address: int, size: int, label: str) -> None:
        self.extra_regions.append(mem.Region(address, size, label))

    def jit(self, program: Program):
        """The translated code of `program` (made on first use), or None for the interpreter.
        Under `both` every launch waits for it; under `jit` a library in the cache is used at
        once, else kernels run interpreted until they are hot (jit.kernels.hot_threshold) and the
        background compile is done."""
        if self.engine == Engine.INTERP:
            return None
        key = id(program)
        if key not in self._jits:
            from cass.runner.emulator.jit.engine import JitEngine

            # CASS_EMULATOR_JIT_WAIT=1: compile before the first launch (sweeps that must test
            # the translated code even in short programs)
            background = self.engine == Engine.JIT and not os.environ.get("CASS_EMULATOR_JIT_WAIT")
            self._jits[key] = JitEngine(program, background=background)
        engine = self._jits[key]
        errors = engine.errors
        for error in errors[engine.reported :]:
            print(f"cass emulator: kernels run interpreted: {error}", file=sys.stderr)
        engine.reported = len(errors)
        return engine

    def _jit_times(self, stats: EmulatorStats) -> None:
        stats.translate_s = sum(e.translate_s for e in self._jits.values())
        stats.compile_s = sum(e.compile_s for e in self._jits.values())
        stats.cold_code_objects = sum(not e.started for e in self._jits.values())

    # --- launches ----------------------------------------------------------------------------
    def launch(
        self,
        module: int,
        name: str,
        grid,
        block,
        shmem: int,
        args_ptr: int = 0,
        blob: bytes | None = None,
    ) -> int:
        co, program = self.modules[module]
        kernel = self.kernel(module, name)
        if kernel is None:
            print(f"cass emulator: kernel {name} is not in the code object", file=sys.stderr)
            return STATUS_ERROR
        dims = Dims(tuple(grid), tuple(block))
        jit = self.jit(program)
        if jit is not None:  # loads (or, waiting, builds) its translation: not kernel time
            jit.launch_begins(kernel.entry)  # the interpreter's CPU here makes the kernel hot
        started, cpu_started = time.perf_counter(), time.process_time()
        self.stats.kernel_launches += 1
        self._launch_started = started
        self.save_stats(throttled=True)  # a run stopped mid-kernel still counts this launch
        try:
            self._run(co, program, kernel, dims, shmem, args_ptr, blob)
        except _Reported:
            self.stats.faults += 1
            return STATUS_FAULT
        finally:
            self.stats.emulation_wall_s += time.perf_counter() - started
            self.stats.emulation_cpu_s += time.process_time() - cpu_started
            if jit is not None:
                jit.launch_ends()
        return STATUS_OK

    def _run(self, co, program, kernel, dims, shmem, args_ptr, blob) -> None:
        desc = kernel.descriptor
        lds = max(desc.group_segment_size, int(kernel.meta.get(".group_segment_fixed_size", 0)))
        lds += shmem
        lds_allocated = -(-lds // LDS_GRANULE) * LDS_GRANULE  # hardware allocates 512-byte granules
        private = desc.private_segment_size + (DYNAMIC_STACK_BYTES if desc.enabled(11) else 0)
        per_batch = batch_size(kernel, dims, program)
        if program.uses_grid_sync:  # a grid-wide barrier needs every workgroup resident
            per_batch = dims.groups
        wpg = (dims.threads + 31) // 32
        uses_hostcall = any(a.get(".value_kind") == "hidden_hostcall_buffer" for a in kernel.args)
        hostcall = HostcallBuffer(per_batch * wpg if uses_hostcall else 1, self.heap)
        queue = Block(256, "queue")
        kernarg = build_kernargs(kernel, dims, args_ptr, blob, shmem, hostcall, queue)
        kd_address = co.base + co.symbols.get(kernel.name + ".kd", (0,))[0]
        packet = dispatch_packet(kd_address, kernarg.address, dims, lds, private)
        regions = host_allocations()
        self.stats.peak_device_memory = max(
            self.stats.peak_device_memory, sum(r.size for r in regions)
        )
        regions += self.extra_regions + [
            mem.Region(co.base, co.span, "code object"),
            kernarg.region(),
            packet.region(),
            queue.region(),
            mem.Region(hostcall.address, hostcall.size, "hostcall buffer"),
            mem.Region(self.heap.address, self.heap.size, "device malloc heap"),
        ]
        table = mem.AllocationTable(regions)
        pointers = {
            "dispatch": packet.address,
            "queue": queue.address,
            "kernarg": kernarg.address,
            "private": private,
        }
        budget = Budget(self.kernel_timeout, heartbeat=self._heartbeat)
        compare = self.engine == Engine.BOTH and not uses_hostcall  # host calls run once
        check_races = self.check_races and not compare  # `both` reruns batches: one shadow each
        dependent = False  # a batch's result depended on wave order (oracle.run_compared)
        for first in range(0, dims.groups, per_batch):
            groups = min(per_batch, dims.groups - first)

            def make(first=first, groups=groups) -> Machine:
                batch = Machine(
                    program,
                    kernel,
                    table,
                    groups * wpg,
                    groups,
                    lds_allocated,
                    private,
                    hostcall,
                    budget,
                )
                initial_state(batch, kernel, dims, first, groups, pointers)
                if check_races:
                    batch.races = LdsRaces(groups * wpg, groups, batch.lds_stride)
                return batch

            m = make()
            m.trace = self._trace_filter(kernel.name)
            m.jit = None if m.trace is not None else self.jit(program)
            if compare and m.jit is not None:
                m.jit.wait()
            if lds > LDS_LIMIT:
                self._report(
                    m,
                    kernel,
                    dims,
                    first,
                    wpg,
                    Fault(
                        FaultKind.LDS,
                        f"the launch needs {lds} bytes of LDS per workgroup "
                        f"(static + dynamic); gfx1100 has {LDS_LIMIT}",
                    ),
                )
            try:
                with np.errstate(all="ignore"):
                    if compare and m.jit is not None:
                        if run_compared(m, make, table.regions) and not dependent:
                            dependent = True  # counted once per launch
                            self.stats.count_schedule_dependent(kernel.name)
                        self.stats.compared_launches += first == 0
                    else:
                        m.run()
            except Fault as fault:
                self._account(m)
                self._report_races(m, kernel, dims, first, wpg)
                self._report(m, kernel, dims, first, wpg, fault)
            self._account(m)
            self._report_races(m, kernel, dims, first, wpg)

    def _trace_filter(self, kernel_name: str):
        if not self.trace:
            return None
        name, _, wave = self.trace.partition(":")
        if name not in (kernel_name, "*") and name not in kernel_name:
            return None
        return int(wave) if wave else -1

    def _account(self, m: Machine) -> None:
        if m.jit is not None:
            self.stats.account_jit(m.jit)
        self.stats.instructions += m.wave_instructions
        self.stats.lane_instructions += m.lane_instructions
        # modelled clock: 96 CUs x 2 SIMD32 at 2.5 GHz, one wave instruction per SIMD per cycle
        self.stats.device_time_ns += 2000.0 + m.wave_instructions / 192 / 2.5
        m.wave_instructions = m.lane_instructions = 0

    def _report_races(self, m: Machine, kernel, dims: Dims, first: int, wpg: int) -> None:
        """The batch's first LDS race, printed, and its conflicts counted (emulator.races)."""
        if m.races is None or not m.races.report[0]:
            return
        wave = int(m.races.report[1])
        gx, gy, gz = (int(v) for v in dims.group_xyz(np.array(first + int(m.wave_wg[wave]))))
        print(m.races.line(kernel.name, f"({gx},{gy},{gz})", wpg), file=sys.stderr, flush=True)
        self.stats.count_lds_races(kernel.name, int(m.races.report[0]))
        m.races.report[:] = 0

    def _report(self, m: Machine, kernel, dims: Dims, first: int, wpg: int, fault: Fault):
        raise _Reported(print_fault(m, kernel, dims, first, wpg, fault, m.table))

    def _heartbeat(self, m: Machine) -> None:
        """During a long kernel: the statistics so far, with its instructions, at most once per
        STATS_INTERVAL_S (the runner reads them if it has to stop the program)."""
        if time.monotonic() - self._saved_at < STATS_INTERVAL_S:
            return
        running = EmulatorStats(**vars(self.stats))
        running.instructions += m.wave_instructions
        running.lane_instructions += m.lane_instructions
        running.emulation_wall_s += time.perf_counter() - self._launch_started
        self.save_stats(running)

    def save_stats(self, stats: EmulatorStats | None = None, throttled: bool = False) -> None:
        """Write the statistics to $CASS_EMULATOR_STATS (atomically: a reader never sees half)."""
        path = os.environ.get("CASS_EMULATOR_STATS")
        if not path or (throttled and time.monotonic() - self._saved_at < STATS_INTERVAL_S):
            return
        self._saved_at = time.monotonic()
        self._jit_times(stats or self.stats)
        partial = f"{path}.{os.getpid()}.part"
        with open(partial, "w") as fh:
            json.dump((stats or self.stats).as_dict(), fh)
        os.replace(partial, path)

    def finish(self) -> None:
        """At exit: a compile still running is waited for when the kernels were heavy enough
        (KEEP_COMPILE_S of emulation) that the next run should find it cached, for at most
        KEEP_COMPILE_WAIT_S in all and KEEP_COMPILE_SHARE of the emulation (a run never takes
        more than a quarter longer for the next one's sake)."""
        emulation = self.stats.emulation_wall_s
        if emulation >= KEEP_COMPILE_S:
            deadline = time.monotonic() + min(KEEP_COMPILE_WAIT_S, KEEP_COMPILE_SHARE * emulation)
            for engine in self._jits.values():
                engine.wait(max(0.0, deadline - time.monotonic()), every=True)
        for engine in self._jits.values():
            engine.save_usage()
        self.save_stats()


def engine_from_env() -> Engine:
    """CASS_EMULATOR_ENGINE: interp, jit or both (else kinds.DEFAULT_ENGINE); anything else is
    reported once."""
    raw = os.environ.get("CASS_EMULATOR_ENGINE", "") or DEFAULT_ENGINE
    try:
        return Engine(raw)
    except ValueError:
        choices = ", ".join(e.value for e in Engine)
        print(
            f"cass emulator: CASS_EMULATOR_ENGINE={raw!r} is not one of {choices}; "
            "running the interpreter",
            file=sys.stderr,
        )
        return Engine.INTERP


class _Reported(Exception):
    pass


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def print_fault(m: Machine, kernel, dims: Dims, first: int, wpg: int, fault: Fault, table) -> str:
    pc, ins, g = m.current if m.current else (kernel.entry, None, None)
    wave = fault.wave
    if wave is None and g is not None:
        wave = int(m.waves_of(g)[0])
    wave = wave or 0
    wg_linear = first + int(m.wave_wg[wave])
    gx, gy, gz = (int(v) for v in dims.group_xyz(np.array(wg_linear)))
    fields = [
        ("kind", fault.kind),
        ("kernel", kernel.name),
        ("workgroup", f"({gx},{gy},{gz})"),
        ("wave", str(wave % wpg)),
        ("lane", str(fault.lane if fault.lane is not None else "-")),
        ("pc", f"0x{pc:x}"),
        ("function", m.program.co.function_name_at(pc)),
        ("instruction", _quote(ins.text if ins else "?")),
    ]
    if fault.address is not None:
        fields.append(("address", f"0x{fault.address:x}"))
        fields.append(("space", fault.space or "global"))
        if fault.space in ("", "global"):
            fields.append(("nearest", _quote(table.nearest(fault.address))))
    fields.append(("message", _quote(fault.message)))
    line = "cass-emulator: fault " + " ".join(f"{k}={v}" for k, v in fields)
    try:
        ctypes.CDLL(None).cass_rt_flush()
    except AttributeError:
        pass
    print(line, file=sys.stderr, flush=True)
    return line
