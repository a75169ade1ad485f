"""Read-only checks of one (source, mirror) pair: its state, conflict markers, the verdict its
header records, and (on request) a fresh run of the pair. The workers of cass-check, cass-verify
and the CI gate."""

from __future__ import annotations

import re
from pathlib import Path

from cass.models.workflow import advice, steps
from cass.models.workflow import mirror as mm
from cass.models.workflow.outcomes import Outcome
from cass.models.workflow.pairs import Pair, finding, read_mirror, read_source
from cass.runner.diagnostics import CassError, Diagnostic, Severity

CONFLICT_MARKER = re.compile(r"^(<<<<<<<|>>>>>>>|\|\|\|\|\|\|\|) ", re.MULTILINE)


def state_findings(
    pair: Pair, status: mm.MirrorStatus, config: mm.MirrorConfig
) -> tuple[Diagnostic, ...]:
    fix = advice.for_state(status.state, pair.source, config)
    if not fix:
        return ()
    return (
        finding(
            pair.mirror, Severity.ERROR, f"mirror-{status.state.value}", f"{status.reason}; {fix}"
        ),
    )


def body_findings(
    pair: Pair, status: mm.MirrorStatus, config: mm.MirrorConfig
) -> tuple[Diagnostic, ...]:
    """Conflict markers left in a mirror, and a failing verdict recorded in its header (of the
    generated text: a mirror marked hand-edited is judged by running it, not by its header)."""
    out: list[Diagnostic] = []
    marker = CONFLICT_MARKER.search(status.body or "")
    if marker:
        line = (status.body or "")[: marker.start()].count("\n") + 1 + mm.HEADER_LINES
        out.append(
            finding(
                pair.mirror,
                Severity.ERROR,
                "mirror-conflict-markers",
                "unresolved merge conflict markers; resolve them by hand (then git "
                "add the file), or regenerate it: "
                f"`{advice.port_command([pair.source], 'force')}`",
                line,
            )
        )
    verdict = status.provenance.verdict if status.provenance else ""
    if status.state is mm.MirrorState.KEPT:
        return tuple(out)
    if verdict == mm.UNTRANSLATED:
        out.append(
            finding(
                pair.mirror,
                Severity.ERROR,
                "port-untranslated",
                f"{pair.source} has constructs the {config.engine} engine cannot port; "
                + advice.untranslated(pair.source, pair.mirror, config),
            )
        )
    elif verdict in steps.FAILING_VERDICTS:
        out.append(
            finding(
                pair.mirror,
                Severity.ERROR,
                f"port-{verdict}",
                f"its header records verdict {verdict!r} for the generated port: "
                + advice.wrong_port(pair.source, pair.mirror, config),
            )
        )
    return tuple(out)


def reference_state(root: Path, source: str) -> str:
    """The NVIDIA reference of `source`: "fresh", "stale" (recorded for another version of the
    source or its headers) or "missing"."""
    from cass.runner.recorded import StaleRecord, load_recorded
    from cass.runner.spec import load_run_spec

    try:
        load_recorded(root / source, load_run_spec(root / source))
    except StaleRecord:
        return "stale"
    except CassError:
        return "missing"
    return "fresh"


def verdict_findings(
    root: Path, pair: Pair, check: steps.Check, strict: bool
) -> tuple[Diagnostic, ...]:
    """A verdict as findings on the mirror: mismatch/error are errors; unverifiable a warning
    (an error when strict, i.e. --require-verified); match none. An unverifiable pair whose
    NVIDIA reference is stale or missing says so, with the command that records one."""
    if check.status == "match":
        return ()
    severity = Severity.ERROR if check.failed or strict else Severity.WARNING
    gate = "" if strict else " (a --require-verified gate fails on this)"
    if check.status == "unverifiable":
        reference = reference_state(root, pair.source)
        if reference != "fresh":
            what = (
                "is stale (the source or a header it includes changed since it was recorded)"
                if reference == "stale"
                else "was never recorded"
            )
            return (
                finding(
                    pair.mirror,
                    severity,
                    f"reference-{reference}",
                    f"not verified{gate}: the NVIDIA reference output of {pair.source} "
                    f"{what} and no NVIDIA GPU is here; " + advice.record_command(pair.source),
                ),
            )
    via = f" ({check.backends})" if check.backends else ""
    message = (
        f"port {check.status}{via}{gate if check.status == 'unverifiable' else ''}: "
        f"{check.message or 'no details'}"
    )
    if check.details:
        message += "; " + "; ".join(check.details[:5])
    if check.failed:
        message += "; " + advice.wrong_port(pair.source, pair.mirror, None)
    return (finding(pair.mirror, severity, f"port-{check.status}", message),)


def check_one(
    root: Path, pair: Pair, config: mm.MirrorConfig, verify: bool = False, strict: bool = False
) -> Outcome:
    """The worker of cass-check and the CI gate for one pair (reads only). `strict`
    (--require-verified): a pair that is not verified here is an error."""
    _, sha = read_source(root, pair.source)
    status = mm.classify(sha, read_mirror(root, pair.mirror), config, pair.source)
    found = state_findings(pair, status, config) + body_findings(pair, status, config)
    verdict = status.provenance.verdict if status.provenance else None
    if (
        verify
        and status.state not in (mm.MirrorState.MISSING, mm.MirrorState.FOREIGN)
        and not _untranslated(status)
    ):
        check = steps.verify_pair(root, pair.source, pair.mirror)
        verdict = check.status
        found = tuple(d for d in found if not d.code.startswith("port-"))
        found += verdict_findings(root, pair, check, strict)
    return Outcome(pair, status.state.value, found, verdict)


def _untranslated(status: mm.MirrorStatus) -> bool:
    verdict = status.provenance.verdict if status.provenance else None
    return status.state is mm.MirrorState.CURRENT and verdict == mm.UNTRANSLATED


def verify_one(
    root: Path, pair: Pair, config: mm.MirrorConfig, strict: bool = False, rerun: bool = False
) -> Outcome:
    """The worker of cass-verify for one pair. A mirror that is current (the source and the
    generated body are exactly those cass-port verified) keeps its recorded `match` verdict
    unless `rerun`; everything else is run."""
    mirror = read_mirror(root, pair.mirror)
    if mirror is None:
        return Outcome(
            pair,
            "failed",
            (
                finding(
                    pair.source,
                    Severity.ERROR,
                    "mirror-missing",
                    f"no mirror {pair.mirror} to verify; create it: "
                    f"`{advice.port_command([pair.source])}`",
                ),
            ),
        )
    status = mm.classify(read_source(root, pair.source)[1], mirror, config, pair.source)
    recorded = status.provenance.verdict if status.provenance else None
    if not (rerun or strict) and status.state is mm.MirrorState.CURRENT and recorded == "match":
        return Outcome(pair, "recorded", (), "match")
    if _untranslated(status):  # nothing to run until someone finishes the port
        return Outcome(pair, "checked", body_findings(pair, status, config), recorded)
    check = steps.verify_pair(root, pair.source, pair.mirror)
    return Outcome(pair, "verified", verdict_findings(root, pair, check, strict), check.status)
