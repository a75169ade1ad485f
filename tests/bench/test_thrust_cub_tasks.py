"""A Thrust and a CUB benchmark program end to end: ported by the rules engine, built with clang-16
for gfx1100 against the installed rocThrust/hipCUB/rocPRIM, run on the RDNA3 emulator and compared
with the output recorded on an NVIDIA H200 (`main.cu.recorded.toml`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from cass.models.bench.harness import RunConfig, evaluate
from cass.models.bench.tasks import TASKS_ROOT, load_task

pytestmark = pytest.mark.toolchain

END_TO_END = ("sorting/thrust_sort_by_key", "reduction_scan/cub_device_scan")


@pytest.mark.parametrize("ident", END_TO_END)
def test_thrust_and_cub_ports_match_the_h200(ident: str, rocm_libs_include: Path, tmp_path: Path):
    task = load_task(TASKS_ROOT / ident)
    result = evaluate(task, "rules", RunConfig(out_dir=tmp_path))
    assert result.status == "pass", result.message
    assert result.translated and result.compiled and result.ran and result.matched


def test_without_the_libraries_a_thrust_task_is_unsupported_never_passed(tmp_path, monkeypatch):
    monkeypatch.setenv("CASS_CACHE_DIR", str(tmp_path / "cache-without-libraries"))
    task = load_task(TASKS_ROOT / "sorting/thrust_sort_by_key")
    result = evaluate(task, "rules", RunConfig(out_dir=tmp_path / "out"))
    assert result.status == "unsupported-library" and not result.passed
    assert "thrust" in result.message
