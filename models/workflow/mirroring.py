"""(Re)generate the HIP mirror of one CUDA source: translate with the configured engine, write
it atomically with its provenance header, verify it (when asked) and record the verdict in the
header. A hand-edited mirror, or a file without a cass header where the mirror goes, is never
overwritten unless forced (it is backed up first); `merge` carries hand edits onto the new
translation (three-way, base = the last generated text from git history)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from cass.models.engine import Translation
from cass.models.workflow import advice, steps
from cass.models.workflow import mirror as mm
from cass.models.workflow.checks import body_findings, verdict_findings
from cass.models.workflow.mirror_history import last_generated_body, merge_texts, save_backup
from cass.models.workflow.outcomes import Outcome
from cass.models.workflow.pairs import Pair, finding, read_mirror, read_source
from cass.runner.diagnostics import Severity


@dataclass(frozen=True)
class PortOptions:
    force: bool = False
    merge: bool = False
    verify: bool = True
    adopt: bool = False  # put a header (marked hand-edited) on a hand-written port, keep its text


def port_pair(
    root: Path,
    pair: Pair,
    config: mm.MirrorConfig,
    options: PortOptions,
    unmerged: frozenset[str] = frozenset(),
) -> Outcome:
    """The worker of cass-port for one (source, mirror) pair."""
    if pair.mirror in unmerged:
        return Outcome(
            pair,
            "failed",
            (
                finding(
                    pair.mirror,
                    Severity.ERROR,
                    "mirror-unmerged",
                    "has unresolved merge conflicts: resolve them, or regenerate it with "
                    f"`{advice.port_command([pair.source], 'force')}`",
                ),
            ),
        )
    text, sha = read_source(root, pair.source)
    status = mm.classify(sha, read_mirror(root, pair.mirror), config, pair.source)
    if options.adopt:
        return _adopt(root, pair, config, status, sha)
    if status.state is mm.MirrorState.CURRENT or (
        status.state is mm.MirrorState.KEPT and not options.force
    ):
        action = "unchanged" if status.state is mm.MirrorState.CURRENT else "kept"
        return Outcome(
            pair,
            action,
            body_findings(pair, status, config)
            if status.provenance and status.provenance.verdict == mm.UNTRANSLATED
            else (),
        )
    if status.state.is_protected and not (options.force or options.merge):
        fix = advice.for_state(status.state, pair.source, config)
        return Outcome(
            pair,
            "failed",
            (
                finding(
                    pair.mirror,
                    Severity.ERROR,
                    f"mirror-{status.state.value}",
                    f"not overwritten: {status.reason}; {fix}",
                ),
            ),
        )
    translation = steps.translate(text, pair.source, config)
    if options.merge and status.state is mm.MirrorState.FOREIGN:
        return Outcome(
            pair,
            "failed",
            (
                finding(
                    pair.mirror,
                    Severity.ERROR,
                    "mirror-foreign",
                    "nothing to merge with: the file there is not a cass mirror; "
                    + advice.for_state(status.state, pair.source, config),
                ),
            ),
        )
    if options.merge and status.state.is_protected:
        return _merge(root, pair, config, status, translation, sha)
    return _write_new(root, pair, config, options, status, translation, sha)


def _provenance(
    pair: Pair, config: mm.MirrorConfig, translation: Translation, sha: str
) -> mm.Provenance:
    version = getattr(steps.engine_for(config.engine), "version", "")
    return mm.Provenance(
        source=pair.source,
        source_sha256=sha,
        engine=translation.engine,
        engine_version=version,
        target=config.target.gfx_arch,
        verdict="not-run",
        body_sha256="",
    )


def _write_new(
    root: Path,
    pair: Pair,
    config: mm.MirrorConfig,
    options: PortOptions,
    status: mm.MirrorStatus,
    translation: Translation,
    sha: str,
) -> Outcome:
    notes = []
    if status.state.is_protected or status.state is mm.MirrorState.KEPT:
        backup = save_backup(root, pair.mirror, (root / pair.mirror).read_bytes())
        notes.append(f"your version of {pair.mirror} is saved as {backup}")
    provenance = _provenance(pair, config, translation, sha)
    if translation.has_errors:
        return _write_untranslated(root, pair, config, provenance, translation, notes)
    mm.write_atomic(root / pair.mirror, mm.render_mirror(translation.text, provenance))
    if not options.verify:
        return Outcome(pair, "wrote", translation.diagnostics, None, tuple(notes))
    check = steps.verify_pair(root, pair.source, pair.mirror)
    final = replace(provenance, verdict=check.status)
    mm.write_atomic(root / pair.mirror, mm.render_mirror(translation.text, final))
    found = translation.diagnostics + verdict_findings(root, pair, check, strict=False)
    return Outcome(pair, "wrote", found, check.status, tuple(notes))


def _write_untranslated(
    root: Path,
    pair: Pair,
    config: mm.MirrorConfig,
    provenance: mm.Provenance,
    translation: Translation,
    notes: list[str],
) -> Outcome:
    """Like `cass port`: the port is written with what the engine could not port, listed at its
    top (it will not build until someone finishes it), and the commit stops with the ways out."""
    errors = [d for d in translation.diagnostics if d.severity is Severity.ERROR]
    body, verdict = mm.generated_body(pair.source, translation.text, errors)
    final = replace(provenance, verdict=verdict)
    mm.write_atomic(root / pair.mirror, mm.render_mirror(body, final))
    found = translation.diagnostics + (
        finding(
            pair.mirror,
            Severity.ERROR,
            "port-untranslated",
            f"written with {len(errors)} construct(s) the {config.engine} engine cannot port; "
            + advice.untranslated(pair.source, pair.mirror, config),
        ),
    )
    return Outcome(pair, "wrote", found, mm.UNTRANSLATED, tuple(notes))


def _adopt(
    root: Path, pair: Pair, config: mm.MirrorConfig, status: mm.MirrorStatus, sha: str
) -> Outcome:
    """Keep the file where the mirror goes as the user's own port of the source as it is now: a
    header marked hand-edited goes on top of its unchanged text (a cass mirror is only marked)."""
    if status.state is mm.MirrorState.MISSING:
        return Outcome(
            pair,
            "failed",
            (
                finding(
                    pair.source,
                    Severity.ERROR,
                    "mirror-missing",
                    f"nothing to adopt: {pair.mirror} does not exist; create it: "
                    f"`{advice.port_command([pair.source])}`",
                ),
            ),
        )
    if status.provenance is not None:  # already a cass mirror: mark it
        if status.state is mm.MirrorState.KEPT:
            return Outcome(pair, "kept")
        marked = replace(status.provenance, hand_edited=True, source_sha256=sha)
        mm.write_atomic(root / pair.mirror, mm.render_header(marked) + (status.body or ""))
        return Outcome(pair, "adopted")
    existing = (root / pair.mirror).read_text(encoding="utf-8", errors="surrogateescape")
    version = getattr(steps.engine_for(config.engine), "version", "")
    provenance = mm.Provenance(
        source=pair.source,
        source_sha256=sha,
        engine=config.engine,
        engine_version=version,
        target=config.target.gfx_arch,
        verdict="not-run",
        body_sha256="",
        hand_edited=True,
    )
    mm.write_atomic(root / pair.mirror, mm.render_mirror(existing, provenance))
    return Outcome(pair, "adopted")


def _merge(
    root: Path,
    pair: Pair,
    config: mm.MirrorConfig,
    status: mm.MirrorStatus,
    translation: Translation,
    sha: str,
) -> Outcome:
    assert status.provenance is not None  # protected states other than FOREIGN have a header

    def regenerate(old_source: str) -> str:
        return steps.translate(old_source, pair.source, config).text

    base = last_generated_body(root, pair.mirror, status.provenance, regenerate)
    if base is None:
        return Outcome(
            pair,
            "failed",
            (
                finding(
                    pair.mirror,
                    Severity.ERROR,
                    "merge-no-base",
                    "cannot merge: the text cass last generated for it is not in git history "
                    "(shallow clone or never committed); merge by hand and keep your version: "
                    f"`{advice.port_command([pair.source], 'adopt')}`, or regenerate it: "
                    f"`{advice.port_command([pair.source], 'force')}` (your version is backed "
                    "up)",
                ),
            ),
        )
    ours = status.body or ""
    result = merge_texts(base, ours, translation.text)
    backup = save_backup(root, pair.mirror, (root / pair.mirror).read_bytes())
    provenance = replace(
        _provenance(pair, config, translation, sha),
        body_sha256=mm.sha256_text(translation.text),
        hand_edited=True,
    )
    mm.write_atomic(root / pair.mirror, mm.render_header(provenance) + result.text)
    notes = [f"your version is saved as {backup}"]
    diagnostics = tuple(translation.diagnostics)
    if result.conflicts:
        diagnostics += (
            finding(
                pair.mirror,
                Severity.ERROR,
                "merge-conflict",
                f"{result.conflicts} conflict(s) left between your edits and the new "
                "translation: resolve the <<<<<<< / >>>>>>> blocks",
            ),
        )
    return Outcome(pair, "merged", diagnostics, None, tuple(notes))
