"""A device-side `cudaDeviceSynchronize` (dynamic parallelism's device runtime) is reported at its
call; the host-side call ports silently as before."""

from __future__ import annotations

import pytest

SOURCE = """__global__ void child(int *p) { p[threadIdx.x] = 1; }
__device__ void wait_children() { cudaDeviceSynchronize(); }
__global__ void parent(int *p) {
    child<<<1, 32>>>(p);
    cudaDeviceSynchronize();
    wait_children();
}
int main() {
    parent<<<1, 1>>>(nullptr);
    cudaDeviceSynchronize();
    return 0;
}
"""


def test_device_side_calls_are_errors_at_their_lines(port_snippet) -> None:
    _, codes = port_snippet(SOURCE)
    assert sorted(d.line for d in codes["CASS075"]) == [2, 5]
    assert all("host-only" in d.message for d in codes["CASS075"])


@pytest.mark.parametrize(
    "source",
    [
        "int main() { cudaDeviceSynchronize(); return 0; }",
        "__global__ void k() {}\nvoid run() { k<<<1, 1>>>(); cudaDeviceSynchronize(); }",
        "__device__ int cudaDeviceSynchronizeCount;\n__global__ void k() { cudaDeviceSynchronizeCount++; }",
    ],
)
def test_host_calls_and_other_names_are_not_reported(port_snippet, source: str) -> None:
    text, codes = port_snippet(source)
    assert "CASS075" not in codes
