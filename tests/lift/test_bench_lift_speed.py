"""benchmarks/bench_lift_speed.py on a small synthetic kernel: both versions timed in child
processes (the baseline through a `cass` namespace folder of this checkout), stage by stage,
the JSON written once and refused without --force, the Rodinia rows skipped with a message when
the corpus is absent. Real opt-16 and llc-16."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cass.runner.toolchain import has_tool

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(
    not (has_tool("opt-16") and has_tool("llc-16")), reason="needs opt-16 and llc-16 (`cass setup`)"
)


@pytest.fixture(scope="module")
def bls(benchmark_script):
    return benchmark_script("bench_lift_speed")


def test_both_versions_are_timed_per_stage(bls, tmp_path: Path, capsys) -> None:
    namespace = tmp_path / "ns" / "cass"
    namespace.mkdir(parents=True)
    for part in ("runner", "models", "server", "hooks"):
        (namespace / part).symlink_to(ROOT / part)
    out = tmp_path / "speed.json"
    argv = ["--instructions", "120", "--task", "--repeat", "1", "--corpus", str(tmp_path / "none.tgz"),
            "--baseline", str(namespace.parent), "--json", str(out)]  # fmt: skip
    assert bls.main(argv) == 0
    printed = capsys.readouterr().out
    assert "skipped the Rodinia kernels" in printed and "cpu vs baseline" in printed
    assert "1-minute load average while timing" in printed
    figures = json.loads(out.read_text())
    assert set(figures) == {"this version", "baseline"}
    for rows in figures.values():
        (row,) = rows
        assert row["label"] == "synthetic 120" and row["instructions"] == 120
        assert all(row[f"{stage}_cpu"] > 0 for stage in ("lift", "opt", "llc"))
        assert len(row["load_average"]) == 2 and min(row["load_average"]) >= 0  # one run
    assert bls.main(argv) == 1  # the figures are not replaced without --force
    assert "--force" in capsys.readouterr().err


def test_each_run_is_a_child_process_of_its_own(bls, tmp_path: Path) -> None:
    out = tmp_path / "speed.json"
    argv = ["--instructions", "120", "--task", "--repeat", "2", "--corpus", str(tmp_path / "none.tgz"),
            "--json", str(out)]  # fmt: skip
    assert bls.main(argv) == 0
    (row,) = json.loads(out.read_text())["this version"]
    assert len(row["load_average"]) == 4  # before and after each of the two runs
