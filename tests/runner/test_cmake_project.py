"""A CUDA CMake project (CUDA language, CUDAToolkit, CUDA::cudart, a header in an include folder)
ported with `cass port DIR`, configured and built with CMake and `cass cmake-toolchain`, and run on
the emulator by `cass emulate` (the program links AMD's runtime by name, as any HIP build does)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from cass.server.cli import main

pytestmark = [
    pytest.mark.toolchain,
    pytest.mark.skipif(
        shutil.which("cmake") is None, reason="needs cmake (make setup installs it)"
    ),
]

FILES = {
    "CMakeLists.txt": """cmake_minimum_required(VERSION 3.21)
project(app LANGUAGES CXX CUDA)
find_package(CUDAToolkit REQUIRED)
set(CMAKE_CUDA_ARCHITECTURES 80)
add_executable(app main.cpp kernel.cu)
target_include_directories(app PRIVATE include)
target_link_libraries(app PRIVATE CUDA::cudart)
""",
    "include/fill.h": "#pragma once\nint launch(float *d, int n);\n",
    "kernel.cu": """#include "fill.h"
__global__ void fill(float *d) { d[threadIdx.x] = 1.0f + threadIdx.x; }
int launch(float *d, int n) { fill<<<1, n>>>(d); return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1; }
""",
    "main.cpp": """#include <cstdio>
#include <cuda_runtime.h>
#include "fill.h"
int main() {
  float *d, h[64];
  if (cudaMalloc(&d, sizeof h) != cudaSuccess) return 2;
  int rc = launch(d, 64);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  double s = 0;
  for (float v : h) s += v;
  printf("sum %.1f\\n", s);
  cudaFree(d);
  return rc;
}
""",
}


def test_a_ported_cmake_project_builds_with_cmake_and_runs_on_the_emulator(
    tmp_path: Path, capsys
) -> None:
    for name, text in FILES.items():
        (tmp_path / "src" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "src" / name).write_text(text)
    assert main(["port", str(tmp_path / "src"), "-o", str(tmp_path / "hip")]) == 0
    assert "LANGUAGES CXX HIP" in (tmp_path / "hip" / "CMakeLists.txt").read_text()
    capsys.readouterr()
    assert main(["cmake-toolchain"]) == 0
    toolchain = Path(capsys.readouterr().out.strip())
    assert toolchain.is_file()
    build = tmp_path / "build"
    for argv in (
        [
            "cmake",
            "-S",
            str(tmp_path / "hip"),
            "-B",
            str(build),
            f"-DCMAKE_TOOLCHAIN_FILE={toolchain}",
        ],
        ["cmake", "--build", str(build)],
    ):
        done = subprocess.run(argv, capture_output=True, text=True, timeout=600, check=False)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert main(["emulate", str(build / "app")]) == 0
    captured = capsys.readouterr()
    assert captured.out == "sum 2080.0\n"
    assert "no version information" not in captured.err
