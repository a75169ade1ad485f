"""How a program's emulator run is judged: against an NVIDIA record of the same source with
cass's verdict comparator, or by the program's own check where no record exists."""

from __future__ import annotations

import gzip
import json

import pytest
from cass.models.dataset.pipeline import load_references
from cass.models.dataset.stages import judge_run
from cass.runner.diagnostics import CassError
from cass.runner.spec import RunSpec

SPEC = RunSpec.from_mapping({"rtol": 1e-4, "atol": 1e-6})
STDOUT = "result checksum 1.234567e+03 first 2.5e-01 mismatches 0\nhist 17\nCHECK PASS\n"
RUN = {"built": True, "finished": True, "exit_code": 0, "stdout": STDOUT, "stderr": ""}
NVIDIA = {"exit_code": 0, "stdout": STDOUT.replace("1.234567e+03", "1.234568e+03"), "stderr": "",
          "gpu": "NVIDIA H200", "date": "2026-12-03T10:00:00Z", "built": True}  # fmt: skip


def test_agreeing_with_the_nvidia_record_within_tolerance_is_verified():
    verdict = judge_run(RUN, NVIDIA, SPEC)
    assert verdict["status"] == "verified", verdict["detail"]
    assert verdict["reference_gpu"] == "NVIDIA H200"


def test_an_integer_that_differs_is_a_mismatch():
    verdict = judge_run({**RUN, "stdout": STDOUT.replace("hist 17", "hist 18")}, NVIDIA, SPEC)
    assert verdict["status"] == "mismatch"
    assert "18" in verdict["detail"] and "17" in verdict["detail"]


def test_a_failed_nvidia_run_proves_nothing():
    assert judge_run(RUN, {**NVIDIA, "exit_code": 2}, SPEC)["status"] == "reference-failed"
    unbuilt = {
        "exit_code": None,
        "built": False,
        "stdout": "",
        "stderr": "does not compile with nvcc",
    }
    assert judge_run(RUN, unbuilt, SPEC)["status"] == "reference-failed"


def test_without_a_record_only_the_programs_own_check_counts():
    assert judge_run(RUN, None, SPEC)["status"] == "self-checked"
    failed = {**RUN, "exit_code": 1, "stdout": STDOUT.replace("PASS", "FAIL")}
    assert judge_run(failed, None, SPEC)["status"] == "self-check-failed"
    assert (
        judge_run({"built": False, "error": "clang failed"}, None, SPEC)["status"] == "port-failed"
    )
    assert (
        judge_run({**RUN, "finished": False, "exit_code": None, "timed_out": True}, NVIDIA, SPEC)[
            "status"
        ]
        == "port-failed"
    )


def test_references_load_from_the_recorders_json_lines(tmp_path):
    lines = "".join(json.dumps({"sha256": f"{i:064x}", **NVIDIA}) + "\n" for i in range(3))
    (tmp_path / "refs.jsonl.gz").write_bytes(gzip.compress(lines.encode()))
    refs = load_references(tmp_path / "refs.jsonl.gz")
    assert (
        sorted(refs) == [f"{i:064x}" for i in range(3)]
        and refs[f"{1:064x}"]["gpu"] == "NVIDIA H200"
    )
    (tmp_path / "bad.jsonl").write_text("{not json\n")
    with pytest.raises(CassError, match="bad.jsonl: not a references file"):
        load_references(tmp_path / "bad.jsonl")
