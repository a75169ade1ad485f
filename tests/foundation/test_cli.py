"""`cass compile`, `cass doctor`, `cass setup` as a user runs them: the real console script."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.toolchain
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
CASS = Path(sys.executable).with_name("cass")


def cass(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "COLUMNS": "200"}
    return subprocess.run(
        [str(CASS), *args], capture_output=True, text=True, timeout=300, cwd=cwd, env=env
    )


def test_compile_prints_sass_naming_the_kernel():
    proc = cass("compile", str(EXAMPLES / "vector_add.cu"), "--emit", "sass", "--arch", "sm_80")
    assert proc.returncode == 0, proc.stderr
    assert "Function : _Z10vector_addPKfS0_Pfi" in proc.stdout


def test_compile_hip_prints_rdna3_with_kernel_descriptor():
    proc = cass("compile", str(EXAMPLES / "vector_add.hip"), "--emit", "rdna3")
    assert proc.returncode == 0, proc.stderr
    assert ".amdhsa_kernel _Z10vector_addPKfS0_Pfi" in proc.stdout


def test_code_object_is_written_where_asked(tmp_path):
    proc = cass(
        "compile", str(EXAMPLES / "reduce_shared.hip"), "--emit", "code-object", "-o", str(tmp_path)
    )
    assert proc.returncode == 0, proc.stderr
    hsaco = tmp_path / "reduce_shared.gfx1100.hsaco"
    assert hsaco.read_bytes()[:4] == b"\x7fELF"
    assert f"wrote {hsaco}" in proc.stderr


def test_binaries_default_to_the_current_folder(tmp_path):
    proc = cass(
        "compile",
        str(EXAMPLES / "two_kernels.cu"),
        "--emit",
        "cubin",
        "--arch",
        "sm_80",
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "two_kernels.sm_80.cubin").is_file()


def test_json_manifest_lists_every_kernel():
    proc = cass("compile", str(EXAMPLES / "two_kernels.cu"), "--arch", "sm_80", "--json")
    manifest = json.loads(proc.stdout)
    names = sorted(k["demangled"] for k in manifest["kernels"])
    assert names == ["fill_index(int*, int)", "square_in_place(int*, int)"]
    assert all(k["registers"] > 0 and "Function :" in k["asm"] for k in manifest["kernels"])
    assert manifest["arch"] == "sm_80" and manifest["kind"] == "cuda"


def test_side_by_side():
    proc = cass(
        "compile",
        str(EXAMPLES / "vector_add.cu"),
        "--arch",
        "sm_80",
        "--beside",
        str(EXAMPLES / "vector_add.hip"),
    )
    assert proc.returncode == 0, proc.stderr
    assert "SASS sm_80" in proc.stdout and "RDNA3 gfx1100" in proc.stdout
    assert "FADD" in proc.stdout and "v_add_f32" in proc.stdout


def test_syntax_error_prints_file_line_col_and_exits_1(tmp_path):
    src = tmp_path / "broken.cu"
    src.write_text("__global__ void k(float* a) {\n  int i = threadIdx.x\n  a[i] = 1.0f;\n}\n")
    proc = cass("compile", str(src), "--arch", "sm_80")
    assert proc.returncode == 1
    assert f'{src}:3:3: error: expected a ";"' in proc.stderr
    assert "Traceback" not in proc.stderr


def _bad_inputs(tmp: Path) -> list[tuple[list[str], str]]:
    (tmp / "empty.cu").write_text("")
    (tmp / "binary.cu").write_bytes(b"\x7fELF\x00\x00\x01")
    (tmp / "latin1.cu").write_bytes(b"// ok\n// caf\xe9\n__global__ void k() {}\n")
    (tmp / "dir.cu").mkdir()
    (tmp / "notes.txt").write_text("hello\n")
    good = str(EXAMPLES / "vector_add.cu")
    return [
        ([str(tmp / "missing.cu")], "missing.cu: no such file"),
        ([str(tmp / "[/x].cu")], "[/x].cu: no such file"),  # printed as text, not markup
        ([str(tmp / "dir.cu")], "dir.cu: is a directory"),
        ([str(tmp / "binary.cu")], "binary.cu: looks like a binary file"),
        ([str(tmp / "empty.cu")], "empty.cu: the file is empty"),
        ([str(tmp / "latin1.cu")], "latin1.cu:2: the file is not UTF-8 text"),
        ([str(tmp / "notes.txt")], "notes.txt: cannot tell which compiler to use"),
        ([good, "--arch", "sm_61"], "unknown CUDA arch 'sm_61'"),
        ([good, "--emit", "rdna3"], "cannot emit 'rdna3' from a cuda file"),
        ([str(EXAMPLES / "vector_add.hip"), "--offload-arch", "gfx942"], "gfx942 is not supported"),
    ]


def test_bad_input_is_one_clear_line_and_exit_2(tmp_path, capsys, monkeypatch):
    from cass.server.cli import main

    monkeypatch.setenv("COLUMNS", "200")
    for args, message in _bad_inputs(tmp_path):
        code = main(["compile", *args])
        err = capsys.readouterr().err
        assert code == 2, (args, err)
        assert message in err, (args, err)
        assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_bad_input_through_the_console_script(tmp_path):
    proc = cass("compile", str(tmp_path / "missing.cu"))
    assert proc.returncode == 2
    assert proc.stderr.strip() == f"error: {tmp_path / 'missing.cu'}: no such file"


def test_doctor_lists_every_tool_and_exits_0():
    from cass.runner.toolchain import TOOL_SPECS

    proc = cass("doctor")
    assert proc.returncode == 0, proc.stdout
    for name in TOOL_SPECS:
        assert name in proc.stdout
    assert "core toolchain complete" in proc.stdout
    assert "emulator" in proc.stdout and "recorded" in proc.stdout


def test_doctor_json():
    report = json.loads(cass("doctor", "--json").stdout)
    tools = {t["name"]: t for t in report["tools"]}
    assert tools["clang++-16"]["found"] and tools["clang++-16"]["version"].startswith("16.")
    assert report["core_complete"] is True
    assert {b["name"] for b in report["backends"]} == {"nvidia", "rocm", "emulator", "recorded"}


def test_setup_on_a_complete_machine_only_checks():
    plan = cass("setup", "--dry-run")
    assert plan.returncode == 0
    assert "apt-get" not in plan.stdout and "pip" not in plan.stdout
    proc = cass("setup")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "cass is set up" in proc.stdout
