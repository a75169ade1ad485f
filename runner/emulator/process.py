"""Run a HIP program linked against the cass runtime on the emulated GPU, contained like every
run (cass.runner.process.run_limited: its process tree killed at the time limit or on Ctrl-C,
resource limits, output captured to capped files), and collect the emulator's statistics."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from cass.runner.diagnostics import CassError
from cass.runner.emulator.stats import EmulatorStats
from cass.runner.limits import RunLimits
from cass.runner.process import ProcessOutcome, run_limited

FAULT_EXIT_CODE = 70
KILLED_EXIT_CODE = -9  # stopped by the runner (time or output limit)
DEFAULT_MAX_OUTPUT = 64 * 1024 * 1024


@dataclass
class EmulatorRun:
    stdout: str
    stderr: str
    exit_code: int
    timed_out: bool
    stats: EmulatorStats = field(default_factory=EmulatorStats)
    output_truncated: bool = False  # printed more than the output limit: stopped
    limit: str | None = None  # the resource limit that ended the run (a sentence), if one did
    signal: int | None = None  # the signal that ended the program, when one did
    stdout_path: Path | None = None  # with `output_dir`: the captured output (text left empty)
    stderr_path: Path | None = None

    @property
    def faulted(self) -> bool:
        return "cass-emulator: fault " in self.stderr

    @property
    def fault_reports(self) -> list[dict[str, str]]:
        from cass.runner.emulator.faults import parse_fault_line

        return [
            parse_fault_line(ln)
            for ln in self.stderr.splitlines()
            if ln.startswith("cass-emulator: fault ")
        ]


def emulator_env(
    base: dict[str, str] | None, stats_path: Path, trace: str | None
) -> dict[str, str]:
    """The program's environment: where the emulator writes its statistics, which Python runs
    it, what to trace."""
    env = dict(os.environ if base is None else base)
    env["CASS_EMULATOR_STATS"] = str(stats_path)
    # Programs linked against AMD's runtime (built by make, CMake, hipcc) load the cass runtime.
    from cass.runner.emulator.build import amd_runtime_stand_in

    env["LD_LIBRARY_PATH"] = os.pathsep.join(
        filter(None, [str(amd_runtime_stand_in()), env.get("LD_LIBRARY_PATH", "")])
    )
    env.setdefault("CASS_EMULATOR_PYTHON", sys.executable)
    if trace:
        env["CASS_EMULATOR_TRACE"] = trace
    return env


def run_program(
    executable: Path,
    args=(),
    *,
    stdin=None,
    cwd=None,
    timeout_s: float = 60,
    env=None,
    trace: str | None = None,
    max_output_bytes: int = DEFAULT_MAX_OUTPUT,
    limits: RunLimits | None = None,
    output_dir: Path | None = None,
) -> EmulatorRun:
    """Run `executable` (built by `build_hip_program`, or by any build system against AMD's
    runtime, `libamdhip64.so.5`) on the emulated gfx1100 GPU. With
    `output_dir`, its output stays in files there (`stdout_path`, `stderr_path`)."""
    executable = Path(executable)
    if not executable.exists():
        raise CassError(
            f"{executable}: no such program (build it with `cass run-hip` or "
            "build_hip_program first)"
        )
    with tempfile.TemporaryDirectory(prefix="cass-emu-") as tmp:
        stats_path = Path(tmp) / "stats.json"
        outcome = run_limited(
            [str(executable.resolve()), *map(str, args)],
            cwd=Path(cwd) if cwd else Path.cwd(),
            stdin=stdin,
            env=emulator_env(env, stats_path, trace),
            timeout_s=timeout_s,
            max_output_bytes=max_output_bytes,
            measure=False,
            limits=limits,
            output_dir=output_dir,
        )
        stats = read_stats(stats_path)
    return _emulator_run(outcome, stats)


def read_stats(path: Path) -> EmulatorStats:
    try:
        raw = json.loads(path.read_text())
        return EmulatorStats.from_dict(raw)
    except (OSError, ValueError, TypeError):
        return EmulatorStats()


def _emulator_run(outcome: ProcessOutcome, stats: EmulatorStats) -> EmulatorRun:
    return EmulatorRun(
        outcome.stdout.decode("utf-8", "replace"),
        outcome.stderr.decode("utf-8", "replace"),
        KILLED_EXIT_CODE if outcome.exit_code is None else outcome.exit_code,
        outcome.timed_out,
        stats,
        output_truncated=outcome.output_truncated,
        limit=outcome.limit,
        signal=outcome.signal,
        stdout_path=outcome.stdout_path,
        stderr_path=outcome.stderr_path,
    )
