"""Backend `recorded`: the reference output captured earlier on a real NVIDIA GPU.

Reads `SOURCE.cu.recorded.toml` (see cass.runner.recorded); a missing or stale record makes the
program unverifiable here, with the command that records it. Standard library only.
"""

from __future__ import annotations

from pathlib import Path

from cass.runner.backends.base import Unavailable
from cass.runner.diagnostics import CassError
from cass.runner.recorded import load_recorded, record_path
from cass.runner.results import RunResult
from cass.runner.spec import RunSpec


class RecordedBackend:
    name = "recorded"
    side = "cuda"

    def unavailable(self) -> str | None:
        return None  # whether a record exists depends on the program: see run()

    def preflight(self, source: Path, spec: RunSpec) -> None:
        """Refuse early (before the port is built) when the record is missing or stale."""
        self.run(source, record_path(source), spec)

    def build(self, source: Path, work_dir: Path) -> Path:
        return record_path(source)

    def run(self, source: Path, artifact: Path, spec: RunSpec) -> RunResult:
        try:
            return load_recorded(source, spec)
        except CassError as exc:
            raise Unavailable(exc.message) from None
