"""Execution backends, by name; the best available is chosen per side (real hardware first).

| name | side | needs |
| --- | --- | --- |
| nvidia | cuda (reference) | nvcc + a local NVIDIA GPU |
| recorded | cuda (reference) | `SOURCE.cu.recorded.toml` recorded earlier on real NVIDIA hardware |
| rocm | hip (port) | a ROCm install (hipcc) + a local AMD GPU |
| emulator | hip (port) | clang-16 + the cass RDNA3 emulator (any machine) |

Backend modules are imported on first use (the record path needs only the standard library).
"""

from __future__ import annotations

import importlib

from cass.runner.backends.base import Backend, BuildFailed, Unavailable

BACKENDS = {  # name -> (module, class)
    "nvidia": ("cass.runner.backends.nvidia", "NvidiaBackend"),
    "recorded": ("cass.runner.backends.recorded", "RecordedBackend"),
    "rocm": ("cass.runner.backends.rocm", "RocmBackend"),
    "emulator": ("cass.runner.backends.emulator", "EmulatorBackend"),
}
PREFERENCE = {"cuda": ("nvidia", "recorded"), "hip": ("rocm", "emulator")}


def get_backend(name: str) -> Backend:
    if name not in BACKENDS:
        raise Unavailable(f"unknown backend `{name}`: choose from {', '.join(BACKENDS)}")
    module, cls = BACKENDS[name]
    return getattr(importlib.import_module(module), cls)()


def choose_backend(side: str, requested: str | None = None) -> tuple[Backend, list[str]]:
    """The requested backend (checked) or the first available for `side`, and why the ones
    before it were passed over. Unavailable when none can run here."""
    names = (requested,) if requested else PREFERENCE[side]
    passed_over: list[str] = []
    for name in names:
        backend = get_backend(name)
        if backend.side != side:
            raise Unavailable(f"backend `{name}` runs {backend.side} programs, not {side}")
        reason = backend.unavailable()
        if reason is None:
            return backend, passed_over
        passed_over.append(f"{name}: {reason}")
    raise Unavailable(f"no {side} backend can run here: " + "; ".join(passed_over))


__all__ = [
    "BACKENDS",
    "PREFERENCE",
    "Backend",
    "BuildFailed",
    "Unavailable",
    "choose_backend",
    "get_backend",
]
