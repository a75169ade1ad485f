"""The harness end to end: the real rules engine ports tiny tasks, the real emulator runs them,
and the runner compares them with recorded references (written here as fixtures, the way the
recorder writes them on an NVIDIA machine)."""

from __future__ import annotations

from pathlib import Path

import pytest
from cass.models.bench.harness import RunConfig, TaskResult, evaluate, run_benchmark, verdict_status
from cass.models.bench.report import load_results, markdown, summarize, write_reports
from cass.models.bench.tasks import discover_tasks
from cass.runner.recorded import write_record
from cass.runner.results import RunResult
from cass.runner.spec import load_run_spec

pytestmark = pytest.mark.toolchain


def record(source: Path, stdout: str) -> None:
    """A reference as the NVIDIA recorder writes it (a fixture: this machine has no GPU)."""
    result = RunResult(
        backend="nvidia", exit_code=0, stdout=stdout, info={"gpu": "reference fixture"}
    )
    write_record(source, load_run_spec(source), result)


VERDICTS = [  # (runner verdict, the port ran, benchmark status, stages reached)
    ("match", True, "pass", {"compiled", "ran", "matched"}),
    ("mismatch", True, "mismatch", {"compiled", "ran"}),
    ("error", True, "runtime-error", {"compiled"}),
    ("error", False, "compile-error", set()),
    ("unverifiable", False, "unverifiable", set()),
]


@pytest.mark.parametrize(("verdict", "ran", "status", "stages"), VERDICTS)
def test_verdicts_map_to_statuses(verdict: str, ran: bool, status: str, stages: set[str]) -> None:
    got_status, got_stages = verdict_status(verdict, ran)
    assert got_status == status and {k for k, v in got_stages.items() if v} == stages


def test_a_library_the_backend_lacks_is_reported_never_passed(
    tasks_root: Path, make_task, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setenv("CASS_CACHE_DIR", str(tmp_path / "cache"))  # no rocThrust installed there
    make_task(tasks_root, "sorting", "uses_thrust", features='["thrust"]', libraries='["thrust"]')
    [task] = discover_tasks(tasks_root)
    result = evaluate(task, "rules", RunConfig(out_dir=tmp_path / "out"))
    assert result.status == "unsupported-library" and not result.passed
    assert "thrust" in result.message and not result.translated


def test_without_a_reference_the_port_is_still_translated_and_built(
    tasks_root: Path, make_task, tmp_path: Path
) -> None:
    make_task(tasks_root, "statistics", "unrecorded")
    [task] = discover_tasks(tasks_root)
    result = evaluate(task, "rules", RunConfig(out_dir=tmp_path / "out"))
    assert result.status == "no-reference" and not result.passed
    assert result.translated and result.compiled and not result.ran
    assert "main.cu.recorded.toml not found" in result.message


def test_run_scores_cache_and_report(
    tasks_root: Path, make_task, tiny_stdout: str, tmp_path: Path
) -> None:
    good = make_task(tasks_root, "sorting", "good")
    bad = make_task(tasks_root, "statistics", "bad")
    record(good / "main.cu", tiny_stdout)
    record(
        bad / "main.cu", tiny_stdout.replace("5559680", "5000000")
    )  # a reference the port cannot match
    tasks = discover_tasks(tasks_root)
    config = RunConfig(engines=("rules",), backend="emulator", jobs=2, out_dir=tmp_path / "out")
    seen: list[TaskResult] = []
    results = run_benchmark(tasks, config, on_result=seen.append)
    assert [(r.task, r.status) for r in results] == [
        ("sorting/good", "pass"),
        ("statistics/bad", "mismatch"),
    ]
    assert len(seen) == 2 and not any(r.cached for r in results)
    assert results[0].matched and results[1].ran and not results[1].matched
    assert "differs" in results[1].message

    again = run_benchmark(tasks, RunConfig(**{**config.__dict__, "resume": True}))
    assert [(r.status, r.cached) for r in again] == [("pass", True), ("mismatch", True)]
    (good / "main.cu").write_text((good / "main.cu").read_text() + "// changed\n")
    changed = run_benchmark(tasks[:1], RunConfig(**{**config.__dict__, "resume": True}))
    assert changed[0].status == "no-reference" and not changed[0].cached  # the record is now stale

    paths = write_reports(
        results,
        config.out_dir,
        {"backend": "emulator", "level": "source", "command": "cass bench run"},
    )
    loaded, meta = load_results(config.out_dir)
    assert [r.status for r in loaded] == ["pass", "mismatch"] and meta["backend"] == "emulator"
    text = paths["markdown"].read_text()
    assert "| sorting | 100.0% (1/1) |" in text and "**50.0% (1/2)**" in text
    assert "| statistics/bad | mismatch |" in text and "| rules | 2 | 2 | 2 | 2 | 1 |" in text
    assert paths["plot"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_summary_counts_every_status_and_ratios() -> None:
    def result(task: str, domain: str, status: str, ratio: float | None = None) -> TaskResult:
        return TaskResult(
            task,
            domain,
            "rules",
            "emulator",
            "source",
            status,
            "",
            runtime_ratio=ratio,
            memory_ratio=ratio,
        )

    results = [result("a", "sorting", "pass", 2.0), result("b", "sorting", "pass", 8.0),
               result("c", "sorting", "unsupported-library"), result("d", "graph", "no-reference")]  # fmt: skip
    overall = summarize(results)["rules"]["overall"]
    assert overall["passed"] == 2 and overall["tasks"] == 4 and overall["accuracy"] == 0.5
    assert (
        overall["statuses"]["unsupported-library"] == 1 and overall["statuses"]["no-reference"] == 1
    )
    assert overall["runtime_ratio"] == pytest.approx(4.0)
    text = markdown(summarize(results), {"backend": "emulator", "level": "source"})
    assert text.index("| sorting |") < text.index("| graph algorithms |")  # catalog order


def test_a_crashing_engine_fails_its_task_not_the_run(tasks_root: Path, make_task, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    from cass.models import registry

    class CrashingEngine:
        name, version = "crashing", "0"

        def translate(self, request):
            raise IndexError("list index out of range")

    monkeypatch.setitem(registry.ENGINES, "crashing", CrashingEngine)
    make_task(tasks_root, "sorting", "a")
    [task] = discover_tasks(tasks_root)
    [result] = run_benchmark([task], RunConfig(engines=("crashing",), out_dir=tmp_path / "out"))
    assert result.status == "translate-error" and "crashed: IndexError" in result.message


def test_time_limits_scale_for_the_emulator_unless_given(
    tasks_root: Path, make_task, tmp_path: Path
) -> None:
    make_task(tasks_root, "sorting", "a")  # its task.toml says timeout_s = 120
    [task] = discover_tasks(tasks_root)
    assert RunConfig(backend="emulator").spec_for(task).timeout_s == 600.0
    assert RunConfig(backend="rocm").spec_for(task).timeout_s == 120.0
    assert RunConfig(backend="emulator", timeout_s=30).spec_for(task).timeout_s == 30.0


def test_cache_keys_follow_local_headers_and_cass_code(tasks_root: Path, make_task, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    from cass.models.bench import harness
    from cass.runner import fingerprint

    folder = make_task(tasks_root, "sorting", "with_header")
    (folder / "params.cuh").write_text("#define SCALE 2\n")
    (folder / "main.cu").write_text('#include "params.cuh"\n' + (folder / "main.cu").read_text())
    [task] = discover_tasks(tasks_root)
    config = RunConfig(out_dir=tmp_path / "out")
    key = harness.cache_key(task, "rules", "1", config)
    assert harness.cache_key(task, "rules", "1", config) == key
    (folder / "params.cuh").write_text("#define SCALE 3\n")
    assert harness.cache_key(task, "rules", "1", config) != key
    code = harness.verdict_code_digest()
    assert (
        len(code) == 64 and code == harness.verdict_code_digest.__wrapped__()
    )  # from content, every time
    key = harness.cache_key(task, "rules", "1", config)
    harness.verdict_code_digest.cache_clear()
    try:  # an edit anywhere in cass's runner/models code: every key changes
        monkeypatch.setattr(fingerprint, "code_digest", lambda roots, exclude=(): "0" * 64)
        assert harness.verdict_code_digest() != code
        assert harness.cache_key(task, "rules", "1", config) != key
    finally:
        harness.verdict_code_digest.cache_clear()
