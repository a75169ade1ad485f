"""`cass bench` from the command line: list, validate (with real nvcc on a sample), run, report."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from cass.models.bench.tasks import discover_tasks
from cass.models.bench.validate import compile_problems, find_nvcc
from cass.server.cli import main


def cass(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_list_as_json_counts_tasks_per_domain(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cass(capsys, "bench", "list", "--domain", "sorting", "--json")
    data = json.loads(out)
    assert code == 0 and data["domains"]["sorting"]["tasks"] == len(data["tasks"]) >= 8
    assert data["features"]["shared_memory"] >= 1 and "curand" in data["features"]


def test_list_prints_the_coverage_tables(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cass(capsys, "bench", "list")
    assert code == 0 and "feature coverage" in out and "memory_operations" in out


def test_validate_without_compiling_passes_on_the_shipped_tasks(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = cass(capsys, "bench", "validate", "--no-compile")
    assert code == 0 and "0 problem(s)" in out


def test_unknown_engine_backend_and_empty_selection_are_clear_errors(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = cass(capsys, "bench", "run", "--engine", "telepathy")
    assert code == 2 and "telepathy engine is not available" in err and "Traceback" not in err
    code, _, err = cass(capsys, "bench", "run", "--backend", "cuda")
    assert code == 2 and "unknown backend 'cuda'" in err
    code, _, err = cass(capsys, "bench", "list", "--task", "no_such_task_*")
    assert code == 2 and "no benchmark task matches" in err


def test_report_without_results_says_what_to_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _, err = cass(capsys, "bench", "report", "--out", str(tmp_path))
    assert code == 2 and "cass bench run --out" in err


@pytest.mark.toolchain
def test_a_sample_of_tasks_compiles_with_nvcc() -> None:
    nvcc = find_nvcc()
    sample = [
        t
        for t in discover_tasks()
        if t.name in ("warp_shuffle_atomic_sum", "hgemm_half", "inline_ptx_loads")
    ]
    assert len(sample) == 3
    for task in sample:
        assert compile_problems(nvcc, task, ("sm_90",)) == []


@pytest.mark.toolchain
def test_nvcc_errors_are_located(
    tmp_path: Path, tasks_root: Path, make_task, tiny_source: str
) -> None:
    make_task(
        tasks_root,
        "sorting",
        "broken",
        source=tiny_source.replace("out[i] = i * i;", "out[i] = i * j;"),
    )
    [task] = discover_tasks(tasks_root)
    [problem] = compile_problems(find_nvcc(), task, ("sm_90",))
    assert problem.line == 10 and 'identifier "j" is undefined' in problem.message


@pytest.mark.toolchain
def test_run_end_to_end_writes_the_reports(tmp_path: Path) -> None:
    """The real command on one shipped task that the rules engine ports and the emulator runs
    correctly: it must pass against its H200 reference, and the reports must be written."""
    out = tmp_path / "out"
    proc = subprocess.run(
        [sys.executable, "-m", "cass.server.cli", "bench", "run", "--task", "cholesky_batched", "--out", str(out)],
        check=False, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    payload = json.loads((out / "results.json").read_text())
    [result] = payload["results"]
    assert (result["status"], result["task"]) == ("pass", "linear_algebra/cholesky_batched"), result
    assert result["translated"]
    assert payload["summary"]["rules"]["overall"]["tasks"] == 1
    assert (out / "report.md").is_file() and (out / "accuracy.png").is_file()
