"""What every pass over mirror pairs shares: per-pair outcomes and running pairs in parallel.
(What to do about a finding is `advice`.)"""

from __future__ import annotations

import multiprocessing
import os
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace

from cass.models.workflow.pairs import Pair, finding
from cass.runner.diagnostics import CassError, Diagnostic, Severity

PROCESS_THRESHOLD = 4  # fewer pairs than this run in-process (starting workers costs more)


@dataclass(frozen=True)
class Outcome:
    """What a pass did with one pair."""

    pair: Pair
    action: (
        str  # "wrote", "merged", "adopted", "unchanged", "kept", "checked", "verified", "failed"
    )
    diagnostics: tuple[Diagnostic, ...] = ()
    verdict: str | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)
    elapsed_s: float = 0.0  # wall time of the pass over this pair (JUnit's `time`)

    @property
    def failed(self) -> bool:
        return any(d.severity is Severity.ERROR for d in self.diagnostics)

    @property
    def wrote(self) -> bool:
        return self.action in ("wrote", "merged", "adopted")


def default_jobs() -> int:
    return max(1, min(32, os.cpu_count() or 1))


def guarded(work: Callable[[Pair], Outcome], pair: Pair) -> Outcome:
    """`work(pair)`, timed, with a CassError turned into that pair's error finding."""
    started = time.perf_counter()
    try:
        outcome = work(pair)
    except CassError as exc:
        outcome = Outcome(
            pair,
            "failed",
            (finding(pair.source, Severity.ERROR, "cass-error", exc.message), *exc.diagnostics),
        )
    return replace(outcome, elapsed_s=time.perf_counter() - started)


def run_pairs(
    work: Callable[[Pair], Outcome], pairs: Sequence[Pair], jobs: int, label: str
) -> list[Outcome]:
    """`work` on every pair, in input order, in `jobs` worker processes (translation is CPU-bound
    Python, so threads would share one core); one pair's failure does not stop the others.
    `work` must be picklable (a module-level function, or a functools.partial of one).
    Progress on a terminal."""
    if jobs <= 1 or len(pairs) < PROCESS_THRESHOLD:
        return [guarded(work, p) for p in pairs]
    context = multiprocessing.get_context("fork" if sys.platform == "linux" else "spawn")
    with ProcessPoolExecutor(max_workers=min(jobs, len(pairs)), mp_context=context) as pool:
        futures = [pool.submit(guarded, work, p) for p in pairs]
        if not sys.stderr.isatty():
            return [f.result() for f in futures]
        from rich.progress import Progress

        with Progress(transient=True) as progress:
            task = progress.add_task(label, total=len(futures))
            for future in futures:
                future.add_done_callback(lambda _f: progress.advance(task))
            return [f.result() for f in futures]
