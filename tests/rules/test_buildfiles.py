"""Build files of a ported project: Makefiles (built here with make and clang-16 for gfx1100)
and CMake files."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from cass.models.engine import Target
from cass.models.rules.buildfiles import port_cmake, port_makefile
from cass.models.rules.project import port_project

TARGET = Target(gfx_arch="gfx1100", hip_version="5.2")


@pytest.mark.parametrize(
    ("nvcc", "clang"),
    [
        ("nvcc -arch=sm_80 -c k.cu", "$(HIPCC)  -c k.cu"),
        ("$(CUDA_DIR)/bin/nvcc -gencode arch=compute_80,code=sm_80 -c k.cu", "$(HIPCC)  -c k.cu"),
        ("nvcc -Xcompiler -fopenmp,-Wall -c k.cu", "$(HIPCC) -fopenmp,-Wall -c k.cu"),
        ('nvcc -Xcompiler "-O3 -fPIC" -c k.cu', "$(HIPCC) -O3 -fPIC -c k.cu"),
        ("nvcc -fmad=false -c k.cu", "$(HIPCC) -ffp-contract=off -c k.cu"),
        (
            "nvcc --use_fast_math -c k.cu",
            "$(HIPCC) -fgpu-flush-denormals-to-zero "
            "-fno-hip-fp32-correctly-rounded-divide-sqrt -fapprox-func -c k.cu",
        ),
        (
            "nvcc -ftz=true -prec-div=false -c k.cu",
            "$(HIPCC) -fgpu-flush-denormals-to-zero "
            "-fno-hip-fp32-correctly-rounded-divide-sqrt -c k.cu",
        ),
        ("nvcc -rdc=true -c k.cu", "$(HIPCC) -fgpu-rdc -c k.cu"),
        (
            "nvcc main.o k.o -o app -lcudart -lcublas -lcurand",
            "$(HIP_LD) main.o k.o -o app -lamdhip64 -lhipblas -lhiprand",
        ),
        ("gcc -c main.c", "gcc $(HIP_PLATFORM_FLAGS) -c main.c"),
    ],
)
def test_makefile_recipes(nvcc, clang):
    ported = port_makefile(f"app:\n\t{nvcc}\n", "Makefile", TARGET)
    assert ported.text.splitlines()[-1] == f"\t{clang}"
    assert "HIPCC ?= clang++-16 -x hip --offload-arch=$(HIP_ARCH)" in ported.text


def test_makefile_variables_set_to_nvcc_and_link_only_lines():
    text = "NVCC := /usr/local/cuda/bin/nvcc\napp: a.o\n\t$(NVCC) a.o -o app\na.o: a.cu\n\t$(NVCC) -c a.cu\n"
    ported = port_makefile(text, "Makefile", TARGET).text
    assert "NVCC := $(HIPCC)\n" in ported
    assert "\t$(HIP_LD) a.o -o app\n" in ported and "\t$(HIPCC) -c a.cu\n" in ported


def test_unmapped_build_flags_are_located():
    ported = port_makefile("app:\n\tnvcc -dlink a.o -lcudadevrt -o l.o\n", "Makefile", TARGET)
    assert [(d.code, d.line) for d in ported.diagnostics] == [("CASS079", 2), ("CASS079", 2)]


def test_a_file_without_cuda_is_unchanged():
    text = "all:\n\techo hi\n"
    assert not port_makefile(text, "Makefile", TARGET).changed


def test_cmake_project():
    text = (
        "cmake_minimum_required(VERSION 3.21)\nproject(app LANGUAGES CXX CUDA)\n"
        "find_package(CUDAToolkit REQUIRED)\nset(CMAKE_CUDA_ARCHITECTURES 80)\n"
        'set(CMAKE_CUDA_FLAGS "-O3")\nadd_executable(app main.cu)\n'
        'set_target_properties(app PROPERTIES CUDA_ARCHITECTURES "80;90")\n'
        "target_link_libraries(app PRIVATE CUDA::cudart CUDA::cublas CUDA::nvjpeg)\n"
    )
    ported = port_cmake(text, "CMakeLists.txt", TARGET)
    for expected in (
        "project(app LANGUAGES CXX HIP)",
        "find_package(hip REQUIRED)",
        "set(CMAKE_HIP_ARCHITECTURES gfx1100)",
        "CMAKE_HIP_FLAGS",
        "HIP_ARCHITECTURES gfx1100)",
        "hip::host roc::hipblas",
        "PROPERTIES LANGUAGE HIP",
    ):
        assert expected in ported.text
    [unmapped] = ported.diagnostics
    assert unmapped.code == "CASS079" and unmapped.line == 8


MAKEFILE = """NVCC = nvcc
CC = gcc
app: main.o kernel.o
\t$(CC) main.o kernel.o -o app -lcudart
main.o: main.c
\t$(CC) -c main.c
kernel.o: kernel.cu
\t$(NVCC) -arch=sm_80 -Xcompiler -Wall -c kernel.cu
"""
MAIN_C = """#include <stdio.h>
#include <cuda_runtime_api.h>
int launch(float *d, int n);
int main(void) {
  float *d;
  if (cudaMalloc((void **)&d, 64 * sizeof(float)) != cudaSuccess) return 2;
  int rc = launch(d, 64);
  cudaFree(d);
  return rc;
}
"""
KERNEL_CU = """__global__ void fill(float *d) { d[threadIdx.x] = 1.0f; }
extern "C" int launch(float *d, int n) { fill<<<1, n>>>(d); return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1; }
"""


@pytest.mark.toolchain
@pytest.mark.skipif(
    shutil.which("make") is None or shutil.which("gcc") is None, reason="no make/gcc"
)
def test_a_ported_makefile_project_builds_here(tmp_path):
    project = tmp_path / "proj"
    project.mkdir()
    (project / "Makefile").write_text(MAKEFILE)
    (project / "main.c").write_text(MAIN_C.replace("int launch", "extern int launch"))
    (project / "kernel.cu").write_text(KERNEL_CU)
    out = tmp_path / "out"
    result = port_project(project, out, TARGET)
    assert not [d for d in result.diagnostics if d.severity.value == "error"]
    proc = subprocess.run(
        ["make"], cwd=out, capture_output=True, text=True, check=False, timeout=600
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert (out / "app").is_file()
