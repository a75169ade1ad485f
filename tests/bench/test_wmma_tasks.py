"""WMMA (mma.h) bench tasks: their rules-engine ports, made for HIP 5.5 (rocWMMA has gfx11 from
ROCm 5.5), verify end to end on the emulator against their H200 records with cass's reference
rocWMMA; at the default target (HIP 5.2) the port is refused at `<mma.h>`, with the option that
makes it, and the task's `[port] hip_version` is what the benchmark ports it for."""

from pathlib import Path

import pytest
from cass.models.bench.tasks import discover_tasks, validate_task
from cass.server.cli import main

ROOT = Path(__file__).resolve().parents[2] / "models" / "bench" / "tasks"
GEMM = ROOT / "linear_algebra" / "wmma_hgemm_tiled"


def test_wmma_tasks_are_ported_for_hip_5_5_and_well_formed():
    tasks = discover_tasks(pattern="wmma_*")
    assert {t.ident for t in tasks} == {
        "linear_algebra/wmma_hgemm_tiled",
        "ml_operators/wmma_attention_block",
    }
    for task in tasks:
        assert task.hip_version == "5.5" and task.libraries == ("wmma",)
        assert validate_task(task.directory) == []
        assert 'gpu = "NVIDIA H200"' in task.reference_path.read_text()


def test_a_malformed_port_table_is_located(tmp_path):
    folder = tmp_path / "linear_algebra" / "wmma_hgemm_tiled"
    folder.mkdir(parents=True)
    (folder / "main.cu").write_text((GEMM / "main.cu").read_text())
    meta = (GEMM / "task.toml").read_text().replace('hip_version = "5.5"', "hip_version = 5.5")
    (folder / "task.toml").write_text(meta + "\n[port.extra]\n")
    problems = [p.render() for p in validate_task(folder)]
    assert any(":7: [port] hip_version 5.5: write it as a string" in p for p in problems)


def test_at_the_default_target_the_port_is_refused_with_the_way_on(capsys, tmp_path):
    assert main(["port", str(GEMM / "main.cu"), "-o", str(tmp_path / "main.hip")]) == 1
    err = capsys.readouterr().err
    assert "main.cu:11:10: error: <mma.h>: rocWMMA supports gfx1100 from ROCm 5.5" in err
    assert "--hip-version 5.5 or later" in err and "cass's reference rocWMMA" in err


@pytest.mark.slow
@pytest.mark.parametrize(
    "task", ["linear_algebra/wmma_hgemm_tiled", "ml_operators/wmma_attention_block"]
)
def test_wmma_ports_verify_end_to_end_against_the_h200(capsys, task):
    source = ROOT / task / "main.cu"
    argv = ["verify", str(source), "--hip-version", "5.5", "--port-backend", "emulator"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "MATCH" in out and "MISMATCH" not in out
    assert "rocWMMA ran as cass's reference implementations for emulated verification" in out
