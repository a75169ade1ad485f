"""The `nvidia` backend on a real NVIDIA GPU (run on the H200: `pytest -m gpu tests/runner`).

Skips where no NVIDIA GPU is present. When a HIP backend is available too (the emulator), the
original's reference comes from the GPU itself and the port is judged against it.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cass.runner.backends import Unavailable, choose_backend
from cass.runner.backends.nvidia import NvidiaBackend, nvidia_gpus
from cass.runner.record import record_source
from cass.runner.recorded import load_recorded, record_path
from cass.runner.spec import load_run_spec
from cass.runner.verify import verify

pytestmark = [pytest.mark.gpu, pytest.mark.skipif(not nvidia_gpus(), reason="needs an NVIDIA GPU")]
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "verify"
REPO = Path(__file__).resolve().parents[2]


def _hip_backend_or_skip() -> None:
    try:
        choose_backend("hip")
    except Unavailable as exc:
        pytest.skip(exc.message)


def test_saxpy_runs_on_the_gpu(tmp_path: Path):
    backend = NvidiaBackend()
    assert backend.unavailable() is None
    spec = load_run_spec(EXAMPLES / "saxpy.cu").replace(runs=3)
    result = backend.run(
        EXAMPLES / "saxpy.cu", backend.build(EXAMPLES / "saxpy.cu", tmp_path), spec
    )
    assert result.exit_code == 0, result.stderr
    assert "checksum = " in result.stdout and "n = 4096, a = 2.5" in result.stdout
    assert len(result.runtimes_s) == 3 and result.peak_rss_kib
    assert result.device_peak_bytes == 2 * 4096 * 4  # cudaMalloc of x and y, seen by the interposer
    assert result.info["gpu"] and result.info["compute_capability"] and result.info["driver"]
    print(result.info, result.runtime_s, result.stdout)


def test_record_writes_a_fresh_reference(tmp_path: Path):
    source = tmp_path / "saxpy.cu"
    shutil.copy(EXAMPLES / "saxpy.cu", source)
    outcome = record_source(source)
    assert outcome.status == "recorded", outcome.detail
    recorded = load_recorded(source, load_run_spec(source))
    assert recorded.stdout == outcome.result.stdout
    assert "compute_capability" in record_path(source).read_text()


def test_batch_recorder_from_a_bare_checkout(tmp_path: Path):
    shutil.copy(EXAMPLES / "saxpy.cu", tmp_path / "saxpy.cu")
    proc = subprocess.run([sys.executable, "-I", "-S", str(REPO / "benchmarks" / "record_references.py"), str(tmp_path)],
                          capture_output=True, text=True, timeout=600)  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (tmp_path / "saxpy.cu.recorded.toml").is_file()


def test_gpu_reference_against_the_port():
    _hip_backend_or_skip()
    good = verify(EXAMPLES / "saxpy.cu", EXAMPLES / "saxpy.hip", backends=("nvidia", None))
    assert good.status == "match", good.message
    assert good.backends[0] == "nvidia"
    wrong = verify(EXAMPLES / "saxpy.cu", EXAMPLES / "saxpy_wrong.hip", backends=("nvidia", None))
    assert wrong.status == "mismatch" and wrong.mismatches[0].where == "stdout"
