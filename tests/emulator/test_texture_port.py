"""A CUDA program that uses texture objects (the bench task texture_rotate_lut: a 2D array texture
with bilinear filtering and normalized coordinates, and tex1Dfetch of linear memory), ported by the
rules engine with `cass port`, runs on the emulator and matches its H200 record with `cass
verify`."""

from __future__ import annotations

from pathlib import Path

import pytest
from cass.server.cli import main

pytestmark = pytest.mark.toolchain

TASK = (
    Path(__file__).resolve().parents[2] / "models/bench/tasks/image_processing/texture_rotate_lut"
)


def test_cass_port_keeps_the_texture_object_api(tmp_path, capsys):
    port = tmp_path / "warp.hip"
    assert main(["port", str(TASK / "main.cu"), "-o", str(port)]) == 0
    text = port.read_text()
    for name in (
        "hipMallocArray",
        "hipMemcpy2DToArray",
        "hipCreateTextureObject",
        "hipFilterModeLinear",
    ):
        assert name in text
    assert "tex2D<float>" in text and "tex1Dfetch<float>" in text
    assert "cudaCreateTextureObject" not in text and "cuda_runtime.h" not in text
    assert main(["run-hip", str(port)]) == 0
    out = capsys.readouterr().out
    assert "CHECK PASS" in out and "sum 1.3711" in out


def test_texture_program_verifies_against_its_h200_record(capsys):
    assert 'gpu = "NVIDIA H200"' in (TASK / "main.cu.recorded.toml").read_text()
    assert main(["verify", str(TASK / "main.cu"), "--port-backend", "emulator"]) == 0
    out = capsys.readouterr().out
    assert "MATCH" in out and "MISMATCH" not in out
