"""What every execution backend is, and the native-run helper the real-hardware ones share.

A backend builds a program for one side (the CUDA original or the HIP port) and runs it:

    backend.unavailable()                -> None, or why it cannot run here (tool / device)
    backend.preflight(source, spec)      -> raises Unavailable when it cannot judge this program
    backend.build(source, work_dir)      -> an artifact (an executable, or a record)
    backend.run(source, artifact, spec)  -> RunResult   (spec.runs runs, median runtime)

`BuildFailed` carries the compiler's diagnostics (on the source's lines); `Unavailable` means the
backend cannot judge this program here (no device, stale record). Standard library only.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol

from cass.runner import devmem
from cass.runner.diagnostics import CassError, Diagnostic, WorkError
from cass.runner.limits import RunLimits
from cass.runner.process import collect_outputs, prepare_run_dir, run_limited
from cass.runner.results import RunResult, combine_runs
from cass.runner.spec import RunSpec


class BuildFailed(WorkError):
    """The source did not compile; `diagnostics` point at its lines."""

    def __init__(self, message: str, diagnostics: tuple[Diagnostic, ...] = ()):
        super().__init__(message, diagnostics=diagnostics)


class Unavailable(CassError):
    """This backend cannot run here (or cannot judge this program): the message says why."""


class Backend(Protocol):
    name: str
    side: str  # "cuda" (runs the original) or "hip" (runs the port)

    def unavailable(self) -> str | None: ...

    def preflight(self, source: Path, spec: RunSpec) -> None: ...

    def build(self, source: Path, work_dir: Path) -> Any: ...

    def run(self, source: Path, artifact: Any, spec: RunSpec) -> RunResult: ...


def run_once(
    cmd: list[str], spec: RunSpec, backend: str, env: dict[str, str] | None = None
) -> RunResult:
    """One run in a fresh private directory holding copies of the input files."""
    base = Path(spec.base_dir) if spec.base_dir else None
    try:
        run_dir = prepare_run_dir(spec.input_files, base, prefix=backend)
    except CassError as exc:
        return RunResult(backend, None, "", error=exc.message)
    try:
        out = run_limited(cmd, cwd=run_dir, stdin=spec.stdin, env=env, timeout_s=spec.timeout_s,
                          max_output_bytes=spec.max_output_bytes, limits=limits_of(spec))  # fmt: skip
        files = collect_outputs(run_dir, [o.path for o in spec.output_files], spec.max_output_bytes)
    finally:
        shutil.rmtree(run_dir, ignore_errors=True)
    return RunResult(
        backend=backend,
        exit_code=out.exit_code,
        stdout=out.stdout.decode("utf-8", errors="replace"),
        stderr=out.stderr.decode("utf-8", errors="replace"),
        timed_out=out.timed_out,
        output_truncated=out.output_truncated,
        signal=out.signal,
        output_files=files,
        runtimes_s=(out.wall_s,),
        peak_rss_kib=out.peak_rss_kib,
        error=_limit_message(out.timed_out, out.output_truncated, spec) or out.limit,
    )


def limits_of(spec: RunSpec) -> RunLimits:
    """The run's resource limits: the defaults (with the CASS_RUN_* environment), then the
    spec's own, where 0 means no limit."""
    base = RunLimits.defaults()

    def pick(value: Any, default: Any) -> Any:
        return default if value is None else (value or None)

    return RunLimits(
        memory_bytes=pick(spec.memory_limit, base.memory_bytes),
        processes=pick(spec.process_limit, base.processes),
        file_bytes=pick(spec.file_size_limit, base.file_bytes),
        cpu_s=pick(spec.cpu_limit_s, base.cpu_s),
        sandbox=base.sandbox or spec.sandbox,
    )


def _limit_message(timed_out: bool, truncated: bool, spec: RunSpec) -> str | None:
    if timed_out:
        return f"no result within the {spec.timeout_s:g} s time limit; the process tree was killed"
    if truncated:
        return f"printed more than {spec.max_output_bytes} bytes; killed (raise max_output_bytes?)"
    return None


def repeat_runs(run: Callable[[], RunResult], spec: RunSpec) -> RunResult:
    """`spec.runs` runs combined; a failed run ends the series (it is the evidence)."""
    results = []
    for _ in range(spec.runs):
        results.append(run())
        if not results[-1].finished:
            break
    return combine_runs(results)


def run_native(
    cmd: list[str], spec: RunSpec, backend: str, env: dict[str, str] | None = None
) -> RunResult:
    """`spec.runs` runs of a native executable."""
    return repeat_runs(lambda: run_once(cmd, spec, backend, env), spec)


def spec_env(spec: RunSpec, base: dict[str, str]) -> dict[str, str]:
    return {**base, **spec.env_dict}


def run_measured(cmd: list[str], spec: RunSpec, backend: str) -> RunResult:
    """One run with the device-memory interposer preloaded (see cass.runner.devmem): the
    result's `device_peak_bytes` is the peak of the runtime's allocations."""
    with tempfile.TemporaryDirectory(prefix="cass-devmem-") as tmp:
        report = Path(tmp) / "report"
        result = run_once(
            cmd, spec, backend, devmem.preload_env(spec_env(spec, dict(os.environ)), report)
        )
        measured = devmem.parse_report(report)
    if measured is None or measured[2] == 0:  # no report, or the allocators were not reached
        return result
    return replace(result, device_peak_bytes=measured[0])
