"""Backend `nvidia`: nvcc for the local GPU's arch, then the executable runs on that GPU.

Standard library only (it is on the path of `python -m cass.runner.record`).
"""

from __future__ import annotations

import datetime as dt
import os
import platform
import re
from dataclasses import replace
from pathlib import Path

from cass.runner import devmem, toolchain
from cass.runner.backends.base import BuildFailed, repeat_runs, run_measured
from cass.runner.diagnostics import CassError
from cass.runner.results import RunResult
from cass.runner.spec import RunSpec


def nvidia_gpus() -> list[toolchain.Gpu]:
    return [g for g in toolchain.detect_gpus() if g.vendor == "nvidia"]


class NvidiaBackend:
    name = "nvidia"
    side = "cuda"

    def unavailable(self) -> str | None:
        nvcc = toolchain.find_tool("nvcc")
        if isinstance(nvcc, toolchain.MissingTool):
            return f"nvcc is not installed (run `{nvcc.fix}`)"
        if not nvidia_gpus():
            smi = toolchain.find_tool("nvidia-smi")
            why = (
                "nvidia-smi is not installed"
                if isinstance(smi, toolchain.MissingTool)
                else "nvidia-smi lists none"
            )
            return f"no NVIDIA GPU on this machine ({why})"
        return None

    def preflight(self, source: Path, spec: RunSpec) -> None:
        """Nothing to check before building: any source can be compiled and run."""

    def build(self, source: Path, work_dir: Path) -> Path:
        from cass.runner.compile import compile_file

        arch = nvidia_gpus()[0].arch if nvidia_gpus() else None
        try:
            flags = [*shared_cudart_flags(), *library_link_flags(source)]
            result = compile_file(source, ["exe"], arch=arch, out_dir=work_dir, extra_flags=flags)
        except CassError as exc:
            raise BuildFailed(exc.message, tuple(exc.diagnostics)) from None
        return result.artifacts["exe"]

    def run(self, source: Path, artifact: Path, spec: RunSpec) -> RunResult:
        cmd = [str(artifact), *spec.args]
        result = repeat_runs(lambda: run_measured(cmd, spec, self.name), spec)
        return _with_info(result, machine_info())


# a CUDA math library's header -> the nvcc flag that links the library
LIBRARY_HEADERS = {
    "cublas_v2.h": "-lcublas", "cublas.h": "-lcublas", "cublasLt.h": "-lcublasLt",
    "curand.h": "-lcurand", "cufft.h": "-lcufft", "cusparse.h": "-lcusparse",
    "cusolverDn.h": "-lcusolver",
}  # fmt: skip


def library_link_flags(source: Path) -> list[str]:
    """Link flags for the CUDA math libraries the program includes (nvcc links none by itself)."""
    text = source.read_text(encoding="utf-8", errors="replace")
    included = set(re.findall(r"^\s*#\s*include\s*[<\"]([\w.]+)[>\"]", text, re.MULTILINE))
    return sorted({flag for header, flag in LIBRARY_HEADERS.items() if header in included})


def shared_cudart_flags() -> list[str]:
    """Link the CUDA runtime dynamically (so the interposer sees its allocators), with an rpath
    to the toolkit's copy; nothing when the interposer or the shared runtime is missing."""
    nvcc = toolchain.find_tool("nvcc")
    if devmem.interposer() is None or isinstance(nvcc, toolchain.MissingTool):
        return []
    roots = [nvcc.path.resolve().parent.parent, *(Path(d).parent for d in toolchain.CUDA_DIRS)]
    roots += [Path(os.environ[v]) for v in ("CUDA_HOME", "CUDA_PATH") if os.environ.get(v)]
    for root in roots:
        for libdir in (root / "lib64", root / "lib", root / "targets" / "x86_64-linux" / "lib"):
            if any(libdir.glob("libcudart.so*")):
                return ["-cudart", "shared", "-Xlinker", f"-rpath={libdir.resolve()}"]
    return []


def machine_info() -> dict[str, str]:
    """GPU name, compute capability, driver, CUDA version, date, host: what a record states."""
    gpus = nvidia_gpus()
    gpu = gpus[0] if gpus else None
    nvcc = toolchain.find_tool("nvcc")
    return {
        "gpu": gpu.name if gpu else "",
        "compute_capability": _capability(gpu.arch) if gpu else "",
        "driver": gpu.driver if gpu else "",
        "cuda": getattr(nvcc, "version", ""),
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "host": platform.node(),
    }


def _capability(arch: str) -> str:
    digits = arch.removeprefix("sm_")
    return f"{digits[:-1]}.{digits[-1]}" if digits.isdigit() and len(digits) >= 2 else arch


def _with_info(result: RunResult, info: dict[str, str]) -> RunResult:
    return replace(result, info={**info, **result.info})
