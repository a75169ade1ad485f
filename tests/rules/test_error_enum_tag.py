"""`cudaError` (the enum's tag, which `cudaError_t` names) ports to HIP's enum and compiles."""

from pathlib import Path

SOURCE = """#include <cuda_runtime.h>
#include <cstdio>
static cudaError check(cudaError result) {
    if (result != cudaSuccess) printf("%s\\n", cudaGetErrorString(result));
    return result;
}
int main() {
    enum cudaError tagged = cudaGetLastError();
    cudaError plain = check(tagged);
    cudaError_t typedefed = plain;
    return typedefed == cudaSuccess ? 0 : 1;
}
"""


def test_cuda_error_tag_becomes_hip_error_t(port_snippet, hip_compile, tmp_path: Path):
    out, codes = port_snippet(SOURCE)
    assert "cudaError" not in out
    assert "static hipError_t check(hipError_t result)" in out
    assert "enum hipError_t tagged" in out
    assert not [d for ds in codes.values() for d in ds if d.severity == "error"]
    path = tmp_path / "t.hip"
    path.write_text(out)
    proc = hip_compile(path, "-fsyntax-only")
    assert proc.returncode == 0, proc.stderr
