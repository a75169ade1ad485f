"""cass-port: (re)generate the HIP mirror of each staged CUDA source.

For each source: a missing or stale mirror is translated with the configured engine, verified
(when the config asks) and written atomically with its provenance header; the hook then exits 1
listing what to review and stage (it never stages). A hand-edited mirror, or a file without a
cass header where the mirror goes, is never overwritten: the hook reports it and offers
`--merge` (three-way merge of your edits onto the new translation; base = the last generated text
from git history), `--force` (regenerate; your version is backed up under .git/cass/backups) or
`--adopt` (keep the file as your own port: a header marked hand-edited goes on top). Under
pre-commit, whose hooks take no extra options, `CASS_PORT_MODE=merge|force|adopt` does the same:
`CASS_PORT_MODE=merge pre-commit run cass-port --files src/k.cu`.

A source the engine cannot port completely still gets its mirror, with the constructs it could
not port listed at the top (verdict `untranslated`); the hook stops until someone finishes the
port by hand (and marks it hand-edited) or excludes the source (`[tool.cass.mirror] exclude`).
"""

from __future__ import annotations

import argparse
import os
from functools import partial
from pathlib import Path

from cass.hooks.work import EXIT_FINDINGS, EXIT_OK, guarded_main, print_diagnostics
from cass.models.workflow import mirror as mm
from cass.models.workflow.advice import MODE_VARIABLE, PORT_MODES, quoted
from cass.models.workflow.mirroring import PortOptions, port_pair
from cass.models.workflow.outcomes import Outcome, default_jobs, run_pairs
from cass.models.workflow.pairs import select_pairs
from cass.models.workflow.repo import RepoState, describe, open_repo
from cass.runner.diagnostics import Severity


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="cass-port", description=__doc__.splitlines()[0])
    parser.add_argument("filenames", nargs="*", help="CUDA sources (or mirrors) to port")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument(
        "--force", action="store_true", help="regenerate even hand-edited mirrors (backed up first)"
    )
    mode.add_argument(
        "--merge", action="store_true", help="merge hand edits onto the new translation (three-way)"
    )
    mode.add_argument(
        "--adopt",
        action="store_true",
        help="keep the file where the mirror goes "
        "as your own port (adds a header marked hand-edited)",
    )
    parser.add_argument("--no-verify", action="store_true", help="do not run the port")
    parser.add_argument("--jobs", "-j", type=int, default=default_jobs())
    args = parser.parse_args(argv)
    chosen = os.environ.get(MODE_VARIABLE, "").strip()
    if chosen and not (args.force or args.merge or args.adopt):
        if chosen not in PORT_MODES:
            parser.error(f"{MODE_VARIABLE}={chosen!r}: use one of {', '.join(PORT_MODES)}")
        setattr(args, chosen, True)
    return args


def report(outcomes: list[Outcome], state: RepoState | None = None) -> int:
    for note in describe(state) if state else []:
        print(f"cass-port: note: {note}")
    for outcome in outcomes:
        if outcome.wrote:
            verdict = f", verdict {outcome.verdict}" if outcome.verdict else ""
            print(
                f"cass-port: {outcome.action} {outcome.pair.mirror} "
                f"(from {outcome.pair.source}{verdict})"
            )
        for note in outcome.notes:
            print(f"cass-port:   {note}")
        print_diagnostics(outcome.diagnostics)
    written = [o.pair.mirror for o in outcomes if o.wrote]
    if written:
        print(f"cass-port: review and stage {len(written)} mirror(s): git add {quoted(written)}")
    return EXIT_FINDINGS if written or any(o.failed for o in outcomes) else EXIT_OK


def main(argv: list[str] | None = None) -> int:
    def body() -> int:
        args = parse_args(argv)
        state = open_repo(Path.cwd())
        config = mm.load_config(state.root)
        selection = select_pairs(state.root, args.filenames, config)
        print_diagnostics(selection.diagnostics)
        options = PortOptions(
            args.force, args.merge, config.verify and not args.no_verify, args.adopt
        )
        work = partial(
            port_pair, state.root, config=config, options=options, unmerged=state.unmerged
        )
        outcomes = run_pairs(work, selection.pairs, args.jobs, "cass-port")
        code = report(outcomes, state)
        failed_selection = any(d.severity is Severity.ERROR for d in selection.diagnostics)
        return EXIT_FINDINGS if failed_selection else code

    return guarded_main("cass-port", body)


if __name__ == "__main__":
    raise SystemExit(main())
