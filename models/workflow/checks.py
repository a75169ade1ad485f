"""Read-only checks of one (source, mirror) pair: its state, conflict markers, the verdict its
header records, and (on request) a fresh run of the pair. The workers of cass-check, cass-verify
and the CI gate."""

from __future__ import annotations

import re
from pathlib import Path

from cass.models.workflow import mirror as mm
from cass.models.workflow import steps
from cass.models.workflow.outcomes import FIXES, Outcome, quoted
from cass.models.workflow.pairs import Pair, finding, read_mirror, read_source
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
    if verdict in steps.FAILING_VERDICTS:
        out.append(finding(pair.mirror, Severity.ERROR, f"port-{verdict}",
                           f"its header records verdict {verdict!r}: fix the port, then "
                           f"`cass-port --force {pair.source}` or `cass-verify`"))
    return tuple(out)


def verdict_findings(pair: Pair, check: steps.Check, strict: bool) -> tuple[Diagnostic, ...]:
    """A verdict as findings on the mirror: mismatch/error are errors; unverifiable a warning
    (an error when strict); match none."""
    if check.status == "match":
        return ()
    severity = Severity.ERROR if check.failed or strict else Severity.WARNING
    via = f" ({check.backends})" if check.backends else ""
    message = f"port {check.status}{via}: {check.message or 'no details'}"
    if check.details:
        message += "; " + "; ".join(check.details[:5])
    return (finding(pair.mirror, severity, f"port-{check.status}", message),)


def check_one(root: Path, pair: Pair, config: mm.MirrorConfig, verify: bool = False,
              strict: bool = False) -> Outcome:
    """The worker of cass-check and the CI gate for one pair (reads only)."""
    _, sha = read_source(root, pair.source)
    status = mm.classify(sha, read_mirror(root, pair.mirror), config, pair.source)
    found = state_findings(pair, status) + body_findings(pair, status)
    verdict = status.provenance.verdict if status.provenance else None
    if verify and status.state not in (mm.MirrorState.MISSING, mm.MirrorState.FOREIGN):
        check = steps.verify_pair(root, pair.source, pair.mirror)
        verdict = check.status
        found = tuple(d for d in found if not d.code.startswith("port-"))
        found += verdict_findings(pair, check, strict)
    return Outcome(pair, status.state.value, found, verdict)


def verify_one(root: Path, pair: Pair, config: mm.MirrorConfig, strict: bool = False,
               rerun: bool = False) -> Outcome:
    """The worker of cass-verify for one pair. A mirror that is current (the source and the
    generated body are exactly those cass-port verified) keeps its recorded `match` verdict
    unless `rerun`; everything else is run."""
    mirror = read_mirror(root, pair.mirror)
    if mirror is None:
        return Outcome(pair, "failed", (finding(pair.source, Severity.ERROR, "mirror-missing",
                       f"no mirror {pair.mirror} to verify: run cass-port on it first"),))
    status = mm.classify(read_source(root, pair.source)[1], mirror, config, pair.source)
    recorded = status.provenance.verdict if status.provenance else None
    if not rerun and status.state is mm.MirrorState.CURRENT and recorded == "match":
        return Outcome(pair, "recorded", (), "match")
    check = steps.verify_pair(root, pair.source, pair.mirror)
    return Outcome(pair, "verified", verdict_findings(pair, check, strict), check.status)
