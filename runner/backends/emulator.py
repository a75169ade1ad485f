"""Backend `emulator`: clang-16 builds the HIP port for gfx1100, linked against the cass HIP
runtime, and the cass RDNA3 emulator runs its kernels on the CPU (no AMD GPU needed)."""

from __future__ import annotations

import os
import re
import shutil
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from cass.runner import toolchain
from cass.runner.backends.base import BuildFailed
from cass.runner.compiler_output import parse_compiler_output
from cass.runner.diagnostics import CassError
from cass.runner.process import collect_outputs, prepare_run_dir
from cass.runner.results import RunResult, combine_runs
from cass.runner.spec import RunSpec

OFFLOAD_ARCH = "gfx1100"
# Names the emulator's stats may use for device-side figures.
DEVICE_BYTES_KEYS = ("device_peak_bytes", "peak_device_bytes", "device_memory_peak", "peak_bytes")
DEVICE_TIME_KEYS = ("device_time_s", "kernel_time_s")


class EmulatorBackend:
    name = "emulator"
    side = "hip"

    def unavailable(self) -> str | None:
        clang = toolchain.find_tool("clang++-16")
        if isinstance(clang, toolchain.MissingTool):
            return f"clang++-16 is not installed (run `{clang.fix}`)"
        try:
            from cass.runner import emulator
        except ImportError as exc:
            return f"the cass RDNA3 emulator cannot be imported ({exc})"
        if not hasattr(emulator, "run_program"):
            return "the cass RDNA3 emulator has no run_program (an incomplete install?)"
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
        results = []
        for _ in range(spec.runs):
            results.append(self._run_once(artifact, spec))
            if not results[-1].finished:
                break
        return combine_runs(results)

    def _run_once(self, exe: Path, spec: RunSpec) -> RunResult:
        from cass.runner.emulator import run_program

        base = Path(spec.base_dir) if spec.base_dir else None
        try:
            run_dir = prepare_run_dir(spec.input_files, base, prefix="emulator")
        except CassError as exc:
            return RunResult(self.name, None, "", error=exc.message)
        try:
            env = {**os.environ, **spec.env_dict}
            started = time.perf_counter()
            run = run_program(exe, args=spec.args, stdin=spec.stdin, cwd=run_dir, timeout_s=spec.timeout_s, env=env)
            wall = time.perf_counter() - started
            files = collect_outputs(run_dir, [o.path for o in spec.output_files], spec.max_output_bytes)
        finally:
            shutil.rmtree(run_dir, ignore_errors=True)
        return _to_result(run, files, spec, wall)


def _text(value: Any) -> str:
    return value.decode("utf-8", errors="replace") if isinstance(value, bytes) else str(value or "")


def _stat(stats: Any, keys: tuple[str, ...]) -> Any:
    for key in keys:
        value = stats.get(key) if isinstance(stats, dict) else getattr(stats, key, None)
        if value is not None:
            return value
    return None


def _to_result(run: Any, files: dict[str, bytes], spec: RunSpec, wall: float) -> RunResult:
    stdout, stderr = _text(run.stdout), _text(run.stderr)
    truncated = len(stdout.encode()) > spec.max_output_bytes
    stats = getattr(run, "stats", None) or {}
    code = run.exit_code
    signal = -code if isinstance(code, int) and code < 0 else None
    if signal:
        code = 128 + signal
    result = RunResult(
        backend="emulator",
        exit_code=None if run.timed_out or truncated else code,
        stdout=stdout[: spec.max_output_bytes],
        stderr=stderr[: spec.max_output_bytes],
        timed_out=bool(run.timed_out),
        output_truncated=truncated,
        signal=signal,
        output_files=files,
        runtimes_s=(wall,),
        device_peak_bytes=_stat(stats, DEVICE_BYTES_KEYS),
        device_time_s=_stat(stats, DEVICE_TIME_KEYS),
    )
    if run.timed_out:
        result = replace(result, error=f"no result within the {spec.timeout_s:g} s time limit")
    return result


def _first_line(message: str) -> str:
    lines = [ln for ln in message.splitlines() if ln.strip()]
    errors = [ln for ln in lines if re.search(r"\berror:", ln)]
    return lines[0] + (f" ({errors[0].strip()})" if errors and errors[0] != lines[0] else "")
