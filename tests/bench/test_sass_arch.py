"""The assembly level from sm_80 and from sm_90 SASS: the real lifter on a tiny task, results,
caches and reports keyed by the arch so both live in one out folder."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from cass.models import registry
from cass.models.bench.harness import RunConfig, TaskResult, run_benchmark
from cass.models.bench.report import markdown, summarize, write_reports
from cass.models.bench.tasks import discover_tasks
from cass.models.engine import Translation, TranslationRequest
from cass.models.lift.engine import LiftEngine
from cass.runner.recorded import write_record
from cass.runner.results import RunResult
from cass.runner.spec import load_run_spec
from cass.server.cli import main

SEEN: list[
    tuple[str | None, str]
] = []  # (Target.sass_arch, the listing's "code for" line) per request


class RecordingLift(LiftEngine):
    """The real lift engine, noting which SASS it was asked to translate."""

    name = "lift-seen"

    def translate(self, request: TranslationRequest) -> Translation:
        arch_line = next(
            (ln.strip() for ln in request.text.splitlines() if "code for sm_" in ln), ""
        )
        SEEN.append((request.target.sass_arch, arch_line))
        return super().translate(request)


@pytest.mark.toolchain
def test_the_lifted_task_passes_from_sm80_and_sm90_with_results_kept_apart(
    tasks_root: Path, make_task, tiny_stdout: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(registry.ENGINES, "lift-seen", RecordingLift)
    folder = make_task(tasks_root, "sorting", "tiny")
    write_record(folder / "main.cu", load_run_spec(folder / "main.cu"),
                 RunResult(backend="nvidia", exit_code=0, stdout=tiny_stdout, info={"gpu": "reference fixture"}))  # fmt: skip
    tasks = discover_tasks(tasks_root)
    base = RunConfig(
        engines=("lift-seen",), level="assembly", out_dir=tmp_path / "out", resume=True
    )
    SEEN.clear()
    results = [
        r
        for arch in ("sm_80", "sm_90")
        for r in run_benchmark(tasks, replace(base, sass_arch=arch))
    ]
    assert [(r.sass_arch, r.status) for r in results] == [("sm_80", "pass"), ("sm_90", "pass")], (
        results
    )
    assert SEEN == [("sm_80", "code for sm_80"), ("sm_90", "code for sm_90")]
    cache = tmp_path / "out" / "cache" / "lift-seen" / "assembly" / "emulator"
    assert sorted(p.parent.name for p in cache.glob("*/sorting__tiny.json")) == ["sm_80", "sm_90"]
    again = run_benchmark(
        tasks, replace(base, sass_arch="sm_80")
    )  # from the sm_80 cache, not sm_90's
    assert again[0].cached and again[0].sass_arch == "sm_80" and len(SEEN) == 2


def _result(arch: str, status: str, domain: str = "sorting") -> TaskResult:
    return TaskResult(
        f"{domain}/t_{arch}_{status}",
        domain,
        "lift",
        "emulator",
        "assembly",
        status,
        "",
        sass_arch=arch,
    )


def test_reports_show_one_column_per_arch(tmp_path: Path) -> None:
    results = [
        _result("sm_80", "pass"),
        _result("sm_80", "mismatch"),
        _result("sm_90", "pass"),
        _result("sm_90", "pass"),
    ]
    summary = summarize(results)
    assert {c: s["overall"]["passed"] for c, s in summary.items()} == {
        "lift sm_80": 1,
        "lift sm_90": 2,
    }
    text = markdown(summary, {"level": "assembly", "sass_archs": ["sm_80", "sm_90"]})
    assert "| domain | lift sm_80 | lift sm_90 |" in text and "50.0% (1/2) | 100.0% (2/2)" in text
    paths = write_reports(
        results, tmp_path, {"level": "assembly", "sass_archs": ["sm_80", "sm_90"]}
    )
    stored = json.loads(paths["json"].read_text())
    assert {r["sass_arch"] for r in stored["results"]} == {"sm_80", "sm_90"} and paths[
        "plot"
    ].stat().st_size > 0
    source = TaskResult("sorting/x", "sorting", "rules", "emulator", "source", "pass", "")
    assert source.column == "rules"  # the source level has no arch


def test_an_unknown_sass_arch_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["bench", "run", "--engine", "lift", "--level", "assembly", "--sass-arch", "sm_70"])
    err = capsys.readouterr().err
    assert (
        code == 2
        and "unknown --sass-arch 'sm_70'" in err
        and "sm_80, sm_90 or all" in err
        and "Traceback" not in err
    )
