"""What every pass over mirror pairs shares: per-pair outcomes, what to do about a mirror's state,
and running pairs in parallel."""

from __future__ import annotations

import multiprocessing
import os
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from cass.models.workflow.mirror import MirrorState
from cass.models.workflow.pairs import Pair, finding
from cass.runner.diagnostics import CassError, Diagnostic, Severity

PROCESS_THRESHOLD = 4  # fewer pairs than this run in-process (starting workers costs more)
FIXES = {  # mirror state -> what to do about it ({source}: the CUDA source, shell-quoted)
    MirrorState.MISSING: "create it: `cass-port {source}` (or commit with the cass-port hook)",
    MirrorState.STALE: "regenerate it: `cass-port {source}`",
    MirrorState.HAND_EDITED: 'keep the edit by setting "hand-edited: yes" in its header, or '
    "regenerate it: `cass-port --force {source}` (your version is backed up)",
    MirrorState.CONFLICT: "carry your edits over: `cass-port --merge {source}`, or regenerate: "
    "`cass-port --force {source}` (your version is backed up)",
    MirrorState.FOREIGN: "move the file away, or let cass replace it: "
    "`cass-port --force {source}` (it is backed up)",
}


@dataclass(frozen=True)
class Outcome:
    """What a pass did with one pair."""

    pair: Pair
    action: str  # "wrote", "merged", "unchanged", "kept", "checked", "verified", "failed"
    diagnostics: tuple[Diagnostic, ...] = ()
    verdict: str | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def failed(self) -> bool:
        return any(d.severity is Severity.ERROR for d in self.diagnostics)

    @property
    def wrote(self) -> bool:
        return self.action in ("wrote", "merged")


def default_jobs() -> int:
    return max(1, min(32, os.cpu_count() or 1))


def quoted(paths: Sequence[str]) -> str:
    return " ".join(f"'{p}'" if any(c.isspace() or c in "'\"$" for c in p) else p for p in paths)


def guarded(work: Callable[[Pair], Outcome], pair: Pair) -> Outcome:
    """`work(pair)`, with a CassError turned into that pair's error finding."""
    try:
        return work(pair)
    except CassError as exc:
        return Outcome(pair, "failed", (finding(pair.source, Severity.ERROR, "cass-error",
                                                exc.message), *exc.diagnostics))


def run_pairs(work: Callable[[Pair], Outcome], pairs: Sequence[Pair], jobs: int,
              label: str) -> list[Outcome]:
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
