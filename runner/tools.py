"""The one way cass runs a tool: found by name through the toolchain's discovery, contained.

    run = run_tool(["llc-16", "-O3", "-"], "compiling the lifted IR", 600, stdin=text, check=True)
    run.stdout, run.exit_code

`argv[0]` is a cass tool name (`TOOL_SPECS`: `llc-16`, `nvcc`, `cuobjdump`, ...: found in PATH,
CUDA's folders or the PyPI wheels), another program on PATH (`git`, `dpkg-query`), or a path.
The run goes through `cass.runner.process.run_limited`: its own process group and session, output
captured to files and capped, the whole process tree killed at the time limit, on Ctrl-C
(`stop_all_runs`) or when the tool exits. Tools are cass's own helpers, not programs under test:
no memory, process or file-size limit and no sandbox, whatever `CASS_RUN_*` says.

Failures are typed: a tool that is not installed is a `CassError` naming the command that installs
it; one that cannot start, runs past its time or output limit, or (with `check`) exits non-zero is
a `ToolError` whose one line says what was being done. Standard library only.
"""

from __future__ import annotations

import functools
import os
import shutil
import site
import sysconfig
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from cass.runner.diagnostics import CassError, WorkError
from cass.runner.limits import RunLimits
from cass.runner.process import run_limited

APT = "apt-get install -y"
PIP = "python -m pip install"
TOOL_OUTPUT_LIMIT = 256 * 2**20  # a flood past this is stopped; real tool output is far smaller
TOOL_LIMITS = RunLimits(
    memory_bytes=None, processes=None, file_bytes=None, cpu_s=None, sandbox=False
)


@dataclass(frozen=True)
class ToolSpec:
    """How to find one tool: executable names to try, extra folders, and the fix when absent."""

    names: tuple[str, ...]
    fix: str
    dirs: tuple[str, ...] = ()
    wheel_bin: bool = False  # also look in site-packages/nvidia/cu13/bin and cu12/bin
    version_args: tuple[str, ...] = ("--version",)


CUDA_DIRS = ("/usr/local/cuda/bin",)

TOOL_SPECS: dict[str, ToolSpec] = {
    "clang++-16": ToolSpec(("clang++-16",), f"{APT} clang-16"),
    "clang-16": ToolSpec(("clang-16",), f"{APT} clang-16"),
    "llc-16": ToolSpec(("llc-16",), f"{APT} llvm-16"),
    "opt-16": ToolSpec(("opt-16",), f"{APT} llvm-16"),
    "llvm-mc-16": ToolSpec(("llvm-mc-16",), f"{APT} llvm-16"),
    "ld.lld-16": ToolSpec(("ld.lld-16",), f"{APT} lld-16"),
    "llvm-objdump-16": ToolSpec(("llvm-objdump-16",), f"{APT} llvm-16"),
    "llvm-readelf-16": ToolSpec(("llvm-readelf-16",), f"{APT} llvm-16"),
    "llvm-as-16": ToolSpec(("llvm-as-16",), f"{APT} llvm-16"),
    "llvm-dis-16": ToolSpec(("llvm-dis-16",), f"{APT} llvm-16"),
    "llvm-link-16": ToolSpec(("llvm-link-16",), f"{APT} llvm-16"),
    "llvm-extract-16": ToolSpec(("llvm-extract-16",), f"{APT} llvm-16"),
    "llvm-split-16": ToolSpec(("llvm-split-16",), f"{APT} llvm-16"),
    "llvm-nm-16": ToolSpec(("llvm-nm-16",), f"{APT} llvm-16"),
    "llvm-cxxfilt-16": ToolSpec(("llvm-cxxfilt-16",), f"{APT} llvm-16"),
    "clang-offload-bundler": ToolSpec(
        ("clang-offload-bundler-16", "clang-offload-bundler"), f"{APT} clang-tools-16"
    ),
    "nvcc": ToolSpec(("nvcc",), f"{PIP} nvidia-cuda-nvcc", CUDA_DIRS, wheel_bin=True),
    "ptxas": ToolSpec(("ptxas",), f"{PIP} nvidia-cuda-nvcc", CUDA_DIRS, wheel_bin=True),
    "cuobjdump": ToolSpec(("cuobjdump",), f"{PIP} nvidia-cuda-cuobjdump", CUDA_DIRS, True),
    "nvdisasm": ToolSpec(("nvdisasm",), f"{PIP} nvidia-cuda-nvdisasm", CUDA_DIRS, True),
    "nvidia-smi": ToolSpec(
        ("nvidia-smi",), "install the NVIDIA driver (only on a machine with an NVIDIA GPU)"
    ),
    "rocminfo": ToolSpec(("rocminfo",), f"{APT} rocminfo", ("/opt/rocm/bin",), version_args=()),
    "hipcc": ToolSpec(("hipcc",), f"{APT} hipcc", ("/opt/rocm/bin",)),
    "hipify-perl": ToolSpec(
        ("hipify-perl",),
        "install ROCm's HIPIFY (not packaged in Debian 12; optional)",
        ("/opt/rocm/bin",),
    ),
}
# clang-offload-bundler is also asked for under its versioned name.
TOOL_ALIASES = {"clang-offload-bundler-16": "clang-offload-bundler"}


class ToolError(WorkError):
    """A tool could not start, ran past its time or output limit, or failed (with `check`)."""


@dataclass(frozen=True)
class ToolRun:
    """How a tool run ended: its exit status and its output (bytes, and decoded as text)."""

    argv: tuple[str, ...]
    exit_code: int
    out: bytes
    err: bytes
    wall_s: float

    @property
    def ok(self) -> bool:
        return self.exit_code == 0

    @property
    def stdout(self) -> str:
        return self.out.decode("utf-8", errors="replace")

    @property
    def stderr(self) -> str:
        return self.err.decode("utf-8", errors="replace")

    def error_tail(self, lines: int = 5, limit: int = 2000) -> str:
        """The last lines of stderr (else stdout), joined with ` | `, for a one-line message."""
        text = (self.stderr.strip() or self.stdout.strip()).splitlines()[-lines:]
        return " | ".join(line.strip() for line in text)[:limit]


# ---------------------------------------------------------------- discovery


def wheel_bin_dirs() -> list[Path]:
    """`nvidia/cu13/bin` and `nvidia/cu12/bin` in every site-packages this Python sees."""
    roots = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    roots.update(site.getsitepackages())
    found = []
    for root in sorted(roots):
        for cuda in ("cu13", "cu12"):
            folder = Path(root) / "nvidia" / cuda / "bin"
            if folder.is_dir():
                found.append(folder)
    return found


def locate(spec: ToolSpec) -> Path | None:
    """Where the tool `spec` describes is installed: PATH first, then its extra folders."""
    for exe in spec.names:
        hit = shutil.which(exe)
        if hit:
            return Path(hit)
    extra = [Path(d) for d in spec.dirs] + (wheel_bin_dirs() if spec.wheel_bin else [])
    for folder in extra:
        for exe in spec.names:
            candidate = folder / exe
            if candidate.is_file() and os.access(candidate, os.X_OK):
                return candidate
    return None


@functools.cache
def resolve(name: str) -> Path:
    """The executable for `name`: a cass tool (TOOL_SPECS), a program on PATH, or a path as
    given. A CassError naming the command that installs it when it is nowhere."""
    if "/" in name:
        path = Path(name)
        if not (path.is_file() and os.access(path, os.X_OK)):
            raise CassError(f"cannot run {name}: no executable file there")
        return path
    spec = TOOL_SPECS.get(TOOL_ALIASES.get(name, name))
    if spec is not None:
        found = locate(spec)
        if found is None:
            raise CassError(f"{name} is not installed: run `{spec.fix}` (or `cass setup`)")
        return found
    hit = shutil.which(name)
    if hit is None:
        raise CassError(f"`{name}` is not installed or not on PATH; install it and try again")
    return Path(hit)


def forget() -> None:
    """Drop resolved paths (after `cass setup` installed something)."""
    resolve.cache_clear()


# ---------------------------------------------------------------- running


def run_tool(
    argv: Sequence[str | Path],
    what: str,
    timeout: float,
    *,
    stdin: str | bytes | None = None,
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
    check: bool = False,
    max_output_bytes: int = TOOL_OUTPUT_LIMIT,
) -> ToolRun:
    """Run a tool contained (see the module docstring). `what` is the subject of every error
    message ("k.cu: nvcc", "assembling k.s"). With `check`, a non-zero exit is a ToolError
    carrying the tail of the tool's output; without it, the caller reads `exit_code`."""
    name = str(argv[0])
    try:
        full = [str(resolve(name)), *map(str, argv[1:])]
    except CassError as exc:
        raise CassError(f"{what}: {exc.message}") from None
    try:
        outcome = run_limited(
            full, cwd=cwd or Path.cwd(), stdin=stdin, env=dict(env) if env is not None else None,
            timeout_s=timeout, max_output_bytes=max_output_bytes, measure=False, limits=TOOL_LIMITS,
        )  # fmt: skip
    except CassError as exc:
        if type(exc) is not CassError:  # RunCancelled and the like keep their type
            raise
        raise ToolError(f"{what}: {exc.message}") from None
    if outcome.timed_out:
        raise ToolError(f"{what} did not finish within {timeout:g} s and was stopped")
    if outcome.output_truncated or outcome.exit_code is None:
        raise ToolError(f"{what} printed more than {max_output_bytes} bytes and was stopped")
    run = ToolRun(tuple(full), outcome.exit_code, outcome.stdout, outcome.stderr, outcome.wall_s)
    if check and not run.ok:
        raise ToolError(f"{what} failed (exit {run.exit_code}): {run.error_tail()}")
    return run


__all__ = [
    "TOOL_SPECS",
    "ToolError",
    "ToolRun",
    "ToolSpec",
    "forget",
    "locate",
    "resolve",
    "run_tool",
    "wheel_bin_dirs",
]
