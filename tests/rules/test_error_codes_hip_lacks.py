"""A switch over error codes naming CUDA errors HIP does not have (CUDA Samples' helper_cuda.h
`_cudaGetErrorEnum`, vendored by many projects) ports and compiles: those cases can never match
on HIP, so their labels become distinct hipError_t values HIP does not use (CASS094), and every
other case keeps its HIP name. A graphics-interop header the file does not use is removed
(CASS095); one it uses stays an error. The switch's port runs on the emulator."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from cass.models.rules.passes.names import HIP_ERROR_TOP, _missing_error_codes

SWITCH = """#include <cuda_runtime.h>
#include <cuda_gl_interop.h>
#include <cstdio>
static const char* name_of(cudaError_t error) {
    switch (error) {
        case cudaSuccess: return "cudaSuccess";
        case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
        case cudaErrorInvalidHostPointer: return "cudaErrorInvalidHostPointer";
        case cudaErrorTextureNotBound: return "cudaErrorTextureNotBound";
        case cudaErrorInvalidTexture: return "cudaErrorInvalidTexture";
        case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    }
    return "<unknown>";
}
int main() {
    void* p = nullptr;
    cudaError_t big = cudaMalloc(&p, ~size_t(0) >> 2);
    printf("%s\\n", name_of(big));
    printf("%s\\n", name_of(cudaSuccess));
    printf("%s\\n", name_of(cudaErrorInvalidValue));
    return 0;
}
"""


def test_cases_of_codes_hip_lacks_get_unused_values_and_the_rest_keep_their_names(
    port_snippet, hip_compile, tmp_path: Path
) -> None:
    out, codes = port_snippet(SWITCH)
    assert not [d for ds in codes.values() for d in ds if d.severity.value == "error"]
    labels = re.findall(r"case static_cast<hipError_t>\((\d+)\):", out)
    assert len(labels) == len(set(labels)) == 3  # HostPointer, TextureNotBound, InvalidTexture
    assert [d.code for d in codes["CASS094"]] == ["CASS094"] * 3
    assert "HIP 6.4 has `hipErrorInvalidTexture`" in codes["CASS094"][2].message
    assert "case hipErrorMemoryAllocation:" in out and "case hipErrorInvalidValue:" in out
    assert "cuda_gl_interop" not in out.split("// <cuda_gl_interop.h> removed")[0]
    assert [d.code for d in codes["CASS095"]] == ["CASS095"]
    path = tmp_path / "t.hip"
    path.write_text(out)
    proc = hip_compile(path, "-fsyntax-only")
    assert proc.returncode == 0, proc.stderr


def test_for_a_hip_that_has_the_code_the_case_keeps_its_hip_name(port_snippet) -> None:
    out, codes = port_snippet(SWITCH, hip_version="6.4")
    assert "case hipErrorInvalidTexture:" in out
    assert len(codes["CASS094"]) == 2


def test_the_values_are_distinct_and_above_every_hip_error_code() -> None:
    values = list(_missing_error_codes().values())
    assert len(values) == len(set(values))
    assert max(values) == HIP_ERROR_TOP and min(values) > 1054  # hipErrorTbd, HIP 5.2 to 7.x


def test_only_case_labels_are_rewritten(port_snippet) -> None:
    out, codes = port_snippet("#include <cuda_runtime.h>\n"
                              "bool bound(cudaError_t e) { return e != cudaErrorTextureNotBound; }\n")  # fmt: skip
    assert "cudaErrorTextureNotBound" in out and "CASS094" not in codes
    assert [d.code for d in codes["CASS010"]] == ["CASS010"]


def test_an_interop_header_whose_functions_are_called_stays_an_error(port_snippet) -> None:
    out, codes = port_snippet("#include <cuda_gl_interop.h>\n"
                              "void f(unsigned vbo) { cudaGLRegisterBufferObject(vbo); }\n")  # fmt: skip
    assert "#include <cuda_gl_interop.h>" in out and "CASS095" not in codes
    assert [d.code for d in codes["CASS014"]] == ["CASS014"]


@pytest.mark.toolchain
def test_the_ported_switch_names_the_errors_hip_returns(port_snippet, tmp_path: Path) -> None:
    out, _ = port_snippet(SWITCH)
    port = tmp_path / "names.hip"
    port.write_text(out)
    proc = subprocess.run([sys.executable, "-m", "cass.server.cli", "run-hip", str(port)],
                          check=False, capture_output=True, text=True, timeout=900)  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    # the failed allocation's HIP code is the case cudaErrorMemoryAllocation was ported to
    assert proc.stdout.splitlines() == ["cudaErrorMemoryAllocation", "cudaSuccess",
                                        "cudaErrorInvalidValue"]  # fmt: skip
