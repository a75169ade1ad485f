"""Compiling a translation with clang++-16 (-O2 -march=native, no floating-point contraction so
results round exactly as the interpreter's), caching the shared library by the hash of the code
object and of the translator itself, and loading it in-process with ctypes."""

from __future__ import annotations

import ctypes
import hashlib
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
    "-shared",
    "-fPIC",
    "-pthread",
    "-w",
]
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
    """Hash of everything that decides the generated code: the translator and its prelude."""
    h = hashlib.sha256(" ".join([CXX, *FLAGS]).encode())
    for path in sorted(HERE.glob("*.py")) + [PRELUDE]:
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def library_path(elf: bytes) -> Path:
    return cache_dir() / f"jit-{hashlib.sha256(elf).hexdigest()[:20]}-{translator_key()}"


def compile_source(source: str, final: Path) -> Path:
    """The shared library for `source`, built once into `final` (atomic; first one wins)."""
    if (final / LIBRARY).exists():
        return final / LIBRARY
    with staged_dir(final, replace=False) as out:
        cpp = out / "kernels.cpp"
        cpp.write_text(PRELUDE.read_text() + source)
        run = run_tool([CXX, *FLAGS, cpp, "-o", out / LIBRARY], "translated kernels", 600)
        if not run.ok:
            tail = run.err.decode("utf-8", "replace").strip().splitlines()[-3:]
            raise CassError(f"{CXX} could not compile the translated kernels: {' | '.join(tail)}")
    return final / LIBRARY


def load(path: Path):
    lib = ctypes.CDLL(str(path))
    fn = lib.cass_jit_run
    fn.argtypes = [ctypes.POINTER(Ctx), ctypes.c_void_p, ctypes.c_int64]
    fn.restype = ctypes.c_int
    return lib, fn
