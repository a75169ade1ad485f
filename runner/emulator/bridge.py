"""Entry points the native HIP runtime (libcasship.so) calls through embedded CPython. Every
argument is a plain int/str; addresses are this process's own pointers."""

from __future__ import annotations

import ctypes
import os
import sys

from cass.runner.emulator import codeobject
from cass.runner.emulator.session import STATUS_ERROR, Device

DEVICE = Device()


def load_fatbin(address: int) -> int:
    return _load(lambda: codeobject.read_bundle_at(address))


def load_image(address: int) -> int:
    return _load(lambda: codeobject.read_bundle_at(address))


def _load(read) -> int:
    try:
        return DEVICE.load(read())
    except codeobject.CodeObjectError as exc:
        print(f"cass emulator: cannot load the GPU code object: {exc}", file=sys.stderr)
        return -1


def launch(
    module: int, name: str, grid, block, shmem: int, args_ptr: int, blob_ptr: int, blob_size: int
) -> int:
    if module < 0:
        return STATUS_ERROR
    blob = ctypes.string_at(blob_ptr, blob_size) if blob_ptr else None
    profile = os.environ.get("CASS_EMULATOR_PROFILE")
    if profile:  # developer aid: cProfile statistics of each launch appended to this file
        import cProfile
        import pstats

        prof = cProfile.Profile()
        status = prof.runcall(DEVICE.launch, module, name, grid, block, shmem, args_ptr, blob)
        with open(profile, "a") as fh:
            pstats.Stats(prof, stream=fh).sort_stats("cumulative").print_stats(40)
        return status
    return DEVICE.launch(module, name, grid, block, shmem, args_ptr, blob)


def symbol(module: int, name: str):
    if module < 0:
        return None
    return DEVICE.symbol(module, name)


def kernel_attributes(module: int, name: str):
    kernel = DEVICE.kernel(module, name) if module >= 0 else None
    if kernel is None:
        return None
    desc = kernel.descriptor
    return (
        desc.group_segment_size,
        desc.private_segment_size,
        kernel.vgpr_count,
        int(kernel.meta.get(".max_flat_workgroup_size", 1024)),
    )


def device_ns() -> float:
    return float(DEVICE.stats.device_time_ns)


def finish() -> None:
    DEVICE.finish()


def rtc_compile(source: bytes, name: bytes, headers, options, expressions):
    """hiprtcCompileProgram: (status, log, code object, lowered name per expression)."""
    from cass.runner.emulator import hiprtc

    def text(b: bytes) -> str:
        return b.decode("utf-8", "replace")

    program = hiprtc.Program(
        text(source),
        text(name) or hiprtc.DEFAULT_NAME,
        tuple((text(n), text(h)) for n, h in headers),
        tuple(map(text, options)),
        tuple(map(text, expressions)),
    )
    done = hiprtc.compile_program(program)
    lowered = [done.lowered.get(e, "").encode() for e in program.name_expressions]
    return done.status, done.log.encode(), done.code, lowered
