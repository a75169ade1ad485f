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
    "cusolverDn.h": "-lcusolver", "cudnn.h": "-lcudnn", "nvrtc.h": "-lnvrtc", "cuda.h": "-lcuda",
}  # fmt: skip
# libraries that ship apart from the toolkit, as NVIDIA's PyPI wheels: -lNAME -> the wheel's package
WHEELS = {"-lcudnn": "nvidia.cudnn"}


def library_link_flags(source: Path) -> list[str]:
    """Link flags for the CUDA math libraries the program includes (nvcc links none by itself)."""
    text = source.read_text(encoding="utf-8", errors="replace")
    included = set(re.findall(r"^\s*#\s*include\s*[<\"]([\w.]+)[>\"]", text, re.MULTILINE))
    flags = sorted({flag for header, flag in LIBRARY_HEADERS.items() if header in included})
    return [arg for flag in flags for arg in wheel_flags(flag)]


def wheel_flags(flag: str) -> list[str]:
    """`-lNAME`, or for a library installed as an NVIDIA wheel (cuDNN: nvidia-cudnn-cu13) the flags
    that find its header and library there, with an rpath (the wheel holds only libNAME.so.N)."""
    root = _wheel_root(WHEELS.get(flag, ""))
    name = flag.removeprefix("-l")
    libs = sorted(root.glob(f"lib/lib{name}.so*"), key=lambda p: len(p.name)) if root else []
    if root is None or not libs:
        return [flag]
    lib_dir = libs[0].parent.resolve()
    link = flag if libs[0].name == f"lib{name}.so" else f"-l:{libs[0].name}"
    return [f"-I{root / 'include'}", f"-L{lib_dir}", "-Xlinker", f"-rpath={lib_dir}", link]


def _wheel_root(package: str) -> Path | None:
    import importlib.util

    try:
        spec = importlib.util.find_spec(package) if package else None
    except ModuleNotFoundError:  # no `nvidia` namespace at all
        return None
    folders = list(spec.submodule_search_locations or []) if spec else []
    return Path(folders[0]) if folders else None


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
