"""The CI gate: check (and verify) the mirrors a pull request touches, or all of them.

`gate(start, base=REF)` looks at files changed between the merge base of REF and HEAD: a changed
source or mirror brings in its pair. `gate(start, everything=True)` checks every tracked source.
Each pair is checked like cass-check (exists, current, not hand-edited unmarked, no conflict
markers) and, with `verify`, run and compared. The front end (`cass ci`) renders the `Report` and decides the exit
code.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

from cass.models.workflow import mirror as mm
from cass.models.workflow.checks import check_one
from cass.models.workflow.outcomes import default_jobs, run_pairs
from cass.models.workflow.pairs import select_pairs
from cass.models.workflow.repo import changed_since, describe, open_repo, tracked_files
from cass.models.workflow.report import Report
from cass.runner.diagnostics import CassError


def gate(start: Path, *, base: str | None = None, everything: bool = False,
         verify: bool | None = None, strict: bool = False, jobs: int | None = None) -> Report:
    """Run the gate for the repository containing `start`."""
    if (base is None) == (not everything):
        raise CassError("give exactly one of --base REF (changes since REF) or --all")
    state = open_repo(start)
    config = mm.load_config(state.root)
    names = tracked_files(state) if everything else changed_since(state, base or "")
    names = [str(state.root / n) for n in names]
    selection = select_pairs(state.root, names, config)
    run_verify = config.verify if verify is None else verify
    work = partial(check_one, state.root, config=config, verify=run_verify, strict=strict)
    outcomes = run_pairs(work, selection.pairs, jobs or default_jobs(), "cass ci")
    scope = "all files" if everything else f"changes since {base}"
    return Report(tuple(outcomes), selection.diagnostics, tuple(describe(state)), scope,
                  run_verify)
