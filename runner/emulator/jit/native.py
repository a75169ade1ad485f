"""Compiling a translation with clang++-16 (-march=native, no floating-point contraction so
results round exactly as the interpreter's; -O0 for the baseline tier, -O2 for the optimised
one), a translation unit per part in parallel, then one link with the shared entry point;
caching each kernel's library by the hash of its code, of the translator itself and the tier;
loading it in-process with ctypes."""

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
    "-march=native",
    "-ffp-contract=off",
    "-fno-math-errno",
    "-std=c++20",
    "-fPIC",
    "-pthread",
    "-w",
]
# The tiers of translated code (jit.engine decides when each is made): a baseline compiled
# without optimisation (about 1.1 ms of CPU per instruction; its code runs divergent and f64
# kernels up to ten times the interpreter's speed, uniform ones over many waves slower, where
# jit.engine drops it) and the optimised one (5-8 ms per instruction; ten times faster again).
BASELINE, OPTIMISED = 1, 2
TIER_FLAGS = {BASELINE: ["-O0"], OPTIMISED: ["-O2"]}
JOBS = int(os.environ.get("CASS_JIT_JOBS", "0")) or (os.cpu_count() or 1)
HERE = Path(__file__).resolve().parent
PRELUDE = HERE.parent / "native" / "jit_prelude.h"
LIBRARY = "kernels.so"
ENTRY = "entry.o"


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
        ("race_shadow", ctypes.c_void_p),
        ("race_barriers", ctypes.c_void_p),
        ("race_report", ctypes.c_void_p),
    ]


def translator_key() -> str:
    """Hash of everything that decides the generated code: the translator and its prelude (not
    engine.py, which runs the library: changing it keeps the cache)."""
    h = hashlib.sha256(" ".join([CXX, *FLAGS, repr(TIER_FLAGS)]).encode())
    for path in sorted(p for p in HERE.glob("*.py") if p.name != "engine.py") + [PRELUDE]:
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def library_path(code: bytes, tier: int = OPTIMISED) -> Path:
    """Where the `tier` library of the code hashed as `code` (kernels.code_key) is cached."""
    name = f"jit-{hashlib.sha256(code).hexdigest()[:20]}-{translator_key()}-t{tier}"
    return cache_dir() / name


def _run(args: list, what: str) -> None:
    # at a lower priority: on a busy machine the interpreter, which the compile would only
    # speed up later, keeps its core; on an idle one the compile takes the spare core anyway
    run = run_tool(["nice", "-n", "10", CXX, *args], what, 600)
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


def entry_object() -> Path:
    """The object with the entry point every library links (the prelude's CASS_JIT_MAIN part:
    threads and barrier rounds, the same for every kernel), compiled once per translator."""
    final = cache_dir() / f"jit-entry-{translator_key()}"
    if not (final / ENTRY).exists():
        with staged_dir(final, replace=False) as out:
            source = out / "entry.cpp"
            source.write_text("#define CASS_JIT_MAIN\n" + PRELUDE.read_text())
            _run(
                [*TIER_FLAGS[OPTIMISED], *FLAGS, "-c", source, "-o", out / ENTRY],
                "the translated kernels' entry point",
            )
    return final / ENTRY


def compile_source(units: list[str], main: str, final: Path, tier: int = OPTIMISED) -> Path:
    """The shared library for the parts `units` and the dispatcher `main` at `tier`, built once
    into `final` (atomic; first one wins): each unit compiled on its own, JOBS at a time, linked
    with the shared entry point."""
    if (final / LIBRARY).exists():
        return final / LIBRARY
    remove_abandoned_staging(final.parent)
    prelude = PRELUDE.read_text()
    entry = entry_object()
    with staged_dir(final, replace=False) as out:
        sources = [out / "main.cpp"]
        sources[0].write_text(prelude + main)
        for i, unit in enumerate(units):
            sources.append(out / f"part{i}.cpp")
            sources[-1].write_text(prelude + unit)
        # the largest first, so the last to finish is a small one
        order = sorted(sources, key=lambda p: -p.stat().st_size)
        with ThreadPoolExecutor(max_workers=max(1, min(JOBS, len(order)))) as pool:
            jobs = [
                pool.submit(
                    _run,
                    [*TIER_FLAGS[tier], *FLAGS, "-c", p, "-o", p.with_suffix(".o")],
                    "translated kernels",
                )
                for p in order
            ]
            for job in jobs:
                job.result()
        objects = [p.with_suffix(".o") for p in sources]
        _run(
            ["-shared", "-pthread", *objects, entry, "-o", out / LIBRARY],
            "linking translated kernels",
        )
        for p in objects:
            p.unlink()
    return final / LIBRARY


def load(path: Path):
    lib = ctypes.CDLL(str(path))
    fn = lib.cass_jit_run
    fn.argtypes = [ctypes.POINTER(Ctx), ctypes.c_void_p, ctypes.c_int64]
    fn.restype = ctypes.c_int
    return lib, fn
