"""The CI gate: check (and verify) the mirrors a pull request touches, or all of them.

`gate(start, base=REF)` looks at files changed between the merge base of REF and HEAD: a changed
source or mirror brings in its pair. `gate(start, everything=True)` checks every tracked source.
Each pair is checked like cass-check (exists, current, not hand-edited unmarked, no conflict
markers) and, with `verify`, run and compared. The front end (`cass ci`) renders the `Report` and decides the exit
code.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from pathlib import Path

from cass.models.workflow import mirror as mm
from cass.models.workflow.checks import check_one
from cass.models.workflow.outcomes import Outcome, default_jobs, run_pairs
from cass.models.workflow.pairs import select_pairs
from cass.models.workflow.repo import (
    changed_since,
    describe,
    first_changed_lines,
    open_repo,
    tracked_files,
)
from cass.models.workflow.report import Report
from cass.runner.diagnostics import CassError, Diagnostic

SOURCE_CAUSED = ("reference-", "mirror-stale", "mirror-conflict")


def gate(
    start: Path,
    *,
    base: str | None = None,
    everything: bool = False,
    verify: bool | None = None,
    strict: bool = False,
    jobs: int | None = None,
) -> Report:
    """Run the gate for the repository containing `start`. `strict` (--require-verified): every
    pair must be verified here (verification on; unverifiable, a stale or missing NVIDIA
    reference included, is an error). With `base`, findings that name no line point at the
    first changed line of the pair's files (where a pull request shows them)."""
    if (base is None) == (not everything):
        raise CassError("give exactly one of --base REF (changes since REF) or --all")
    state = open_repo(start)
    config = mm.load_config(state.root)
    names = tracked_files(state) if everything else changed_since(state, base or "")
    names = [str(state.root / n) for n in names]
    selection = select_pairs(state.root, names, config)
    run_verify = strict or (config.verify if verify is None else verify)
    work = partial(check_one, state.root, config=config, verify=run_verify, strict=strict)
    outcomes = run_pairs(work, selection.pairs, jobs or default_jobs(), "cass ci")
    if base is not None:
        changed = first_changed_lines(state, base)
        outcomes = [_at_changed_lines(o, changed) for o in outcomes]
    scope = "all files" if everything else f"changes since {base}"
    return Report(
        tuple(outcomes), selection.diagnostics, tuple(describe(state)), scope, run_verify, strict
    )


def _at_changed_lines(outcome: Outcome, changed: dict[str, int]) -> Outcome:
    """Move findings that name no line (line 1) to the first changed line of their file, else
    of the other file of the pair; findings caused by the source's change (a stale mirror or
    reference) go to the source's first changed line."""

    def place(d: Diagnostic) -> Diagnostic:
        if d.line != 1:
            return d
        first = outcome.pair.source if d.code.startswith(SOURCE_CAUSED) else d.path
        for path in (first, d.path, outcome.pair.source, outcome.pair.mirror):
            if path in changed:
                return replace(d, path=path, line=changed[path])
        return d

    return replace(outcome, diagnostics=tuple(place(d) for d in outcome.diagnostics))
