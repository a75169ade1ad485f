"""The lifter's end-to-end tests share one way to build a program: nvcc -> lift -> emulator executable."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest


def _nvcc() -> str | None:
    """nvcc as cass's toolchain discovery finds it (where `cass setup` put it included)."""
    from cass.runner.toolchain import find_tool, has_tool

    return str(find_tool("nvcc").path) if has_tool("nvcc") else None  # type: ignore[union-attr]


def _build_lifted(
    source: Path, arch: str, work: Path, host: Path | None = None, defines: tuple[str, ...] = (),
    patch: Callable[[Path], object] | None = None,
) -> Path:  # fmt: skip
    """nvcc -cubin -> lift -> device code object under `host` (default: the rules engine's port of
    `source`), built for the emulator. `patch(cubin)` rewrites the cubin before the lift."""
    from cass.models.bench.assembly import build_with_device_code
    from cass.models.lift.elfinfo import read_cubin
    from cass.models.lift.inputs import disassemble
    from cass.models.lift.pipeline import lift_sass
    from cass.models.workflow.porting import translate_source

    cubin = work / f"{source.stem}.cubin"
    subprocess.run([_nvcc(), "-cubin", "-O3", f"-arch={arch}", *defines, "-o", str(cubin), str(source)],
                   check=True, timeout=300, capture_output=True)  # fmt: skip
    if patch is not None:
        patch(cubin)
    result = lift_sass(
        disassemble(cubin, None), path=str(cubin), arch=arch, cubin=read_cubin(cubin.read_bytes())
    )
    assert result.ok, [d.render() for d in result.diagnostics]
    assembly = work / "device.s"
    assembly.write_text(result.assembly)
    if host is None:
        host = work / "main.hip"
        host.write_text(translate_source(source, "rules").text)
    return build_with_device_code(host, assembly, work)


@pytest.fixture(scope="session")
def build_lifted() -> Callable[..., Path]:
    """`build_lifted(source, arch, work, host=None, defines=(), patch=None)` -> emulator executable; skips
    the test where nvcc is not installed."""
    if _nvcc() is None:
        pytest.skip("nvcc is not installed")
    return _build_lifted


def _legacy_nvcc() -> str | None:
    """CUDA 11's nvcc from CASS_LEGACY_NVCC (the toolkit folder or nvcc itself), if it runs: the
    last nvcc that compiles texture references (benchmarks/legacy_cuda.sh assembles one)."""
    given = os.environ.get("CASS_LEGACY_NVCC", "")
    path = Path(given) / "bin" / "nvcc" if given and Path(given).is_dir() else Path(given)
    if not given or not path.is_file():
        return None
    version = subprocess.run([str(path), "--version"], capture_output=True, text=True, timeout=60)
    return str(path) if re.search(r"release 11\.", version.stdout) else None


@pytest.fixture(scope="session")
def legacy_nvcc() -> str:
    """CUDA 11's nvcc; skips the test where it is absent (it is not part of `cass setup`)."""
    found = _legacy_nvcc()
    if found is None:
        pytest.skip("CUDA 11's nvcc is not installed (set CASS_LEGACY_NVCC to its toolkit folder; "
                    "benchmarks/legacy_cuda.sh assembles one): texture<> needs CUDA 11")  # fmt: skip
    return found


@pytest.fixture(scope="session")
def benchmark_script() -> Callable[[str], object]:
    """`benchmark_script("port_rodinia")`: benchmarks/<name>.py loaded as a module named `name`
    (registered in sys.modules: the scripts' process pools pickle functions by module name)."""
    root = Path(__file__).resolve().parents[2] / "benchmarks"

    def load(name: str) -> object:
        if name in sys.modules:
            return sys.modules[name]
        spec = importlib.util.spec_from_file_location(name, root / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        return module

    return load
