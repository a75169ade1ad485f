"""cass-check: read-only gate (for CI): every mirror exists, is current, was not hand-edited
without being marked so, holds no conflict markers, and (with --verify) still matches.

It never writes a file; exit 1 on any finding.
"""

from __future__ import annotations

import argparse
from functools import partial
from pathlib import Path

from cass.hooks.work import EXIT_FINDINGS, EXIT_OK, guarded_main, print_diagnostics
from cass.models.workflow import mirror as mm
from cass.models.workflow.checks import check_one
from cass.models.workflow.outcomes import default_jobs, run_pairs
from cass.models.workflow.pairs import select_pairs
from cass.models.workflow.repo import open_repo
from cass.runner.diagnostics import Severity


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="cass-check", description=__doc__.splitlines()[0])
    parser.add_argument("filenames", nargs="*", help="CUDA sources or their mirrors")
    parser.add_argument("--verify", action="store_true", help="also run every pair and compare")
    parser.add_argument(
        "--require-verified",
        "--strict",
        dest="strict",
        action="store_true",
        help="fail every pair not verified here (a stale or missing NVIDIA "
        "reference included) (implies --verify)",
    )
    parser.add_argument("--jobs", "-j", type=int, default=default_jobs())
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    def body() -> int:
        args = parse_args(argv)
        state = open_repo(Path.cwd())
        config = mm.load_config(state.root)
        selection = select_pairs(state.root, args.filenames, config)
        work = partial(
            check_one,
            state.root,
            config=config,
            verify=args.verify or args.strict,
            strict=args.strict,
        )
        outcomes = run_pairs(work, selection.pairs, args.jobs, "cass-check")
        print_diagnostics(selection.diagnostics)
        for outcome in outcomes:
            print_diagnostics(outcome.diagnostics)
        failed = any(o.failed for o in outcomes) or any(
            d.severity is Severity.ERROR for d in selection.diagnostics
        )
        if not failed:
            print(f"cass-check: {len(outcomes)} mirror(s) current")
        return EXIT_FINDINGS if failed else EXIT_OK

    return guarded_main("cass-check", body)


if __name__ == "__main__":
    raise SystemExit(main())
