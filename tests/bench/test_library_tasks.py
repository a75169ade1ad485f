"""The library bench tasks awaiting references (benchmarks/library_tasks/) are well-formed tasks,
and a cuBLAS one ported by the rules engine runs to its own CHECK PASS on the emulator with cass's
reference hipBLAS."""

import tomllib
from pathlib import Path

import pytest
from cass.models.bench.catalog import FEATURES, LIBRARIES
from cass.models.engine import Target
from cass.models.rules import port_unit
from cass.runner import rocm_api_headers
from cass.runner.emulator import build_hip_program, run_program

ROOT = Path(__file__).resolve().parents[2] / "benchmarks" / "library_tasks"
TASKS = sorted(p.parent for p in ROOT.rglob("task.toml"))


def test_each_pending_task_is_a_task():
    assert len(TASKS) >= 5
    for folder in TASKS:
        meta = tomllib.loads((folder / "task.toml").read_text())
        assert meta["name"] == folder.name and meta["domain"] == folder.parent.name
        assert set(meta["features"]) <= FEATURES and set(meta["libraries"]) <= LIBRARIES.keys()
        assert '"CHECK PASS' in (folder / "main.cu").read_text()


@pytest.mark.slow
@pytest.mark.skipif(rocm_api_headers.installed() is None, reason=rocm_api_headers.FIX)
def test_a_cublas_task_port_passes_on_the_emulator(tmp_path):
    source = ROOT / "linear_algebra" / "cublas_level1_vectors" / "main.cu"
    unit = port_unit(source.read_text(), str(source), Target())
    assert not [d for d in unit.diagnostics if d.severity.value == "error"]
    port = tmp_path / "main.hip"
    port.write_text(unit.render())
    run = run_program(build_hip_program(port, tmp_path / "main"), timeout_s=300)
    assert run.exit_code == 0, run.stdout + run.stderr
    assert run.stdout.strip().splitlines()[-1] == "CHECK PASS"
    assert "isamax 1235" in run.stdout
