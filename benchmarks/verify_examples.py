"""Verify every recorded example: its hand-written `.hip` port and the rules engine's port.

    .venv/bin/python benchmarks/verify_examples.py [FOLDER ...]     # default: examples/

One row per (example, port): verdict, backends, the original's runtime and device memory (from
its record), the port's, the memory ratio, and how long verification took. A table to compare,
not an assertion: the test suite asserts behaviour.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from cass.models.workflow.porting import port_and_verify
from cass.runner.diagnostics import CassError
from cass.runner.recorded import record_path
from cass.runner.verify import Verdict, verify
from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]


def _row(name: str, port: str, verdict: Verdict, seconds: float) -> list[str]:
    ref, cand = verdict.reference, verdict.candidate
    ms = lambda r: f"{r.runtime_s * 1e3:.1f} ms" if r and r.runtime_s is not None else "—"  # noqa: E731
    mem = lambda r: f"{r.device_peak_bytes}" if r and r.device_peak_bytes is not None else "—"  # noqa: E731
    ratio = f"{verdict.memory_ratio:.2f}x" if verdict.memory_ratio is not None else "n/a"
    detail = verdict.mismatches[0].render()[:70] if verdict.mismatches else ""
    return [
        name,
        port,
        verdict.status,
        " → ".join(verdict.backends),
        ms(ref),
        mem(ref),
        ms(cand),
        mem(cand),
        ratio,
        f"{seconds:.1f} s",
        detail,
    ]


def main(folders: list[Path]) -> int:
    sources = sorted(s for f in folders for s in f.rglob("*.cu") if record_path(s).is_file())
    table = Table(title="cass verify over the recorded examples")
    for column in (
        "example",
        "port",
        "verdict",
        "backends",
        "orig. runtime",
        "orig. device B",
        "port runtime",
        "port device B",
        "memory ratio",
        "verify time",
        "first difference",
    ):
        table.add_column(column, overflow="fold")
    console = Console()
    with console.status("verifying") as status:
        for source in sources:
            name = str(source.relative_to(ROOT)) if source.is_relative_to(ROOT) else str(source)
            hand = source.with_suffix(".hip")
            if hand.is_file():
                status.update(f"{name} vs {hand.name}")
                started = time.perf_counter()
                table.add_row(
                    *_row(name, hand.name, verify(source, hand), time.perf_counter() - started)
                )
            status.update(f"{name}: rules port")
            started = time.perf_counter()
            try:
                outcome = port_and_verify(source)
            except CassError as exc:
                table.add_row(name, "rules", "error", "", "", "", "", "", "", "", exc.message[:70])
                continue
            table.add_row(*_row(name, "rules", outcome.verdict, time.perf_counter() - started))
            outcome.cleanup()
    console.print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main([Path(a) for a in sys.argv[1:]] or [ROOT / "examples"]))
