"""Backend `emulator`: clang-16 builds the HIP port for gfx1100, linked against the cass HIP
runtime, and the cass RDNA3 emulator runs its kernels on the CPU (no AMD GPU needed).

The program runs under the runner's own limits (time, output size, process-tree kill; see
cass.runner.process) with the emulator's environment (`CASS_EMULATOR_STATS`,
`CASS_EMULATOR_PYTHON`, as `cass.runner.emulator.run_program` sets them); the emulator's
statistics give the device-side time and peak device memory.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

from cass.runner import toolchain
from cass.runner.backends.base import BuildFailed, repeat_runs, run_once
from cass.runner.compiler_output import parse_compiler_output
from cass.runner.diagnostics import CassError
from cass.runner.results import RunResult
from cass.runner.spec import RunSpec
from cass.runner.toolchain import DEFAULT_GFX_ARCH

OFFLOAD_ARCH = DEFAULT_GFX_ARCH
FAULT_PREFIX = "cass-emulator: fault "
# A run spec's timeout_s is sized for a GPU; the emulator runs the device code on the CPU and
# gets this multiple of it wherever a port is verified (cass verify, hooks, the editor, the bench).
TIME_SCALE = 5.0


HIP_RUNTIME_HEADER = Path("/usr/include/hip/hip_runtime_api.h")


class EmulatorBackend:
    name = "emulator"
    side = "hip"

    def unavailable(self) -> str | None:
        clang = toolchain.find_tool("clang++-16")
        if isinstance(clang, toolchain.MissingTool):
            return f"clang++-16 is not installed (run `{clang.fix}`)"
        if not HIP_RUNTIME_HEADER.is_file():
            return f"the HIP headers are not installed (no {HIP_RUNTIME_HEADER}; run `cass setup`)"
        try:
            toolchain.hip_device_lib_dir(OFFLOAD_ARCH)
        except CassError as exc:
            return exc.message
        try:
            from cass.runner.emulator import build_hip_program, run_program  # noqa: F401
        except ImportError as exc:
            return f"the cass RDNA3 emulator cannot be imported ({exc})"
        return None

    def preflight(self, source: Path, spec: RunSpec) -> None:
        """Nothing to check before building: any source can be compiled and run."""

    def build(self, source: Path, work_dir: Path) -> Path:
        from cass.runner.emulator import build_hip_program

        exe = work_dir / f"{source.stem}.{OFFLOAD_ARCH}.emu"
        try:
            return Path(build_hip_program(source, exe, offload_arch=OFFLOAD_ARCH))
        except CassError as exc:
            diags = parse_compiler_output(exc.message, "clang", str(source))
            raise BuildFailed(_first_line(exc.message), tuple(diags)) from None

    def run(self, source: Path, artifact: Path, spec: RunSpec) -> RunResult:
        return repeat_runs(lambda: self._run_once(artifact, spec), spec)

    def _run_once(self, exe: Path, spec: RunSpec) -> RunResult:
        with tempfile.TemporaryDirectory(prefix="cass-emu-stats-") as tmp:
            stats_path = Path(tmp) / "stats.json"
            env = {**os.environ, **spec.env_dict, "CASS_EMULATOR_STATS": str(stats_path)}
            env.setdefault("CASS_EMULATOR_PYTHON", sys.executable)
            result = run_once([str(exe.resolve()), *spec.args], spec, self.name, env)
            stats = _read_stats(stats_path)
        return _with_stats(result, stats)


def _read_stats(path: Path) -> dict:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _with_stats(result: RunResult, stats: dict) -> RunResult:
    """Device time and memory from the emulator's statistics; a fault report as the error."""
    device_ns = stats.get("device_time_ns")
    peak = stats.get("peak_device_memory")
    fault = next((ln for ln in result.stderr.splitlines() if ln.startswith(FAULT_PREFIX)), None)
    return replace(
        result,
        device_time_s=float(device_ns) / 1e9 if device_ns else None,
        device_peak_bytes=int(peak) if peak else None,
        peak_rss_kib=None,  # the emulator's own memory says nothing about the GPU program's
        info={"emulated": OFFLOAD_ARCH, "instructions": str(stats.get("instructions", ""))},
        error=result.error or (f"emulator fault: {fault[len(FAULT_PREFIX) :]}" if fault else None),
    )


def _first_line(message: str) -> str:
    lines = [ln for ln in message.splitlines() if ln.strip()]
    errors = [ln for ln in lines if re.search(r"\berror:", ln)]
    return lines[0] + (f" ({errors[0].strip()})" if errors and errors[0] != lines[0] else "")
