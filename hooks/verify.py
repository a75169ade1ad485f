"""cass-verify: run each changed (source, mirror) pair and compare; exit 1 on a mismatch.

The runner runs the original (NVIDIA GPU, or outputs recorded on one) and the mirror (AMD GPU, or
the RDNA3 emulator) and compares their outputs. Read-only: it never writes a file. A pair that
cannot be run here ("unverifiable") is a warning, or a failure with `--strict`. A current mirror
whose header records `match` (cass-port verified exactly this source and body) is not run again
unless `--rerun`: the pair `cass-port` just verified costs nothing twice.
"""

from __future__ import annotations

import argparse
from functools import partial
from pathlib import Path

from cass.hooks.work import EXIT_FINDINGS, EXIT_OK, guarded_main, print_diagnostics
from cass.models.workflow import mirror as mm
from cass.models.workflow.checks import verify_one
from cass.models.workflow.outcomes import default_jobs, run_pairs
from cass.models.workflow.pairs import select_pairs
from cass.models.workflow.repo import open_repo
from cass.runner.diagnostics import Severity


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="cass-verify", description=__doc__.splitlines()[0])
    parser.add_argument("filenames", nargs="*", help="CUDA sources or their mirrors")
    parser.add_argument(
        "--require-verified",
        "--strict",
        dest="strict",
        action="store_true",
        help="fail every pair not verified here (a stale or missing NVIDIA reference included)",
    )
    parser.add_argument(
        "--rerun", action="store_true", help="run even current mirrors whose header records a match"
    )
    parser.add_argument("--jobs", "-j", type=int, default=default_jobs())
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    def body() -> int:
        args = parse_args(argv)
        state = open_repo(Path.cwd())
        config = mm.load_config(state.root)
        selection = select_pairs(state.root, args.filenames, config)
        work = partial(verify_one, state.root, config=config, strict=args.strict, rerun=args.rerun)
        outcomes = run_pairs(work, selection.pairs, args.jobs, "cass-verify")
        print_diagnostics(selection.diagnostics)
        for outcome in outcomes:
            how = (
                " (recorded by cass-port for this very source and mirror)"
                if outcome.action == "recorded"
                else ""
            )
            print(f"cass-verify: {outcome.pair.mirror}: {outcome.verdict or outcome.action}{how}")
            print_diagnostics(outcome.diagnostics)
        failed = any(o.failed for o in outcomes) or any(
            d.severity is Severity.ERROR for d in selection.diagnostics
        )
        return EXIT_FINDINGS if failed else EXIT_OK

    return guarded_main("cass-verify", body)


if __name__ == "__main__":
    raise SystemExit(main())
