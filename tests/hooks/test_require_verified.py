"""A stale NVIDIA reference never passes silently: the hook and `cass ci` show it with the command
that records a fresh one, and `cass ci --require-verified` fails on it.

Real verification: clang builds the mirror for gfx1100, the RDNA3 emulator runs it, and the
original's outputs come from a recorded reference (a fixture here, as a GPU machine writes it).
"""

from __future__ import annotations

import json

import pytest
from cass.hooks import port, verify
from cass.models.workflow import mirror as m
from cass.runner.recorded import write_record
from cass.runner.results import RunResult
from cass.runner.spec import load_run_spec
from cass.server.cli import main as cass_main

pytestmark = pytest.mark.toolchain
SAXPY_STDOUT = "y[0]=2 y[999]=1500.5 sum=751250.0\n"  # what saxpy.cu prints on an NVIDIA GPU


def record(repo) -> None:
    source = repo.root / "saxpy.cu"
    write_record(
        source,
        load_run_spec(source),
        RunResult(
            backend="nvidia", exit_code=0, stdout=SAXPY_STDOUT, info={"gpu": "reference fixture"}
        ),
    )


def test_a_stale_reference_never_passes_a_require_verified_gate(repo, example, capsys) -> None:
    repo.write("pyproject.toml", "[tool.cass.mirror]\nverify = true\n")
    repo.write("saxpy.cu", example("saxpy.cu"))
    record(repo)
    assert port.main(["saxpy.cu"]) == 1  # wrote the mirror, verified: match
    assert m.parse_mirror(repo.read("saxpy.hip"))[0].verdict == "match"  # type: ignore[index]
    repo.commit("saxpy, its reference and its mirror")
    capsys.readouterr()
    assert cass_main(["ci", "--all", "--require-verified"]) == 0

    repo.write("saxpy.cu", example("saxpy.cu").replace("// saxpy", "// saxpy, single precision"))
    assert port.main(["saxpy.cu"]) == 1  # regenerated; the reference is now stale
    out = capsys.readouterr().out
    assert "[reference-stale]" in out and "`cass verify --record saxpy.cu`" in out
    assert m.parse_mirror(repo.read("saxpy.hip"))[0].verdict == "unverifiable"  # type: ignore[index]
    repo.commit("a comment")

    assert verify.main(["saxpy.cu"]) == 0  # the hook warns (shown: verbose in the manifest)
    assert (
        "warning: not verified (a --require-verified gate fails on this)" in capsys.readouterr().out
    )
    assert verify.main(["--require-verified", "saxpy.cu"]) == 1

    assert cass_main(["ci", "--all"]) == 0
    text = capsys.readouterr().out
    assert "[reference-stale]" in text and "1 pair(s) NOT verified here (saxpy.cu)" in text
    for extra in ([], ["--no-verify"]):
        assert cass_main(["ci", "--all", "--require-verified", "--format", "json", *extra]) == 1
        report = json.loads(capsys.readouterr().out)
        finding = report["pairs"][0]["findings"][0]
        assert finding["code"] == "reference-stale" and finding["severity"] == "error"
        assert report["unverified"] == ["saxpy.cu"] and report["require_verified"] is True

    record(repo)  # what `cass verify --record saxpy.cu` writes on the GPU machine
    assert cass_main(["ci", "--all", "--require-verified"]) == 0


def test_a_pull_request_that_only_records_a_reference_checks_its_pair(
    repo, example, capsys
) -> None:
    repo.write("pyproject.toml", "[tool.cass.mirror]\nverify = false\n")
    repo.write("saxpy.cu", example("saxpy.cu"))
    port.main(["saxpy.cu"])
    repo.commit("saxpy and its mirror, no reference yet")
    repo.git("checkout", "-q", "-b", "reference")
    record(repo)
    repo.commit("the reference, recorded on the GPU machine")
    capsys.readouterr()
    assert cass_main(["ci", "--base", "main", "--require-verified", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [p["source"] for p in report["pairs"]] == ["saxpy.cu"]
    assert report["pairs"][0]["verdict"] == "match"
