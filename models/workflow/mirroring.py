"""(Re)generate the HIP mirror of one CUDA source: translate with the configured engine, write
it atomically with its provenance header, verify it (when asked) and record the verdict in the
header. A hand-edited mirror, or a file without a cass header where the mirror goes, is never
overwritten unless forced (it is backed up first); `merge` carries hand edits onto the new
translation (three-way, base = the last generated text from git history)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from cass.models.engine import Translation
from cass.models.workflow import mirror as mm
from cass.models.workflow import steps
from cass.models.workflow.checks import verdict_findings
from cass.models.workflow.mirror_history import last_generated_body, merge_texts, save_backup
from cass.models.workflow.outcomes import FIXES, Outcome, quoted
from cass.models.workflow.pairs import Pair, finding, read_mirror, read_source
from cass.runner.diagnostics import Severity


@dataclass(frozen=True)
class PortOptions:
    force: bool = False
    merge: bool = False
    verify: bool = True


def port_pair(root: Path, pair: Pair, config: mm.MirrorConfig, options: PortOptions,
              unmerged: frozenset[str] = frozenset()) -> Outcome:
    """The worker of cass-port for one (source, mirror) pair."""
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
    translation = steps.translate(text, pair.source, config)
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
    version = getattr(steps.engine_for(config.engine), "version", "")
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
    check = steps.verify_pair(root, pair.source, pair.mirror)
    final = replace(provenance, verdict=check.status)
    mm.write_atomic(root / pair.mirror, mm.render_mirror(translation.text, final))
    found = translation.diagnostics + verdict_findings(pair, check, strict=False)
    return Outcome(pair, "wrote", found, check.status, tuple(notes))


def _merge(root: Path, pair: Pair, config: mm.MirrorConfig, status: mm.MirrorStatus,
           translation: Translation, sha: str) -> Outcome:
    assert status.provenance is not None  # protected states other than FOREIGN have a header
    def regenerate(old_source: str) -> str:
        return steps.translate(old_source, pair.source, config).text

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
