"""What one side of a verification produced: `RunResult`. Standard library only."""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class RunResult:
    """The outcome of running a program (median over `runtimes_s` when it ran several times).

    `exit_code` is None when the program never finished (timed out or killed for printing too
    much); `signal` names the signal that ended it when it crashed. `info` holds facts about the
    machine that produced it (GPU name, compute capability, driver, date) for recorded results.
    """

    backend: str
    exit_code: int | None
    stdout: str
    stderr: str = ""
    timed_out: bool = False
    output_truncated: bool = False
    signal: int | None = None
    output_files: dict[str, bytes] = field(default_factory=dict)
    runtimes_s: tuple[float, ...] = ()
    peak_rss_kib: int | None = None
    device_time_s: float | None = None
    device_peak_bytes: int | None = None
    info: dict[str, str] = field(default_factory=dict)
    error: str | None = None

    @property
    def runtime_s(self) -> float | None:
        return statistics.median(self.runtimes_s) if self.runtimes_s else None

    @property
    def finished(self) -> bool:
        return self.exit_code is not None and not self.timed_out and not self.output_truncated

    def describe_end(self) -> str:
        """One phrase saying how the program ended, for verdict messages."""
        if self.timed_out:
            return f"timed out ({self.error or 'time limit'})"
        if self.output_truncated:
            return f"killed: {self.error or 'printed more than the output limit'}"
        if self.signal:
            why = f": {self.error}" if self.error else ""  # e.g. the resource limit that ended it
            return f"crashed with signal {self.signal}{why}"
        if self.error:
            return self.error
        return f"exited with code {self.exit_code}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "backend": self.backend,
            "exit_code": self.exit_code,
            "signal": self.signal,
            "timed_out": self.timed_out,
            "output_truncated": self.output_truncated,
            "stdout": self.stdout,
            "stderr": self.stderr,
            "output_files": {name: len(data) for name, data in self.output_files.items()},
            "runtime_s": self.runtime_s,
            "runtimes_s": list(self.runtimes_s),
            "peak_rss_kib": self.peak_rss_kib,
            "device_time_s": self.device_time_s,
            "device_peak_bytes": self.device_peak_bytes,
            "info": dict(self.info),
            "error": self.error,
        }


def combine_runs(results: list[RunResult]) -> RunResult:
    """One result from N runs of the same program: the first run's outputs, every run's time,
    the largest peak memory. A run that failed is returned as it is (its evidence matters more)."""
    first = results[0]
    failed = next((r for r in results if not r.finished), None)
    if failed is not None or len(results) == 1:
        return failed or first
    rss = [r.peak_rss_kib for r in results if r.peak_rss_kib is not None]
    device = [r.device_peak_bytes for r in results if r.device_peak_bytes is not None]
    device_times = [r.device_time_s for r in results if r.device_time_s is not None]
    return RunResult(
        backend=first.backend,
        exit_code=first.exit_code,
        stdout=first.stdout,
        stderr=first.stderr,
        output_files=first.output_files,
        runtimes_s=tuple(t for r in results for t in r.runtimes_s),
        peak_rss_kib=max(rss) if rss else None,
        device_time_s=statistics.median(device_times) if device_times else None,
        device_peak_bytes=max(device) if device else None,
        info=first.info,
    )
