"""cass-port: (re)generate the HIP mirror of each staged CUDA source.

For each source: a missing or stale mirror is translated with the configured engine, verified
(when the config asks) and written atomically with its provenance header; the hook then exits 1
listing what to review and stage (it never stages). A hand-edited mirror, or a file without a
cass header where the mirror goes, is never overwritten: the hook reports it and offers
`--merge` (three-way merge of your edits onto the new translation; base = the last generated text
from git history) or `--force` (regenerate; your version is backed up under .git/cass/backups).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path

from cass.hooks import translate as tr
from cass.hooks.pairs import Pair, finding, read_mirror, read_source, select_pairs
from cass.hooks.repo import RepoState, describe, open_repo
from cass.hooks.verify import verdict_findings
from cass.hooks.work import (EXIT_FINDINGS, EXIT_OK, FIXES, Outcome, default_jobs,
                             guarded_main, print_diagnostics, quoted, run_pairs)
from cass.models import mirror as mm
from cass.models.engine import Translation
from cass.models.mirror_history import last_generated_body, merge_texts, save_backup
from cass.runner.diagnostics import Severity


@dataclass(frozen=True)
class PortOptions:
    force: bool = False
    merge: bool = False
    verify: bool = True


def port_pair(root: Path, pair: Pair, config: mm.MirrorConfig, options: PortOptions,
              unmerged: frozenset[str] = frozenset()) -> Outcome:
    """The pure worker of cass-port for one (source, mirror) pair."""
    if pair.mirror in unmerged:
        return Outcome(pair, "failed", (finding(pair.mirror, Severity.ERROR, "mirror-unmerged",
                       "has unresolved merge conflicts: resolve them, or regenerate it with "
                       f"`cass-port --force {quoted([pair.source])}`"),))
    text, sha = read_source(root, pair.source)
    status = mm.classify(sha, read_mirror(root, pair.mirror), config, pair.source)
    if status.state in (mm.MirrorState.CURRENT, mm.MirrorState.KEPT):
        return Outcome(pair, "unchanged" if status.state is mm.MirrorState.CURRENT else "kept")
    if status.state.is_protected and not (options.force or options.merge):
        fix = FIXES[status.state].format(source=quoted([pair.source]))
        return Outcome(pair, "failed", (finding(pair.mirror, Severity.ERROR,
                       f"mirror-{status.state.value}", f"not overwritten: {status.reason}; {fix}"),))
    translation = tr.translate(text, pair.source, config)
    if translation.has_errors:
        return Outcome(pair, "failed", translation.diagnostics)
    if options.merge and status.state is mm.MirrorState.FOREIGN:
        return Outcome(pair, "failed", (finding(pair.mirror, Severity.ERROR, "mirror-foreign",
                       "nothing to merge with: the file there is not a cass mirror; move it "
                       "away, or replace it with --force (it is backed up)"),))
    if options.merge and status.state.is_protected:
        return _merge(root, pair, config, status, translation, sha)
    return _write_new(root, pair, config, options, status, translation, sha)


def _provenance(pair: Pair, config: mm.MirrorConfig, translation: Translation,
                sha: str) -> mm.Provenance:
    version = getattr(tr.engine_for(config.engine), "version", "")
    return mm.Provenance(source=pair.source, source_sha256=sha, engine=translation.engine,
                         engine_version=version, target=config.target.gfx_arch,
                         verdict="not-run", body_sha256="")


def _write_new(root: Path, pair: Pair, config: mm.MirrorConfig, options: PortOptions,
               status: mm.MirrorStatus, translation: Translation, sha: str) -> Outcome:
    notes = []
    if status.state.is_protected:
        backup = save_backup(root, pair.mirror, (root / pair.mirror).read_bytes())
        notes.append(f"your version of {pair.mirror} is saved as {backup}")
    provenance = _provenance(pair, config, translation, sha)
    mm.write_atomic(root / pair.mirror, mm.render_mirror(translation.text, provenance))
    if not options.verify:
        return Outcome(pair, "wrote", translation.diagnostics, None, tuple(notes))
    check = tr.verify_pair(root, pair.source, pair.mirror)
    final = replace(provenance, verdict=check.status)
    mm.write_atomic(root / pair.mirror, mm.render_mirror(translation.text, final))
    found = translation.diagnostics + verdict_findings(pair, check, strict=False)
    return Outcome(pair, "wrote", found, check.status, tuple(notes))


def _merge(root: Path, pair: Pair, config: mm.MirrorConfig, status: mm.MirrorStatus,
           translation: Translation, sha: str) -> Outcome:
    assert status.provenance is not None  # protected states other than FOREIGN have a header
    def regenerate(old_source: str) -> str:
        return tr.translate(old_source, pair.source, config).text

    base = last_generated_body(root, pair.mirror, status.provenance, regenerate)
    if base is None:
        return Outcome(pair, "failed", (finding(pair.mirror, Severity.ERROR, "merge-no-base",
                       "cannot merge: the text cass last generated for it is not in git history "
                       "(shallow clone or never committed); merge by hand, or --force (your "
                       "version is backed up)"),))
    ours = status.body or ""
    result = merge_texts(base, ours, translation.text)
    backup = save_backup(root, pair.mirror, (root / pair.mirror).read_bytes())
    provenance = replace(_provenance(pair, config, translation, sha),
                         body_sha256=mm.sha256_text(translation.text), hand_edited=True)
    mm.write_atomic(root / pair.mirror, mm.render_header(provenance) + result.text)
    notes = [f"your version is saved as {backup}"]
    diagnostics = tuple(translation.diagnostics)
    if result.conflicts:
        diagnostics += (finding(pair.mirror, Severity.ERROR, "merge-conflict",
                        f"{result.conflicts} conflict(s) left between your edits and the new "
                        "translation: resolve the <<<<<<< / >>>>>>> blocks"),)
    return Outcome(pair, "merged", diagnostics, None, tuple(notes))


# --- the hook --------------------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="cass-port", description=__doc__.splitlines()[0])
    parser.add_argument("filenames", nargs="*", help="CUDA sources (or mirrors) to port")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--force", action="store_true",
                      help="regenerate even hand-edited mirrors (backed up first)")
    mode.add_argument("--merge", action="store_true",
                      help="merge hand edits onto the new translation (three-way)")
    parser.add_argument("--no-verify", action="store_true", help="do not run the port")
    parser.add_argument("--jobs", "-j", type=int, default=default_jobs())
    return parser.parse_args(argv)


def report(outcomes: list[Outcome], state: RepoState | None = None) -> int:
    for note in describe(state) if state else []:
        print(f"cass-port: note: {note}")
    for outcome in outcomes:
        if outcome.wrote:
            verdict = f", verdict {outcome.verdict}" if outcome.verdict else ""
            print(f"cass-port: {outcome.action} {outcome.pair.mirror} "
                  f"(from {outcome.pair.source}{verdict})")
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
        options = PortOptions(args.force, args.merge, config.verify and not args.no_verify)
        work = partial(port_pair, state.root, config=config, options=options,
                       unmerged=state.unmerged)
        outcomes = run_pairs(work, selection.pairs, args.jobs, "cass-port")
        code = report(outcomes, state)
        failed_selection = any(d.severity is Severity.ERROR for d in selection.diagnostics)
        return EXIT_FINDINGS if failed_selection else code

    return guarded_main("cass-port", body)


if __name__ == "__main__":
    raise SystemExit(main())
