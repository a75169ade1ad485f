"""CUDA header guards and version macros tested by helper headers (`#ifdef __DRIVER_TYPES_H__`
...): every row of tables/guards.tsv, ported in the pattern helper headers use and compiled with
clang-16 for gfx1100, so the helpers they guard still exist after the port."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from cass.models.rules.tables import guard_table

# The CUDA header whose guard each row is (what a helper header's user includes first).
INCLUDED_BY = {
    "__CUDA_RUNTIME_H__": "cuda_runtime.h",
    "__CUDA_RUNTIME_API_H__": "cuda_runtime_api.h",
    "__DEVICE_LAUNCH_PARAMETERS_H__": "device_launch_parameters.h",
    "__DRIVER_TYPES_H__": "driver_types.h",
    "__VECTOR_TYPES_H__": "vector_types.h",
    "__CHANNEL_DESCRIPTOR_H__": "channel_descriptor.h",
    "__TEXTURE_TYPES_H__": "texture_types.h",
    "__SURFACE_TYPES_H__": "surface_types.h",
    "__LIBRARY_TYPES_H__": "library_types.h",
    "__CUDA_FP16_H__": "cuda_fp16.h",
    "CU_COMPLEX_H_": "cuComplex.h",
    "_COOPERATIVE_GROUPS_H_": "cooperative_groups.h",
    "CURAND_H_": "curand.h",
    "CURAND_KERNEL_H_": "curand_kernel.h",
    "CUSPARSEAPI": "cusparse.h",
    "CUSPARSE_H_": "cusparse.h",
    "__CUDACC_RDC__": "cuda_runtime.h",
}
# Debian 12 packages no hipBLAS, hipFFT or hipSOLVER: those rows are checked by name only.
UNPACKAGED = {"HIPBLAS_H", "HIPFFT_H_", "HIPSOLVER_H"}
HIP_HEADERS = [
    Path("/usr/include/hip"),
    Path("/usr/include/hiprand"),
    Path("/usr/include/hipsparse"),
]


def _rows(status: str) -> list[str]:
    return [name for name, e in guard_table().items() if e.status == status]


def test_every_supported_guard_is_defined_by_a_real_hip_header():
    defined = set()
    for folder in HIP_HEADERS:
        for header in folder.rglob("*.h"):
            defined |= set(re.findall(r"#\s*define\s+(\w+)", header.read_text(errors="replace")))
    for name in _rows("supported"):
        hip = guard_table()[name].hip
        if name != "__CUDACC_RDC__" and hip not in UNPACKAGED:
            assert hip in defined, f"{name} -> {hip}: no HIP header defines it"
            assert name in INCLUDED_BY, f"{name}: add its CUDA header to INCLUDED_BY"


@pytest.mark.toolchain
def test_helper_header_patterns_keep_their_helpers_after_the_port(
    tmp_path, port_snippet, hip_compile
):
    """One helper per row, defined only `#ifdef GUARD` (or `#if defined(GUARD)`), then called."""
    guards = [g for g in _rows("supported") if g in INCLUDED_BY and g != "__CUDACC_RDC__"]
    lines = [f"#include <{h}>" for h in dict.fromkeys(INCLUDED_BY[g] for g in guards)]
    for n, guard in enumerate(guards):
        test = f"#ifdef {guard}" if n % 2 else f"#if defined({guard})"
        lines += [test, f"static int helper_{n}() {{ return {n}; }}", "#endif"]
    lines += [
        "#if __CUDACC_VER_MAJOR__ >= 11 && CUDART_VERSION >= 11000 && CUDA_VERSION >= 11000",
        "static int version_helper() { return 0; }",
        "#endif",
        "int main() {",
        "  return version_helper()" + "".join(f" + helper_{n}()" for n in range(len(guards))) + ";",
        "}",
    ]
    ported, codes = port_snippet("\n".join(lines) + "\n")
    assert len(codes["CASS077"]) == len(guards) + 1  # __CUDACC_VER_MAJOR__ too
    assert "CASS078" not in codes
    (tmp_path / "guards.hip").write_text(ported)
    result = hip_compile(tmp_path / "guards.hip", "-fsyntax-only")
    assert result.returncode == 0, result.stderr[-3000:]


@pytest.mark.toolchain
def test_driver_api_overloads_are_not_redefined(tmp_path, port_snippet, hip_compile):
    """helper_cuda.h's pattern: one `_cudaGetErrorEnum` per included API. Under HIP, CUresult
    and cudaError_t are one type: the driver one must vanish, the runtime one stay."""
    source = """#include <cuda.h>
#include <cuda_runtime.h>
#ifdef __DRIVER_TYPES_H__
static const char *_cudaGetErrorEnum(cudaError_t error) { return cudaGetErrorName(error); }
#endif
#ifdef __cuda_cuda_h__
static const char *_cudaGetErrorEnum(CUresult error) { return error == CUDA_SUCCESS ? "ok" : "no"; }
#endif
int main() { return _cudaGetErrorEnum(cudaSuccess)[0] == 'h' ? 0 : 1; }
"""
    ported, codes = port_snippet(source)
    assert "#if 0" in ported and "#ifdef HIP_INCLUDE_HIP_DRIVER_TYPES_H" in ported
    (tmp_path / "helper.hip").write_text(ported)
    result = hip_compile(tmp_path / "helper.hip", "-fsyntax-only")
    assert result.returncode == 0, result.stderr[-3000:]


@pytest.mark.parametrize(
    "guard", ["CUBLAS_API_H_", "CUBLAS_V2_H_", "_CUFFT_H_", "CUSOLVER_COMMON_H_"]
)
def test_unpackaged_library_guards_are_renamed(port_snippet, guard):
    ported, codes = port_snippet(f"#ifdef {guard}\nint f();\n#endif\n")
    assert f"#ifdef {guard_table()[guard].hip}\n" in ported and "CASS077" in codes


@pytest.mark.parametrize("guard", ["NV_NPPIDEFS_H", "CUDNN_H_", "__CUDA_BF16_H__", "CUDA_EGL_H_"])
def test_guards_without_hip_equivalent_are_reported(port_snippet, guard):
    ported, codes = port_snippet(f"#if defined({guard})\nint f();\n#endif\n")
    assert guard in ported and codes["CASS078"][0].line == 1


def test_a_files_own_guard_is_left_alone(port_snippet):
    ported, codes = port_snippet("#ifndef CUDA_HELPERS_H_\n#define CUDA_HELPERS_H_\n#endif\n")
    assert "CASS078" not in codes and "CASS077" not in codes


def test_guard_ports_are_stable(port_snippet):
    once, _ = port_snippet(
        "#include <cuda.h>\n#ifdef __cuda_cuda_h__\nint f();\n#endif\n#ifdef CURAND_H_\n#endif\n"
    )
    twice, codes = port_snippet(once)
    assert twice == once and "CASS078" not in codes
