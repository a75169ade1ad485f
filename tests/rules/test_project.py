"""Project porting: every file that uses CUDA whatever its suffix, headers on the include path,
a complete output tree, one process, and a summary of what needs a person."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from cass.models.engine import Target
from cass.models.rules.discovery import plan_project, uses_cuda
from cass.models.rules.project import port_project, summary
from cass.server.cli import main

TARGET = Target(gfx_arch="gfx1100", hip_version="5.2")

HELPER = """#ifndef HELPER_H
#define HELPER_H
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) return 1; } while (0)
#endif
"""
HOST_C = """#include <stdio.h>
#include <helper.h>
int setup(void) { CHECK(cudaSetDevice(0)); return 0; }
"""
KERNEL_CU = """#include "helper.h"
__global__ void k(float *x) { x[threadIdx.x] = 1.0f; }
int run(float *d) { k<<<1, 32>>>(d); CHECK(cudaDeviceSynchronize()); return 0; }
"""


def make_project(root: Path) -> Path:
    (root / "common").mkdir(parents=True)
    (root / "src").mkdir()
    (root / "common" / "helper.h").write_text(HELPER)
    (root / "common" / "plain.h").write_text("int plain(void);\n")
    (root / "src" / "host.c").write_text(HOST_C)
    (root / "src" / "kernel.cu").write_text(KERNEL_CU.replace('"helper.h"', "<helper.h>"))
    (root / "src" / "util.cpp").write_text(
        '#include "../common/plain.h"\nint plain(void) { return 3; }\n'
    )
    (root / "run.sh").write_text("#!/bin/sh\n./a.out\n")
    (root / "run.sh").chmod(0o755)
    (root / "data.bin").write_bytes(b"\x00\xff\xfe binary")
    return root


def test_cuda_use_is_found_by_names_keywords_launches_and_includes():
    assert uses_cuda("void f() { cudaMalloc(0, 0); }")
    assert uses_cuda("k<<<1, 1>>>();")
    assert uses_cuda("#include <cuda_runtime_api.h>\n")
    assert uses_cuda("__device__ int x;")
    assert uses_cuda("cublasHandle_t h;")
    assert not uses_cuda('#include <stdio.h>\nint main(void) { return printf("hi"); }\n')


def test_every_cuda_file_is_ported_whatever_its_suffix(tmp_path):
    root = make_project(tmp_path / "proj")
    plan = plan_project(root, [root / "common"])
    ported = {p.relative_to(root).as_posix() for p in plan.port}
    assert ported == {"common/helper.h", "src/host.c", "src/kernel.cu"}
    copied = {p.relative_to(root).as_posix() for p in plan.copy}
    assert {"common/plain.h", "src/util.cpp", "run.sh", "data.bin"} <= copied


def test_a_header_reached_only_through_the_include_path_is_ported(tmp_path):
    root = tmp_path / "proj"
    (root / "inc").mkdir(parents=True)
    (root / "inc" / "helper.def").write_text(
        "inline cudaError_t sync() { return cudaDeviceSynchronize(); }\n"
    )
    (root / "main.cu").write_text("#include <helper.def>\nint main() { return (int)sync(); }\n")
    assert plan_project(root).port == [root / "main.cu"]  # no include dir: not found
    assert root / "inc" / "helper.def" in plan_project(root, [root / "inc"]).port


def test_include_dirs_come_from_makefiles_and_compile_commands(tmp_path):
    root = tmp_path / "proj"
    (root / "a").mkdir(parents=True)
    (root / "b").mkdir()
    (root / "Makefile").write_text(
        "k: k.cu\n\tnvcc -I a -I$(CUDA)/include -I/usr/local/cuda/include k.cu\n"
    )
    (root / "compile_commands.json").write_text(
        json.dumps([{"directory": str(root), "command": "nvcc -Ib -c k.cu", "file": "k.cu"}])
    )
    (root / "k.cu").write_text("int main() {}\n")
    assert plan_project(root).include_dirs == [(root / "b").resolve(), (root / "a").resolve()]


def test_the_output_tree_is_complete_and_ported_in_one_process(tmp_path):
    root = make_project(tmp_path / "proj")
    out = tmp_path / "out"
    result = port_project(root, out, TARGET, include_dirs=[root / "common"])
    host = (out / "src" / "host.c").read_text()
    assert "hipSetDevice" in host and "#include <helper.h>" in host
    assert "#include <hip/hip_runtime.h>" in (out / "common" / "helper.h").read_text()
    assert "hipDeviceSynchronize" in (out / "src" / "kernel.cu").read_text()  # name kept
    assert (out / "data.bin").read_bytes() == b"\x00\xff\xfe binary"
    assert (out / "run.sh").stat().st_mode & 0o111  # scripts stay executable
    assert (out / "common" / "plain.h").read_text() == "int plain(void);\n"
    table = summary(result)
    assert "C/C++/CUDA files ported" in table and "needs a person: nothing" in table


def test_a_file_that_is_not_utf8_is_ported_byte_for_byte(tmp_path):
    root = tmp_path / "proj"
    root.mkdir()
    (root / "ok.cu").write_text("__global__ void k() {}\n")
    original = b"// caf\xe9 \xff\n#include <cuda_runtime.h>\nvoid f(float* p) { cudaFree(p); }\n"
    (root / "latin1.cu").write_bytes(original)
    out = tmp_path / "out"
    result = port_project(root, out, TARGET)
    ported = (out / "latin1.cu").read_bytes()
    assert ported.startswith(b"// caf\xe9 \xff\n") and b"hipFree(p)" in ported
    assert b"cudaFree" not in ported and b"hip/hip_runtime.h" in ported
    [found] = [d for d in result.diagnostics if d.code == "CASS090"]
    assert found.path == "latin1.cu" and (found.line, found.column) == (1, 7)
    assert "CASS076" not in {d.code for d in result.diagnostics}
    # --dry-run prints the same bytes in its diff
    cmd = [sys.executable, "-m", "cass.server.cli", "port", str(root), "--dry-run"]
    run = subprocess.run(cmd, capture_output=True, timeout=120)
    assert run.returncode == 0, run.stderr.decode(errors="replace")
    assert (
        b" // caf\xe9 \xff\n" in run.stdout and b"+void f(float* p) { hipFree(p); }" in run.stdout
    )


def test_a_cuda_samples_helper_found_nowhere_is_located_and_one_found_is_ported(tmp_path):
    root = tmp_path / "proj"
    root.mkdir()
    (root / "euler.cu").write_text(
        "// a solver\n#include <helper_cuda.h>\n#include <cstdio>\n__global__ void k() {}\n"
    )
    [missing] = [
        d for d in port_project(root, tmp_path / "a", TARGET).diagnostics if d.code == "CASS084"
    ]
    assert (missing.path, missing.line, missing.severity.value) == ("euler.cu", 2, "error")
    assert "copy it into the project" in missing.message and "helper_cuda.h" in missing.message
    samples = tmp_path / "samples" / "Common"
    samples.mkdir(parents=True)
    (samples / "helper_cuda.h").write_text("#include <cuda_runtime.h>\n")
    found = port_project(root, tmp_path / "b", TARGET, include_dirs=[samples])
    assert not [d for d in found.diagnostics if d.code == "CASS084"]
    assert "included from outside the project, not ported: euler.cu: helper_cuda.h" in summary(
        found
    )


def test_cli_port_dir_with_include_dirs_prints_a_summary(tmp_path, capsys):
    root = make_project(tmp_path / "proj")
    out = tmp_path / "out"
    assert main(["port", str(root), "-o", str(out), "-I", str(root / "common")]) == 0
    err = capsys.readouterr().err
    assert "C/C++/CUDA files ported" in err and "other files copied" in err
    assert "hipSetDevice" in (out / "src" / "host.c").read_text()
    assert main(["port", str(root), "-o", str(out)]) == 2  # never over a port without --force


def test_a_750_file_tree_ports_in_seconds(tmp_path):
    root = tmp_path / "big"
    for n in range(250):
        folder = root / f"m{n // 25}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"k{n}.cu").write_text(KERNEL_CU * 5)
        (folder / f"h{n}.c").write_text(HOST_C.replace("<helper.h>", '"helper.h"') * 5)
        (folder / f"p{n}.c").write_text("int p(void) { return 0; }\n" * 50)
        (folder / "helper.h").write_text(HELPER)
    started = time.perf_counter()
    result = port_project(root, tmp_path / "out", TARGET)
    elapsed = time.perf_counter() - started
    assert len(result.files) == 510 and len(result.plan.copy) == 250
    assert elapsed < 20, f"{elapsed:.1f} s"  # about 2 s on an idle core
