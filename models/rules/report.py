"""Diagnostics as text (compiler style), JSON, or SARIF 2.1.0 (read by code-scanning services)."""

from __future__ import annotations

import json
from collections.abc import Iterable

from cass.models.rules.codes import DIAGNOSTIC_CODES
from cass.runner.diagnostics import Diagnostic, Severity

FORMATS = ("text", "json", "sarif")
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_LEVEL = {
    Severity.ERROR: "error",
    Severity.WARNING: "warning",
    Severity.INFO: "note",
    Severity.HINT: "note",
}


def render_text(diagnostics: Iterable[Diagnostic]) -> str:
    return "".join(d.render() + "\n" for d in diagnostics)


def render_json(diagnostics: Iterable[Diagnostic]) -> str:
    return json.dumps([d.to_dict() for d in diagnostics], indent=2) + "\n"


def _region(line: int, column: int, end_line: int | None, end_column: int | None) -> dict:
    region = {"startLine": line, "startColumn": column}
    if end_line is not None and end_column is not None:
        region.update(endLine=end_line, endColumn=end_column)
    return region


def _sarif_result(d: Diagnostic, rule_index: dict[str, int]) -> dict:
    result = {
        "ruleId": d.code,
        "level": SARIF_LEVEL[d.severity],
        "message": {"text": d.message},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": {"uri": d.path},
                    "region": _region(d.line, d.column, d.end_line, d.end_column),
                }
            }
        ],
    }
    if d.code in rule_index:
        result["ruleIndex"] = rule_index[d.code]
    if d.fix is not None:
        f = d.fix
        result["fixes"] = [
            {
                "description": {"text": f.message},
                "artifactChanges": [
                    {
                        "artifactLocation": {"uri": d.path},
                        "replacements": [
                            {
                                "deletedRegion": _region(
                                    f.line, f.column, f.end_line, f.end_column
                                ),
                                "insertedContent": {"text": f.replacement},
                            }
                        ],
                    }
                ],
            }
        ]
    return result


def sarif_log(diagnostics: Iterable[Diagnostic], tool_version: str) -> dict:
    """One SARIF run listing every rules-engine code as a rule and each diagnostic as a result."""
    codes = list(DIAGNOSTIC_CODES.values())
    rule_index = {c.code: i for i, c in enumerate(codes)}
    rules = [
        {
            "id": c.code,
            "name": "".join(
                w.capitalize() for w in c.title.replace("_", " ").split() if w.isalnum()
            ),
            "shortDescription": {"text": c.title},
            "fullDescription": {"text": c.explanation},
            "help": {"text": f"{c.explanation} See {c.anchor}."},
            "defaultConfiguration": {"level": SARIF_LEVEL[c.severity]},
        }
        for c in codes
    ]
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": {"name": "cass", "version": tool_version, "rules": rules}},
                "results": [_sarif_result(d, rule_index) for d in diagnostics],
            }
        ],
    }


def render(diagnostics: list[Diagnostic], fmt: str, tool_version: str) -> str:
    if fmt == "text":
        return render_text(diagnostics)
    if fmt == "json":
        return render_json(diagnostics)
    return json.dumps(sarif_log(diagnostics, tool_version), indent=2) + "\n"
