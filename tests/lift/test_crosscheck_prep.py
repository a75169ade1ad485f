"""The NVIDIA cross-check's two halves (benchmarks/lift_crosscheck_h200.py): `--lift-only` lifts a
benchmark task's sm_80 and sm_90 SASS to NVPTX with a manifest and no stale PTX; the GPU side's
replayed nvcc build links that PTX into the program (built here; running it needs the GPU)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cass.runner.toolchain import has_tool

ROOT = Path(__file__).resolve().parents[2]
TASK = "crypto_hashing/bloom_filter_fnv"
pytestmark = pytest.mark.skipif(
    not (has_tool("nvcc") and has_tool("llc-16")), reason="needs nvcc and llc-16 (`cass setup`)"
)


@pytest.fixture(scope="module")
def xcheck(benchmark_script):
    return benchmark_script("lift_crosscheck_h200")


@pytest.fixture(scope="module")
def prepared(xcheck, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("xcheck")
    (out / "crypto_hashing__bloom_filter_fnv.sm_80.ptx").write_text(
        "stale lift from an earlier run\n"
    )
    assert xcheck.main(["--lift-only", str(out), "--task", TASK, "--jobs", "1"]) == 0
    return out


def test_lift_only_writes_ptx_for_both_archs_and_a_manifest(prepared: Path) -> None:
    for arch in ("sm_80", "sm_90"):
        ptx = (prepared / f"crypto_hashing__bloom_filter_fnv.{arch}.ptx").read_text()
        assert ".entry" in ptx and "stale lift" not in ptx and ".target sm_90" in ptx
    manifest = json.loads((prepared / "manifest.json").read_text())
    entry = manifest["tasks"][TASK]
    assert (entry["sm_80"], entry["sm_90"]) == ("lifted", "lifted") and entry["lifter"] == manifest[
        "lifter"
    ]


def test_a_failed_lift_leaves_its_reason_for_the_gpu_side(
    xcheck, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(source: Path, arch: str) -> str:
        raise RuntimeError(f"lift: unsupported SASS instruction HMMA.16816.F32 ({arch})")

    monkeypatch.setattr(xcheck, "lift_to_ptx", refuse)
    task_dir = ROOT / "models" / "bench" / "tasks" / TASK
    (tmp_path / "crypto_hashing__bloom_filter_fnv.sm_90.ptx").write_text("an earlier lift\n")
    task, outcome = xcheck.lift_only(str(task_dir), tmp_path)
    assert (
        task == TASK
        and outcome["sm_80"] == "lift: unsupported SASS instruction HMMA.16816.F32 (sm_80)"
    )
    (tmp_path / "manifest.json").write_text(json.dumps({"tasks": {task: outcome}}))
    assert "HMMA.16816.F32 (sm_90)" in xcheck.not_lifted_reason(
        tmp_path, task_dir / "main.cu", "sm_90"
    )
    assert not list(tmp_path.glob("*.ptx"))


@pytest.mark.toolchain
def test_the_replayed_nvcc_build_links_the_lifted_ptx(
    xcheck, prepared: Path, tmp_path: Path
) -> None:
    source = ROOT / "models" / "bench" / "tasks" / TASK / "main.cu"
    exe = tmp_path / "lifted"
    xcheck.build_with_ptx(source, prepared / "crypto_hashing__bloom_filter_fnv.sm_80.ptx", exe, [])
    assert exe.is_file() and exe.stat().st_size > 0


def test_the_gpu_side_judges_with_the_verdict_comparator_and_the_task_tolerance(
    xcheck, tmp_path: Path
) -> None:
    import subprocess

    source = tmp_path / "main.cu"
    source.write_text("// cass: rtol = 1e-3\nint main() { return 0; }\n")

    def ran(stdout: str, code: int = 0) -> subprocess.CompletedProcess:
        return subprocess.CompletedProcess([], code, stdout, "")

    reference = ran("energy 1.000000 hits 12345\n")
    assert (
        xcheck.differences(source, reference, ran("energy 1.000400 hits 12345\n")) == []
    )  # float atomics' order
    [integer] = xcheck.differences(source, reference, ran("energy 1.000000 hits 12346\n"))
    assert "integers differ (integers exact)" in integer
    assert xcheck.differences(source, reference, ran("energy 1.1 hits 12345\n"))
    assert any(
        "exit codes differ" in d
        for d in xcheck.differences(source, reference, ran(reference.stdout, 1))
    )
