"""The CI gate's report in four formats: text (terminal), JSON, JUnit XML, SARIF 2.1.0.

One `Report` (what was checked, per pair, plus findings not tied to a pair) renders to each;
JUnit has one test case per pair, SARIF one result per finding (GitHub code scanning shows them
on the pull request's lines).
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from urllib.parse import quote

from cass.models.workflow.outcomes import Outcome
from cass.runner.diagnostics import Diagnostic, Severity

FORMATS = ("text", "json", "junit", "sarif")
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_SARIF_LEVEL = {
    Severity.ERROR: "error",
    Severity.WARNING: "warning",
    Severity.INFO: "note",
    Severity.HINT: "note",
}
RULE_HELP = {  # finding code -> one-line description (SARIF rules)
    "mirror-missing": "A CUDA source has no HIP mirror",
    "mirror-stale": "The mirror was generated from an older source, engine or target",
    "mirror-hand-edited": "The mirror was edited by hand without being marked hand-edited",
    "mirror-conflict": "The mirror was edited by hand and its source changed since",
    "mirror-foreign": "A file without a cass header sits where the mirror goes",
    "mirror-orphan": "A mirror whose source no longer exists",
    "mirror-damaged": "A mirror whose cass header is damaged",
    "mirror-conflict-markers": "Unresolved merge conflict markers in a mirror",
    "port-mismatch": "The port's outputs differ from the original's",
    "port-error": "The port (or the original) failed to build or run",
    "port-unverifiable": "No backend here could run the pair",
    "port-untranslated": "The engine could not port the source; the mirror lists what is left",
    "reference-stale": "The NVIDIA reference output was recorded for another version of the source",
    "reference-missing": "No NVIDIA reference output was recorded for the source",
    "mirror-unmerged": "The mirror has unresolved merge conflicts",
    "merge-no-base": "The text cass last generated for a hand-edited mirror is not in git history",
}


@dataclass(frozen=True)
class Report:
    outcomes: tuple[Outcome, ...]
    diagnostics: tuple[Diagnostic, ...] = ()  # not tied to a pair (orphans, bad paths)
    notes: tuple[str, ...] = ()
    scope: str = ""  # "changes since <base>" or "all files"
    verified: bool = False
    required: bool = False  # --require-verified: a pair not verified here is a finding
    extra: dict = field(default_factory=dict)

    @property
    def findings(self) -> tuple[Diagnostic, ...]:
        return self.diagnostics + tuple(d for o in self.outcomes for d in o.diagnostics)

    @property
    def failed(self) -> bool:
        return any(d.severity is Severity.ERROR for d in self.findings)

    @property
    def unverified(self) -> tuple[Outcome, ...]:
        """Pairs with a mirror that no run here judged (not a match, mismatch or error)."""
        return tuple(
            o
            for o in self.outcomes
            if o.verdict not in ("match", "mismatch", "error") and o.action != "missing"
        )

    def unverified_line(self) -> str:
        """One line that never lets missing verification pass unnoticed ("" when all matched)."""
        if not self.unverified:
            return ""
        how = "they fail this gate" if self.required else "add --require-verified to fail on them"
        names = ", ".join(o.pair.source for o in self.unverified[:5])
        more = f" and {len(self.unverified) - 5} more" if len(self.unverified) > 5 else ""
        return f"cass ci: {len(self.unverified)} pair(s) NOT verified here ({names}{more}): {how}"


def cass_version() -> str:
    try:
        return version("cass")
    except PackageNotFoundError:
        return "0"


def render(report: Report, fmt: str) -> str:
    return {"text": to_text, "json": to_json, "junit": to_junit, "sarif": to_sarif}[fmt](report)


def to_text(report: Report) -> str:
    lines = [f"note: {n}" for n in report.notes]
    lines += [d.render() for d in report.diagnostics]
    for o in report.outcomes:
        verdict = f", verdict {o.verdict}" if o.verdict else ""
        mark = "FAIL" if o.failed else "ok"
        lines.append(f"{mark:4} {o.pair.source} -> {o.pair.mirror} ({o.action}{verdict})")
        lines += [f"     {d.render()}" for d in o.diagnostics]
    errors = sum(d.severity is Severity.ERROR for d in report.findings)
    if report.unverified_line():
        lines.append(report.unverified_line())
    lines.append(
        f"cass ci: {len(report.outcomes)} pair(s) checked ({report.scope}), "
        f"{errors} error(s): {'FAILED' if report.failed else 'passed'}"
    )
    return "\n".join(lines) + "\n"


def to_json(report: Report) -> str:
    data = {
        "version": 1,
        "tool": {"name": "cass", "version": cass_version()},
        "scope": report.scope,
        "verified": report.verified,
        "require_verified": report.required,
        "unverified": [o.pair.source for o in report.unverified],
        "passed": not report.failed,
        "notes": list(report.notes),
        "pairs": [
            {
                "source": o.pair.source,
                "mirror": o.pair.mirror,
                "state": o.action,
                "verdict": o.verdict,
                "passed": not o.failed,
                "findings": [d.to_dict() for d in o.diagnostics],
            }
            for o in report.outcomes
        ],
        "findings": [d.to_dict() for d in report.diagnostics],
        **report.extra,
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def to_junit(report: Report) -> str:
    failures = sum(o.failed for o in report.outcomes) + sum(
        d.severity is Severity.ERROR for d in report.diagnostics
    )
    total = f"{sum(o.elapsed_s for o in report.outcomes):.3f}"
    suites = ET.Element("testsuites", name="cass", time=total)
    suite = ET.SubElement(
        suites,
        "testsuite",
        name="cass ci",
        tests=str(len(report.outcomes) + len(report.diagnostics)),
        failures=str(failures),
        errors="0",
        time=total,
    )
    for o in report.outcomes:
        case = ET.SubElement(
            suite,
            "testcase",
            classname="cass.mirror",
            name=f"{o.pair.source} -> {o.pair.mirror}",
            time=f"{o.elapsed_s:.3f}",
        )
        errors = [d for d in o.diagnostics if d.severity is Severity.ERROR]
        if errors:
            failure = ET.SubElement(case, "failure", message=errors[0].message, type=errors[0].code)
            failure.text = "\n".join(d.render() for d in o.diagnostics)
        elif o.diagnostics:
            ET.SubElement(case, "system-out").text = "\n".join(d.render() for d in o.diagnostics)
    for d in report.diagnostics:
        case = ET.SubElement(suite, "testcase", classname="cass.files", name=d.path, time="0")
        if d.severity is Severity.ERROR:
            ET.SubElement(case, "failure", message=d.message, type=d.code).text = d.render()
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, "unicode") + "\n"


def _sarif_result(d: Diagnostic) -> dict:
    region = {"startLine": d.line, "startColumn": d.column}
    return {
        "ruleId": d.code,
        "level": _SARIF_LEVEL[d.severity],
        "message": {"text": d.message},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": {"uri": quote(d.path), "uriBaseId": "%SRCROOT%"},
                    "region": region,
                }
            }
        ],
    }


def to_sarif(report: Report) -> str:
    findings = report.findings
    codes = sorted({d.code for d in findings})
    rules = [{"id": c, "shortDescription": {"text": RULE_HELP.get(c, c)}} for c in codes]
    run = {
        "tool": {
            "driver": {
                "name": "cass",
                "version": cass_version(),
                "informationUri": "https://github.com/cass-project/cass",
                "rules": rules,
            }
        },
        "results": [_sarif_result(d) for d in findings],
        "properties": {
            "scope": report.scope,
            "verified": report.verified,
            "requireVerified": report.required,
            "unverified": [o.pair.source for o in report.unverified],
        },
    }
    sarif = {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}
    return json.dumps(sarif, indent=2, ensure_ascii=False) + "\n"
