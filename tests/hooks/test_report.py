"""The CI report formats: text, JSON, JUnit XML, SARIF 2.1.0."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from cass.models.workflow.outcomes import Outcome
from cass.models.workflow.pairs import Pair, finding
from cass.models.workflow.report import FORMATS, Report, render
from cass.runner.diagnostics import Severity

GOOD = Outcome(Pair("src/ok.cu", "src/ok.hip"), "current", (), "match")
BAD = Outcome(
    Pair("src/my kernel ü.cu", "src/my kernel ü.hip"),
    "current",
    (
        finding(
            "src/my kernel ü.hip",
            Severity.ERROR,
            "port-mismatch",
            "port mismatch: stdout line 2: expected 3, got 4",
        ),
    ),
    "mismatch",
)
ORPHAN = finding("old.hip", Severity.ERROR, "mirror-orphan", "its source old.cu no longer exists")
REPORT = Report((GOOD, BAD), (ORPHAN,), ("HEAD is detached",), "changes since main", True)


def test_text_lists_every_pair_and_the_verdict() -> None:
    text = render(REPORT, "text")
    assert "ok   src/ok.cu -> src/ok.hip (current, verdict match)" in text
    assert "FAIL src/my kernel ü.cu" in text
    assert "old.hip:1:1: error: its source old.cu no longer exists [mirror-orphan]" in text
    assert text.rstrip().endswith("2 error(s): FAILED")


def test_json_is_machine_readable() -> None:
    data = json.loads(render(REPORT, "json"))
    assert data["passed"] is False and data["scope"] == "changes since main"
    assert [p["passed"] for p in data["pairs"]] == [True, False]
    assert data["pairs"][1]["findings"][0]["code"] == "port-mismatch"
    assert data["findings"][0]["severity"] == "error"


def test_junit_has_one_case_per_pair_and_failures() -> None:
    root = ET.fromstring(render(REPORT, "junit").split("\n", 1)[1])
    suite = root.find("testsuite")
    assert suite is not None and suite.get("tests") == "3" and suite.get("failures") == "2"
    cases = suite.findall("testcase")
    assert cases[0].find("failure") is None
    assert cases[1].find("failure").get("type") == "port-mismatch"  # type: ignore[union-attr]


def test_sarif_results_point_at_files() -> None:
    sarif = json.loads(render(REPORT, "sarif"))
    assert sarif["version"] == "2.1.0"
    run = sarif["runs"][0]
    assert {r["id"] for r in run["tool"]["driver"]["rules"]} == {"port-mismatch", "mirror-orphan"}
    result = next(r for r in run["results"] if r["ruleId"] == "port-mismatch")
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "src/my%20kernel%20%C3%BC.hip"
    assert location["region"] == {"startLine": 1, "startColumn": 1}
    assert result["level"] == "error"


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_clean_report_passes_in_every_format(fmt: str) -> None:
    text = render(Report((GOOD,), scope="all files"), fmt)
    assert "FAIL" not in text and "<failure" not in text and '"level": "error"' not in text
