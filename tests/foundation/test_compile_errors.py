"""Failures around the compilers: hangs, missing programs, unusable output folders."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from cass.runner import compile as compile_mod
from cass.runner import compile_steps
from cass.runner.diagnostics import CassError, WorkError
from cass.server.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_a_hanging_step_is_stopped(monkeypatch):
    monkeypatch.setattr(compile_steps, "COMPILE_TIMEOUT_S", 0.5)
    argv = [sys.executable, "-c", "import time; time.sleep(30)"]
    with pytest.raises(CassError, match=r"k\.cu: nvcc did not finish within 0\.5 s") as info:
        compile_steps.run_step(argv, Path("k.cu"), "nvcc")
    assert isinstance(info.value, WorkError)  # the work failed: exit 1 in the front ends


def test_a_missing_program_is_a_clear_error(tmp_path):
    with pytest.raises(CassError, match="cannot run .*no-such-compiler"):
        compile_steps.run_step([str(tmp_path / "no-such-compiler")], Path("k.cu"), "nvcc")


def test_output_folder_that_is_a_file(tmp_path):
    target = tmp_path / "taken"
    target.write_text("user data\n")
    with pytest.raises(CassError, match="the output folder is a file"):
        compile_mod.compile_file(EXAMPLES / "vector_add.cu", ["sass"], arch="sm_80", out_dir=target)
    assert target.read_text() == "user data\n"


def test_unknown_local_gpu_arch_falls_back_to_sm_80(monkeypatch):
    monkeypatch.setattr(compile_mod.toolchain, "default_cuda_arch", lambda: "sm_70")
    assert compile_mod.resolve_arch("cuda", None) == "sm_80"
    monkeypatch.setattr(compile_mod.toolchain, "default_cuda_arch", lambda: "sm_90")
    assert compile_mod.resolve_arch("cuda", None) == "sm_90"
    with pytest.raises(CassError, match="unknown CUDA arch 'sm_70'"):
        compile_mod.resolve_arch("cuda", "sm_70")


@pytest.mark.toolchain
def test_a_location_like_line_100_is_printed_as_written_not_as_an_emoji(tmp_path, capsys):
    """rich turns `:100:` into an emoji unless told not to: `x.hip:100:21` must stay text."""
    source = tmp_path / "e.hip"
    source.write_text(
        "#include <hip/hip_runtime.h>\n"
        + "// line\n" * 98
        + "int main() { return undeclared_thing; }\n"
    )
    assert main(["compile", str(source), "-o", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    assert (
        f"{source}:100:21: error: use of undeclared identifier" in err and "\U0001f4af" not in err
    )
