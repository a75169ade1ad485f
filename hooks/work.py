"""What every hook shares: per-pair outcomes, running pairs in parallel, printing, exit codes.

Exit codes (pre-commit's convention): 0 nothing to do or all good; 1 the hook wrote a file or found
a problem (review, stage, fix); 2 a usage mistake (bad option, bad config, not a repository);
3 an unexpected failure (the traceback goes to a log file, whose path is printed).
"""

from __future__ import annotations

import os
import sys
import tempfile
import traceback
from collections.abc import Callable, Sequence
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from cass.hooks.pairs import Pair, finding
from cass.models.mirror import MirrorState
from cass.runner.diagnostics import CassError, Diagnostic, Severity

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
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
    """What a hook did with one pair."""

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


def print_diagnostics(diagnostics: Sequence[Diagnostic], stream=None) -> None:
    stream = stream or sys.stdout
    for d in diagnostics:
        print(d.render(), file=stream)


def quoted(paths: Sequence[str]) -> str:
    return " ".join(f"'{p}'" if any(c.isspace() or c in "'\"$" for c in p) else p for p in paths)


def guarded_main(hook: str, body: Callable[[], int]) -> int:
    """Run a hook's main body: CassError -> its message and exit code; anything unexpected ->
    exit 3 with the traceback in a log file."""
    try:
        return body()
    except CassError as exc:
        print(f"{hook}: error: {exc.message}", file=sys.stderr)
        print_diagnostics(exc.diagnostics, sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print(f"{hook}: interrupted; no mirror was left half-written", file=sys.stderr)
        return 130
    except Exception:  # noqa: BLE001 - the edge where unexpected failures become exit 3
        log = Path(tempfile.gettempdir()) / f"{hook}-crash-{os.getpid()}.log"
        log.write_text(traceback.format_exc(), encoding="utf-8")
        print(f"{hook}: internal error (a bug in cass); the traceback is in {log}",
              file=sys.stderr)
        return EXIT_INTERNAL
