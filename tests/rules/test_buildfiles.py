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


@pytest.mark.parametrize(
    ("nvcc", "clang"),
    [
        ("$(NVCC) -o app main.cu $(OBJS)", "$(HIPCC) -o app main.cu -x none $(OBJS)"),
        ("$(NVCC) -o app common.o main.cu", "$(HIPCC) -o app -x none common.o -x hip main.cu"),
        ("$(NVCC) -O3 -o $@ $?", "$(HIPCC) -O3 -o $@ -x none $?"),
        ("$(NVCC) $(OBJS) -o app", "$(HIPCC) -x none $(OBJS) -o app"),
    ],
)
def test_objects_on_a_compile_and_link_line_are_not_read_as_hip(nvcc, clang):
    text = f"NVCC = nvcc\nOBJS = common.o k.o\napp: $(OBJS)\n\t{nvcc}\n"
    assert port_makefile(text, "Makefile", TARGET).text.splitlines()[-1] == f"\t{clang}"


def test_nvcc_only_cuda_flag_is_dropped_and_named():
    ported = port_makefile(
        "nn: nn.cu\n\tnvcc -cuda nn.cu\n\tnvcc -o nn nn.cu\n", "Makefile", TARGET
    )
    assert "-cuda" not in ported.text.split("HIP_PLATFORM_FLAGS)\n", 1)[1]
    assert [(d.code, d.line) for d in ported.diagnostics] == [("CASS079", 2)]
    assert "`-cuda`" in ported.diagnostics[0].message


def test_cuda_install_directories_are_dropped_with_their_variables():
    text = (
        "include ~/rodinia_3.0/common/make.config\n"
        "INCLUDE := $(CUDA_DIR)/include\n"
        "CUDA_INCLUDEPATH=/usr/local/cuda-6.5/include\n"
        "FLAGS = -g -G -I/usr/local/cuda/include -Iinc\n"
        "app: k.cu\n"
        "\tnvcc $(FLAGS) k.cu -o app -I$(INCLUDE) -L$(CUDA_LIB_DIR) -I $(CUDA_INCLUDEPATH) "
        "-L/usr/local/cuda-6.5/lib64 -Wl,-rpath,/usr/local/cuda/lib64 -Llib -lcudart\n"
    )
    ported = port_makefile(text, "Makefile", TARGET)
    lines = ported.text.splitlines()
    assert lines[-1].split() == ["$(HIPCC)", "$(FLAGS)", "k.cu", "-o", "app", "-Llib", "-lamdhip64"]
    assert lines[-3].split() == ["FLAGS", "=", "-g", "-Iinc"]
    assert "-include ~/rodinia_3.0/common/make.config" in lines
    assert [d.code for d in ported.diagnostics] == ["CASS079"]


MIXED_MAKEFILE = """NVCC = nvcc
OBJS = common.o
all: app app2
app: $(OBJS) main.cu
\t$(NVCC) -O2 -o $@ main.cu $(OBJS) -L/usr/local/cuda/lib64 -lcudart
app2: common.o main.o
\t$(NVCC) -O2 -o $@ $?
%.o: %.cu
\t$(NVCC) -O2 -o $@ -c $<
common.o: common.c
\tgcc -O2 -c common.c -o common.o
"""
COMMON_C = "int twice(int x) { return 2 * x; }\n"
MIXED_MAIN_CU = """#include <cstdio>
extern "C" int twice(int x);
__global__ void k(int *p) { p[threadIdx.x] = threadIdx.x; }
int main() { int *d; cudaMalloc(&d, 64); k<<<1, 16>>>(d); printf("%d\\n", twice(21)); return 0; }
"""


@pytest.mark.toolchain
@pytest.mark.skipif(
    shutil.which("make") is None or shutil.which("gcc") is None, reason="no make/gcc"
)
def test_a_compile_and_link_line_with_objects_builds_here(tmp_path):
    project = tmp_path / "proj"
    project.mkdir()
    (project / "Makefile").write_text(MIXED_MAKEFILE)
    (project / "common.c").write_text(COMMON_C)
    (project / "main.cu").write_text(MIXED_MAIN_CU)
    out = tmp_path / "out"
    port_project(project, out, TARGET)
    proc = subprocess.run(
        ["make"], cwd=out, capture_output=True, text=True, check=False, timeout=600
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert (out / "app").is_file() and (out / "app2").is_file()
