"""Set-up and health check: install what is missing, then say what this machine can do.

`plan_setup()` lists the steps still needed (Debian packages, PyPI CUDA tools, device-library
folders); `run_setup()` carries them out, idempotently: with everything present it only checks,
in seconds. `check_environment()` is the data behind `cass doctor`.
"""

from __future__ import annotations

import importlib.resources
import importlib.util
import os
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass, field

from cass.runner import rocm_api_headers, rocm_libs, toolchain
from cass.runner.diagnostics import CassError, WorkError
from cass.runner.tools import run_tool

APT_TIMEOUT_S = 1800
PIP_TIMEOUT_S = 900
SETUP_GFX_ARCHS = (toolchain.DEFAULT_GFX_ARCH,)
# tool -> PyPI package that provides it (only tried where the tool is missing).
PYPI_TOOLS = {
    "cuobjdump": "nvidia-cuda-cuobjdump",
    "nvdisasm": "nvidia-cuda-nvdisasm",
    "nvcc": "nvidia-cuda-nvcc",
}


def debian_packages() -> list[str]:
    """The Debian package list shipped with cass (runner/debian-packages.txt)."""
    text = importlib.resources.files("cass.runner").joinpath("debian-packages.txt").read_text()
    return [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]


def missing_debian_packages(packages: list[str]) -> list[str]:
    """Those of `packages` dpkg does not report installed (all of them where dpkg is absent)."""
    dpkg = shutil.which("dpkg-query")
    if dpkg is None:
        return [p for p in packages]
    run = run_tool(
        [dpkg, "-W", "-f=${Package} ${Status}\n", *packages], "asking dpkg what is installed", 60
    )
    installed = {
        line.split()[0].split(":")[0]
        for line in run.stdout.splitlines()
        if line.endswith("install ok installed")
    }
    return [p for p in packages if p not in installed]


def missing_pypi_packages() -> list[str]:
    return [pkg for tool, pkg in PYPI_TOOLS.items() if not toolchain.find_tool(tool).found]


@dataclass(frozen=True)
class SetupStep:
    """One thing set-up still has to do: a description and the command that does it."""

    what: str
    argv: tuple[str, ...] = ()
    timeout_s: float = 600
    env: dict[str, str] = field(default_factory=dict)
    rocm_libs: str = ""  # install rocPRIM/hipCUB/rocThrust from this archive, folder or URL
    rocm_api_headers: str = ""  # install the hipBLAS/hipFFT/hipSOLVER headers from this source


def _apt_steps(missing: list[str]) -> list[SetupStep]:
    if not missing:
        return []
    sudo = () if os.geteuid() == 0 else ("sudo", "-n")
    env = {"DEBIAN_FRONTEND": "noninteractive"}
    install = (*sudo, "apt-get", "install", "-y", *missing)
    return [
        SetupStep(
            "refresh the Debian package lists", (*sudo, "apt-get", "update"), APT_TIMEOUT_S, env
        ),
        SetupStep(f"install Debian packages: {' '.join(missing)}", install, APT_TIMEOUT_S, env),
    ]


def plan_setup(rocm_libs_source: str = "", api_headers_source: str = "") -> list[SetupStep]:
    """Every step still needed on this machine, in the order they must run.

    `rocm_libs_source` (else `$CASS_ROCM_LIBS`) names where rocPRIM, hipCUB and rocThrust come
    from; they are installed when not installed from there yet. Without one, nothing changes.
    """
    steps = _apt_steps(missing_debian_packages(debian_packages()))
    pypi = missing_pypi_packages()
    if pypi:
        pip = (sys.executable, "-m", "pip", "install", "-q", *pypi)
        steps.append(SetupStep(f"install PyPI CUDA tools: {' '.join(pypi)}", pip, PIP_TIMEOUT_S))
    for arch in SETUP_GFX_ARCHS:
        steps.append(SetupStep(f"device-library folder for {arch}"))
    source = rocm_libs_source or rocm_libs.configured_source()
    if rocm_libs.needs_install(source):
        what = f"install rocPRIM, hipCUB and rocThrust from {source}"
        steps.append(SetupStep(what, rocm_libs=source))
    headers = api_headers_source or rocm_api_headers.configured_source()
    if rocm_api_headers.needs_install(headers):
        what = f"install the hipBLAS, hipFFT and hipSOLVER headers from {headers}"
        steps.append(SetupStep(what, rocm_api_headers=headers))
    return steps


def run_step(step: SetupStep) -> str:
    """Carry out one step; returns a short detail line, raises WorkError on failure."""
    if step.rocm_libs:
        rocm_libs.install(step.rocm_libs)
        return rocm_libs.describe()[1]
    if step.rocm_api_headers:
        rocm_api_headers.install(step.rocm_api_headers)
        return rocm_api_headers.describe()[1]
    if not step.argv:
        arch = step.what.rsplit(" ", 1)[-1]
        return str(toolchain.hip_device_lib_dir(arch))
    if step.argv[0] == "sudo" and shutil.which("sudo") is None:
        raise WorkError(f"not root and no sudo: run as root: {' '.join(step.argv[2:])}")
    run = run_tool(step.argv, step.what, step.timeout_s, env={**os.environ, **step.env})
    if not run.ok:
        tail = " / ".join((run.stderr or run.stdout).strip().splitlines()[-5:])
        raise WorkError(f"{step.what} failed: {tail}\n  command: {' '.join(step.argv)}")
    toolchain.forget_tools()
    return "done"


def run_setup(
    report: Callable[[SetupStep, str], None] = lambda step, detail: None,
    rocm_libs_source: str = "",
    api_headers_source: str = "",
) -> list[SetupStep]:
    """Plan, then run every step (reporting each); returns the steps that ran."""
    steps = plan_setup(rocm_libs_source, api_headers_source)
    for step in steps:
        report(step, run_step(step))
    return steps


# ---------------------------------------------------------------- doctor


@dataclass(frozen=True)
class Backend:
    name: str
    available: bool
    reason: str


@dataclass
class Environment:
    tools: list[toolchain.Tool | toolchain.MissingTool]
    gpus: list[toolchain.Gpu]
    backends: list[Backend]
    missing_core: list[str]
    device_libs: str  # the gfx1100 folder, or why it cannot be built
    rocm_libs: str = ""  # rocPRIM/hipCUB/rocThrust versions and folder, or how to install them
    rocm_libs_found: bool = False
    api_headers: str = ""  # hipBLAS/hipFFT/hipSOLVER header versions and folder, or how to install
    api_headers_found: bool = False

    @property
    def core_complete(self) -> bool:
        return not self.missing_core


def _device_libs_state() -> tuple[bool, str]:
    try:
        return True, str(toolchain.hip_device_lib_dir(toolchain.DEFAULT_GFX_ARCH))
    except CassError as exc:
        return False, exc.message


def _backends(found: set[str], gpus: list[toolchain.Gpu], libs_ok: bool) -> list[Backend]:
    nvidia = [g for g in gpus if g.vendor == "nvidia"]
    amd = [g for g in gpus if g.vendor == "amd"]
    amd_stack = {"clang++-16", "ld.lld-16", "clang-offload-bundler"} <= found and libs_ok
    emulator = importlib.util.find_spec("cass.runner.emulator") is not None
    return [
        Backend(
            "nvidia",
            "nvcc" in found and bool(nvidia),
            f"{nvidia[0].name} ({nvidia[0].arch})" if nvidia else "needs an NVIDIA GPU and nvcc",
        ),
        Backend(
            "rocm",
            amd_stack and bool(amd),
            f"{amd[0].name} ({amd[0].arch})" if amd else "needs an AMD GPU (none found)",
        ),
        Backend(
            "emulator",
            amd_stack and emulator,
            "clang-16 for gfx1100 + the cass RDNA3 emulator"
            if amd_stack and emulator
            else "needs clang-16, lld-16, clang-tools-16, device libraries, cass.runner.emulator",
        ),
        Backend("recorded", True, "reference outputs recorded earlier on NVIDIA hardware"),
    ]


def check_environment() -> Environment:
    """Every tool, GPU and verification backend of this machine."""
    tools = toolchain.all_tools()
    found = {t.name for t in tools if t.found}
    libs_ok, libs = _device_libs_state() if "llvm-as-16" in found else (False, "needs llvm-as-16")
    missing = [name for name in toolchain.CORE_TOOLS if name not in found]
    if not libs_ok:
        missing.append("rocm device libraries")
    gpus = toolchain.detect_gpus()
    found_libs, rocm = rocm_libs.describe()
    backends = _backends(found, gpus, libs_ok)
    found_headers, headers = rocm_api_headers.describe()
    return Environment(
        tools, gpus, backends, missing, libs, rocm, found_libs, headers, found_headers
    )
