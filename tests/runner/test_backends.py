"""Backends with the real toolchains of this machine: nvcc builds, located compiler errors,
honest unavailability, and the recorded backend's refusals."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from cass.runner import devmem
from cass.runner.backends import BuildFailed, Unavailable, choose_backend, get_backend
from cass.runner.backends.nvidia import NvidiaBackend, nvidia_gpus
from cass.runner.recorded import write_record
from cass.runner.results import RunResult
from cass.runner.spec import RunSpec

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "verify"
BROKEN_CU = """#include <cstdio>
__global__ void k(float* x) { x[threadIdx.x] = 1.0f; }
int main() {
    k<<<1, 32>>>(nullptr);
    undeclared_call(42);
    return 0;
}
"""


@pytest.mark.toolchain
def test_nvcc_builds_an_executable(tmp_path: Path):
    exe = NvidiaBackend().build(EXAMPLES / "saxpy.cu", tmp_path)
    assert exe.is_file() and os.access(exe, os.X_OK)
    assert exe.parent == tmp_path  # nothing written beside the source


@pytest.mark.toolchain
def test_compile_errors_point_at_the_source_line(tmp_path: Path):
    source = tmp_path / "broken.cu"
    source.write_text(BROKEN_CU)
    with pytest.raises(BuildFailed) as info:
        NvidiaBackend().build(source, tmp_path)
    first = info.value.diagnostics[0]
    assert (first.path, first.line) == (str(source), 5)
    assert "undeclared_call" in first.message
    assert source.read_text() == BROKEN_CU


@pytest.mark.skipif(bool(nvidia_gpus()), reason="this machine has an NVIDIA GPU")
def test_without_a_gpu_nvidia_says_why_and_recorded_is_next():
    assert "no NVIDIA GPU" in (NvidiaBackend().unavailable() or "")
    backend, passed_over = choose_backend("cuda")
    assert backend.name == "recorded" and passed_over[0].startswith("nvidia: no NVIDIA GPU")
    with pytest.raises(Unavailable, match="nvidia: no NVIDIA GPU"):
        choose_backend("cuda", "nvidia")


def test_unknown_and_wrong_side_backends():
    with pytest.raises(Unavailable, match="unknown backend `cuda-sim`"):
        get_backend("cuda-sim")
    with pytest.raises(Unavailable, match="backend `recorded` runs cuda programs, not hip"):
        choose_backend("hip", "recorded")


def test_rocm_reports_what_is_missing(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    """Each missing piece by itself, whatever this machine has: no hipcc, no /opt/rocm, no GPU."""
    from cass.runner import toolchain
    from cass.runner.backends import rocm

    hipcc = toolchain.Tool("hipcc", tmp_path / "hipcc", "5.2")
    tools = {"hipcc": hipcc}
    monkeypatch.setattr(
        toolchain, "find_tool", lambda name: tools.get(name) or toolchain.MissingTool(name, "x")
    )
    opt_rocm = {"/opt/rocm": tmp_path}  # an existing folder stands in for /opt/rocm
    monkeypatch.setattr(rocm, "Path", lambda p: opt_rocm.get(p, tmp_path / "absent"))
    gpus: list[toolchain.Gpu] = []
    monkeypatch.setattr(rocm, "amd_gpus", lambda: gpus)
    backend = rocm.RocmBackend()
    assert backend.unavailable() == "no AMD GPU on this machine (rocminfo and /dev/kfd show none)"
    gpus.append(toolchain.Gpu("amd", "Radeon RX 7900 XTX", "gfx1100"))
    assert backend.unavailable() is None
    del tools["hipcc"]
    assert backend.unavailable() == "no ROCm install (/opt/rocm with hipcc) on this machine"
    tools["hipcc"], opt_rocm["/opt/rocm"] = hipcc, tmp_path / "absent"
    assert backend.unavailable() == "no ROCm install (/opt/rocm with hipcc) on this machine"


def test_recorded_backend_reads_and_refuses(tmp_path: Path):
    source = tmp_path / "k.cu"
    source.write_text("int main() { return 0; }\n")
    backend = get_backend("recorded")
    with pytest.raises(Unavailable, match="no recorded reference"):
        backend.run(source, backend.build(source, tmp_path), RunSpec())
    write_record(source, RunSpec(), RunResult("nvidia", 0, "7\n", runtimes_s=(0.1,)))
    assert backend.run(source, backend.build(source, tmp_path), RunSpec()).stdout == "7\n"
    source.write_text("int main() { return 1; }\n")
    with pytest.raises(Unavailable, match="stale"):
        backend.run(source, backend.build(source, tmp_path), RunSpec())


@pytest.mark.toolchain
def test_nvcc_program_runs_under_the_runner_here_too(tmp_path: Path):
    """Without a GPU the CUDA runtime refuses, and the run says so (exit code and stderr)."""
    backend = NvidiaBackend()
    exe = backend.build(EXAMPLES / "saxpy.cu", tmp_path)
    result = backend.run(EXAMPLES / "saxpy.cu", exe, RunSpec(args=("64",), runs=2))
    assert set(result.info) >= {"gpu", "compute_capability", "driver", "cuda", "date", "host"}
    if nvidia_gpus():
        assert result.exit_code == 0 and len(result.runtimes_s) == 2
        assert result.device_peak_bytes == 2 * 64 * 4  # two cudaMalloc of 64 floats
    else:
        assert result.exit_code == 1 and "kernel failed" in result.stderr
        assert result.info["cuda"].startswith("13")
        assert result.device_peak_bytes == 0  # the interposer saw cudaMalloc fail (no device)


def test_devmem_report_takes_the_allocating_process(tmp_path: Path):
    report = tmp_path / "report"
    report.write_text("4096 2 2\n0 0 0\n")  # the program, then the launcher that started it
    assert devmem.parse_report(report) == (4096, 2, 2)
    assert devmem.parse_report(tmp_path / "none") is None
    env = devmem.preload_env({"LD_PRELOAD": "/x.so"}, report)
    assert env["LD_PRELOAD"].endswith(" /x.so") and env[devmem.REPORT_ENV] == str(report)
