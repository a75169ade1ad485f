"""Run a HIP program linked against the cass runtime, with a time limit that kills the whole
process tree, and collect the emulator's statistics."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from cass.runner.diagnostics import CassError
from cass.runner.emulator.stats import EmulatorStats

FAULT_EXIT_CODE = 70


@dataclass
class EmulatorRun:
    stdout: str
    stderr: str
    exit_code: int
    timed_out: bool
    stats: EmulatorStats = field(default_factory=EmulatorStats)

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


def run_program(
    executable: Path,
    args=(),
    *,
    stdin=None,
    cwd=None,
    timeout_s: float = 60,
    env=None,
    trace: str | None = None,
) -> EmulatorRun:
    """Run `executable` (built by `build_hip_program`) on the emulated gfx1100 GPU."""
    executable = Path(executable)
    if not executable.exists():
        raise CassError(
            f"{executable}: no such program (build it with `cass run-hip` or "
            "build_hip_program first)"
        )
    with tempfile.TemporaryDirectory(prefix="cass-emu-") as tmp:
        stats_path = Path(tmp) / "stats.json"
        run_env = dict(os.environ if env is None else env)
        run_env["CASS_EMULATOR_STATS"] = str(stats_path)
        run_env.setdefault("CASS_EMULATOR_PYTHON", sys.executable)
        if trace:
            run_env["CASS_EMULATOR_TRACE"] = trace
        data = stdin.encode() if isinstance(stdin, str) else stdin
        proc = subprocess.Popen(
            [str(executable.resolve()), *map(str, args)],
            cwd=cwd,
            env=run_env,
            stdin=subprocess.PIPE if data is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        timed_out = False
        try:
            out, err = proc.communicate(data, timeout=timeout_s)
        except subprocess.TimeoutExpired:
            timed_out = True
            os.killpg(proc.pid, signal.SIGKILL)
            out, err = proc.communicate()
        stats = EmulatorStats()
        if stats_path.exists():
            try:
                raw = json.loads(stats_path.read_text())
                stats = EmulatorStats.from_dict(raw)
            except (ValueError, TypeError):
                pass
    return EmulatorRun(
        out.decode("utf-8", "replace"),
        err.decode("utf-8", "replace"),
        proc.returncode if not timed_out else -9,
        timed_out,
        stats,
    )
