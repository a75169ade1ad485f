"""cass-check: read-only gate (for CI): every mirror exists, is current, was not hand-edited
without being marked so, holds no conflict markers, and (with --verify) still matches.

It never writes a file; exit 1 on any finding.
"""

from __future__ import annotations

import argparse
import re
from functools import partial
from pathlib import Path

from cass.hooks import translate as tr
from cass.hooks.pairs import Pair, finding, read_mirror, read_source, select_pairs
from cass.hooks.repo import open_repo
from cass.hooks.verify import verdict_findings
from cass.hooks.work import (EXIT_FINDINGS, EXIT_OK, FIXES, Outcome, default_jobs,
                             guarded_main, print_diagnostics, quoted, run_pairs)
from cass.models import mirror as mm
from cass.runner.diagnostics import Diagnostic, Severity

CONFLICT_MARKER = re.compile(r"^(<<<<<<<|>>>>>>>|\|\|\|\|\|\|\|) ", re.MULTILINE)
def state_findings(pair: Pair, status: mm.MirrorStatus) -> tuple[Diagnostic, ...]:
    if status.state in FIXES:
        fix = FIXES[status.state].format(source=quoted([pair.source]))
        return (finding(pair.mirror, Severity.ERROR, f"mirror-{status.state.value}",
                        f"{status.reason}; {fix}"),)
    return ()


def body_findings(pair: Pair, status: mm.MirrorStatus) -> tuple[Diagnostic, ...]:
    """Conflict markers left in a mirror, and a failing verdict recorded in its header."""
    out: list[Diagnostic] = []
    marker = CONFLICT_MARKER.search(status.body or "")
    if marker:
        line = (status.body or "")[: marker.start()].count("\n") + 1 + mm.HEADER_LINES
        out.append(finding(pair.mirror, Severity.ERROR, "mirror-conflict-markers",
                           "unresolved merge conflict markers; resolve them", line))
    verdict = status.provenance.verdict if status.provenance else ""
    if verdict in tr.FAILING_VERDICTS:
        out.append(finding(pair.mirror, Severity.ERROR, f"port-{verdict}",
                           f"its header records verdict {verdict!r}: fix the port, then "
                           f"`cass-port --force {pair.source}` or `cass-verify`"))
    return tuple(out)


def check_one(root: Path, pair: Pair, config: mm.MirrorConfig, verify: bool = False,
              strict: bool = False) -> Outcome:
    """The pure worker of cass-check for one pair (reads only)."""
    _, sha = read_source(root, pair.source)
    status = mm.classify(sha, read_mirror(root, pair.mirror), config, pair.source)
    found = state_findings(pair, status) + body_findings(pair, status)
    verdict = status.provenance.verdict if status.provenance else None
    if verify and status.state not in (mm.MirrorState.MISSING, mm.MirrorState.FOREIGN):
        check = tr.verify_pair(root, pair.source, pair.mirror)
        verdict = check.status
        found = tuple(d for d in found if not d.code.startswith("port-"))
        found += verdict_findings(pair, check, strict)
    return Outcome(pair, status.state.value, found, verdict)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="cass-check", description=__doc__.splitlines()[0])
    parser.add_argument("filenames", nargs="*", help="CUDA sources or their mirrors")
    parser.add_argument("--verify", action="store_true", help="also run every pair and compare")
    parser.add_argument("--strict", action="store_true", help="with --verify: fail pairs that "
                        "cannot be run here")
    parser.add_argument("--jobs", "-j", type=int, default=default_jobs())
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    def body() -> int:
        args = parse_args(argv)
        state = open_repo(Path.cwd())
        config = mm.load_config(state.root)
        selection = select_pairs(state.root, args.filenames, config)
        work = partial(check_one, state.root, config=config, verify=args.verify,
                       strict=args.strict)
        outcomes = run_pairs(work, selection.pairs, args.jobs, "cass-check")
        print_diagnostics(selection.diagnostics)
        for outcome in outcomes:
            print_diagnostics(outcome.diagnostics)
        failed = any(o.failed for o in outcomes) or any(
            d.severity is Severity.ERROR for d in selection.diagnostics)
        if not failed:
            print(f"cass-check: {len(outcomes)} mirror(s) current")
        return EXIT_FINDINGS if failed else EXIT_OK

    return guarded_main("cass-check", body)


if __name__ == "__main__":
    raise SystemExit(main())
