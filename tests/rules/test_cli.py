"""`cass port` end to end, in-process through the real CLI entry point."""

import json
import subprocess
import sys

import pytest
from cass.server.cli import main

KERNEL = "#include <cuda_runtime.h>\n__global__ void k(float* a) { a[threadIdx.x] = 1.0f; }\nint main() { float* d; cudaMalloc(&d, 4); return 0; }\n"


@pytest.fixture
def cu(tmp_path):
    path = tmp_path / "k.cu"
    path.write_text(KERNEL)
    return path


def test_file_to_stdout(cu, capsys):
    assert main(["port", str(cu)]) == 0
    out = capsys.readouterr().out
    assert "#include <hip/hip_runtime.h>" in out and "hipMalloc(&d, 4)" in out


def test_dash_output_is_stdout(cu, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["port", str(cu), "-o", "-"]) == 0
    assert "hipMalloc(&d, 4)" in capsys.readouterr().out
    assert not (tmp_path / "-").exists()
    assert main(["port", str(tmp_path), "-o", "-"]) == 2
    assert "-o OUTDIR" in capsys.readouterr().err
    assert not (tmp_path / "-").exists()


def test_file_to_output_and_no_silent_overwrite(cu, tmp_path, capsys):
    out = tmp_path / "k.hip"
    assert main(["port", str(cu), "-o", str(out)]) == 0
    assert "hipMalloc" in out.read_text()
    out.write_text("hand edits")
    assert main(["port", str(cu), "-o", str(out)]) == 2
    assert "exists" in capsys.readouterr().err
    assert out.read_text() == "hand edits"
    assert main(["port", str(cu), "-o", str(out), "--force"]) == 0
    assert main(["port", str(cu), "-o", str(cu), "--force"]) == 2
    assert cu.read_text() == KERNEL


def test_stdin_to_stdout_keeps_crlf():
    proc = subprocess.run(
        [sys.executable, "-m", "cass.server.cli", "port", "-"],
        input=KERNEL.replace("\n", "\r\n").encode(),
        check=False,
        capture_output=True,
        timeout=60,
    )
    assert proc.returncode == 0
    assert (
        b"hipMalloc" in proc.stdout
        and b"\r\n" in proc.stdout
        and b"\n" not in proc.stdout.replace(b"\r\n", b"")
    )


def test_errors_exit_1_and_still_write(tmp_path, capsys):
    src = tmp_path / "dp.cu"
    src.write_text("__global__ void c(){}\n__global__ void p(){ c<<<1,1>>>(); }\n")
    out = tmp_path / "dp.hip"
    assert main(["port", str(src), "-o", str(out)]) == 1
    assert "dp.cu:2:22: error:" in capsys.readouterr().err
    assert out.exists()


def test_json_and_sarif_reports(cu, tmp_path, capsys):
    src = tmp_path / "w.cu"
    src.write_text("__device__ float f(float v){ return __shfl_xor_sync(0xffffffff, v, 1); }\n")
    assert main(["port", str(src), "--format", "json"]) == 0
    records = json.loads(capsys.readouterr().err)
    assert records[0]["code"] == "CASS020" and records[0]["line"] == 1
    report = tmp_path / "r.sarif"
    assert main(["port", str(src), "--format", "sarif", "--report", str(report)]) == 0
    log = json.loads(report.read_text())
    assert log["version"] == "2.1.0"
    run = log["runs"][0]
    assert run["tool"]["driver"]["name"] == "cass"
    result = run["results"][0]
    assert result["ruleId"] == "CASS020" and result["level"] == "note"
    assert result["locations"][0]["physicalLocation"]["region"]["startLine"] == 1
    assert run["tool"]["driver"]["rules"][result["ruleIndex"]]["id"] == "CASS020"


def test_project_mode_mirrors_the_tree(tmp_path, capsys):
    proj = tmp_path / "proj"
    (proj / "src").mkdir(parents=True)
    (proj / "include").mkdir()
    (proj / "include" / "util.h").write_text(
        "#pragma once\ninline cudaError_t check(cudaError_t e) { return e; }\n"
    )
    (proj / "src" / "k.cuh").write_text(
        '#include "../include/util.h"\n__device__ float twice(float x) { return 2 * x; }\n'
    )
    (proj / "src" / "main.cu").write_text(
        '#include "k.cuh"\nint main() { return check(cudaDeviceSynchronize()); }\n'
    )
    (proj / "README.md").write_text("cudaMalloc docs")
    out = tmp_path / "out"
    assert main(["port", str(proj), "-o", str(out)]) == 0
    assert (out / "src" / "main.cu").read_text().count("hipDeviceSynchronize") == 1
    assert '#include "k.cuh"' in (out / "src" / "main.cu").read_text()
    assert "hipError_t check(hipError_t e)" in (out / "include" / "util.h").read_text()
    assert (
        (out / "include" / "util.h")
        .read_text()
        .startswith("#pragma once\n#include <hip/hip_runtime.h>\n")
    )
    assert (out / "README.md").read_text() == "cudaMalloc docs"  # copied: the tree is complete
    assert main(["port", str(proj), "-o", str(out)]) == 2  # not empty: refuses without --force


@pytest.mark.parametrize(
    "content, message",
    [
        (b"int a = 1;\n\xff\xfe bad\n", "k.cu:2:1: invalid UTF-8"),
    ],
)
def test_invalid_utf8_is_a_clear_error(tmp_path, capsys, content, message):
    src = tmp_path / "k.cu"
    src.write_bytes(content)
    out = tmp_path / "k.hip"
    assert main(["port", str(src), "-o", str(out)]) == 1
    assert message in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.parametrize(
    "content, code",
    [
        ("int a; /* never closed\n", "CASS001"),
        ('const char* s = "open;\nint b;\n', "CASS002"),
        ("int a;\0int b;\n", "CASS003"),
        ("__global__ void k(){}\nvoid f(){ k<<<1, 1(); }\n", "CASS004"),
    ],
)
def test_malformed_source_is_a_located_diagnostic(tmp_path, capsys, content, code):
    src = tmp_path / "bad.cu"
    src.write_text(content)
    assert main(["port", str(src), "-o", str(tmp_path / "bad.hip")]) == 1
    err = capsys.readouterr().err
    assert f"[{code}]" in err and "Traceback" not in err
    assert (tmp_path / "bad.hip").read_text().count("int") == content.count("int")


def test_bad_options_are_usage_errors(cu, capsys):
    assert main(["port", str(cu), "--hip-version", "latest"]) == 2
    assert main(["port", str(cu), "--arch", "sm_90"]) == 2
    assert main(["port", str(cu.parent / "missing.cu")]) == 2
    assert main(["port", str(cu), "--engine", "nope"]) == 2
    err = capsys.readouterr().err
    assert (
        "not a HIP version" in err
        and "not an AMD GPU arch" in err
        and "no such file" in err
        and "unknown engine" in err
    )


def test_a_100000_line_file_ports(tmp_path):
    src = tmp_path / "big.cu"
    src.write_text("x += cudaSuccess; // cudaMalloc\n" * 100_000)
    out = tmp_path / "big.hip"
    assert main(["port", str(src), "-o", str(out)]) == 0
    text = out.read_text()
    assert text.count("hipSuccess") == 100_000 and text.count("// cudaMalloc") == 100_000
