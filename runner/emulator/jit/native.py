"""Compiling a translation with clang++-16 (-O2 -march=native, no floating-point contraction so
results round exactly as the interpreter's), a translation unit per part in parallel, then one
link; caching each kernel's shared library by the hash of its code and of the translator itself,
and loading it in-process with ctypes."""

from __future__ import annotations

import ctypes
import hashlib
import os
import shutil
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from cass.runner.cache import cache_dir
from cass.runner.diagnostics import CassError
from cass.runner.outputs import staged_dir
from cass.runner.tools import run_tool

CXX = "clang++-16"
FLAGS = [
    "-O2",
    "-march=native",
    "-ffp-contract=off",
    "-fno-math-errno",
    "-std=c++20",
    "-fPIC",
    "-pthread",
    "-w",
]
JOBS = int(os.environ.get("CASS_JIT_JOBS", "0")) or (os.cpu_count() or 1)
HERE = Path(__file__).resolve().parent
PRELUDE = HERE.parent / "native" / "jit_prelude.h"
LIBRARY = "kernels.so"


class Ctx(ctypes.Structure):
    """Mirror of `struct Ctx` in native/jit_prelude.h, field by field."""

    _fields_ = [
        ("V", ctypes.c_void_p),
        ("S", ctypes.c_void_p),
        ("SCC", ctypes.c_void_p),
        ("PC", ctypes.c_void_p),
        ("alive", ctypes.c_void_p),
        ("wave_wg", ctypes.c_void_p),
        ("W", ctypes.c_int64),
        ("vgprs", ctypes.c_int64),
        ("bases", ctypes.c_void_p),
        ("limits", ctypes.c_void_p),
        ("regions", ctypes.c_int64),
        ("lds", ctypes.c_void_p),
        ("lds_bytes", ctypes.c_int64),
        ("lds_stride", ctypes.c_int64),
        ("code_base", ctypes.c_uint64),
        ("max_steps", ctypes.c_int64),
        ("threads", ctypes.c_int64),
        ("wave_instructions", ctypes.c_int64),
        ("lane_instructions", ctypes.c_int64),
        ("fault_code", ctypes.c_int64),
        ("fault_wave", ctypes.c_int64),
        ("fault_lane", ctypes.c_int64),
        ("fault_pc", ctypes.c_int64),
        ("fault_address", ctypes.c_uint64),
        ("fault_bytes", ctypes.c_int64),
        ("barrier", ctypes.c_void_p),
        ("wg_count", ctypes.c_int64),
        ("scratch", ctypes.c_void_p),
        ("scratch_stride", ctypes.c_int64),
        ("private_limit", ctypes.c_int64),
    ]


def translator_key() -> str:
    """Hash of everything that decides the generated code: the translator and its prelude (not
    engine.py, which runs the library: changing it keeps the cache)."""
    h = hashlib.sha256(" ".join([CXX, *FLAGS]).encode())
    for path in sorted(p for p in HERE.glob("*.py") if p.name != "engine.py") + [PRELUDE]:
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def library_path(code: bytes) -> Path:
    """Where the library of the code hashed as `code` (engine.code_key) is cached."""
    return cache_dir() / f"jit-{hashlib.sha256(code).hexdigest()[:20]}-{translator_key()}"


def _run(args: list, what: str) -> None:
    run = run_tool([CXX, *args], what, 600)
    if not run.ok:
        tail = run.err.decode("utf-8", "replace").strip().splitlines()[-3:]
        raise CassError(f"{CXX} could not compile the translated kernels: {' | '.join(tail)}")


ABANDONED_S = 3600.0  # a compile's tools stop after 600 s: staging older than this is dead


def remove_abandoned_staging(cache: Path) -> int:
    """Remove the staging folders (`.jit-*`) of compiles whose process was killed before it
    could clean up (SIGKILL, a machine reset): older than ABANDONED_S. Returns how many."""
    removed = 0
    now = time.time()
    for staging in cache.glob(".jit-*"):
        try:
            if staging.is_dir() and now - staging.stat().st_mtime > ABANDONED_S:
                shutil.rmtree(staging, ignore_errors=True)
                removed += 1
        except OSError:
            continue  # another process removed or renamed it first
    return removed


def compile_source(units: list[str], main: str, final: Path) -> Path:
    """The shared library for the parts `units` and the dispatcher `main`, built once into
    `final` (atomic; first one wins): each unit compiled on its own, JOBS at a time."""
    if (final / LIBRARY).exists():
        return final / LIBRARY
    remove_abandoned_staging(final.parent)
    prelude = PRELUDE.read_text()
    with staged_dir(final, replace=False) as out:
        sources = [out / "main.cpp"]
        sources[0].write_text("#define CASS_JIT_MAIN\n" + prelude + main)
        for i, unit in enumerate(units):
            sources.append(out / f"part{i}.cpp")
            sources[-1].write_text(prelude + unit)
        # the largest first, so the last to finish is a small one
        order = sorted(sources, key=lambda p: -p.stat().st_size)
        with ThreadPoolExecutor(max_workers=max(1, min(JOBS, len(order)))) as pool:
            jobs = [
                pool.submit(
                    _run, [*FLAGS, "-c", p, "-o", p.with_suffix(".o")], "translated kernels"
                )
                for p in order
            ]
            for job in jobs:
                job.result()
        objects = [p.with_suffix(".o") for p in sources]
        _run(["-shared", "-pthread", *objects, "-o", out / LIBRARY], "linking translated kernels")
        for p in objects:
            p.unlink()
    return final / LIBRARY


def load(path: Path):
    lib = ctypes.CDLL(str(path))
    fn = lib.cass_jit_run
    fn.argtypes = [ctypes.POINTER(Ctx), ctypes.c_void_p, ctypes.c_int64]
    fn.restype = ctypes.c_int
    return lib, fn
