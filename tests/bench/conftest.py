"""Fixtures: small benchmark task folders written into a temporary tasks root."""

from __future__ import annotations

from pathlib import Path

import pytest

TINY_SOURCE = """\
// Squares of 0..255 on the GPU, summed on the host.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#define CUDA_CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \\
    fprintf(stderr, "CUDA error %s\\n", cudaGetErrorString(e_)); exit(2); } } while (0)

__global__ void squares(int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = i * i;
}

int main() {
    const int n = 256;
    int* d;
    int h[256];
    CUDA_CHECK(cudaMalloc(&d, n * sizeof(int)));
    squares<<<2, 128>>>(d, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost));
    long long sum = 0;
    for (int i = 0; i < n; ++i) sum += h[i];
    printf("sum %lld\\n", sum);
    bool ok = sum == 5559680LL;
    printf(ok ? "CHECK PASS\\n" : "CHECK FAIL\\n");
    CUDA_CHECK(cudaFree(d));
    return ok ? 0 : 1;
}
"""
TINY_STDOUT = "sum 5559680\nCHECK PASS\n"  # what the program prints on an NVIDIA GPU

TINY_META = """\
name = "{name}"
domain = "{domain}"
description = "squares summed"
features = {features}
libraries = {libraries}
[run]
args = []
timeout_s = 120
rtol = 1e-5
atol = 1e-8
"""


def write_task(root: Path, domain: str, name: str, *, source: str = TINY_SOURCE,
               features: str = '["multi_kernel"]', libraries: str = "[]") -> Path:  # fmt: skip
    folder = root / domain / name
    folder.mkdir(parents=True)
    (folder / "main.cu").write_text(source, encoding="utf-8")
    meta = TINY_META.format(name=name, domain=domain, features=features, libraries=libraries)
    (folder / "task.toml").write_text(meta, encoding="utf-8")
    return folder


@pytest.fixture
def tasks_root(tmp_path: Path) -> Path:
    root = tmp_path / "tasks"
    root.mkdir()
    return root


@pytest.fixture
def make_task():
    """write_task(root, domain, name, source=..., features=..., libraries=...) -> folder"""
    return write_task


@pytest.fixture
def tiny_source() -> str:
    return TINY_SOURCE


@pytest.fixture
def tiny_stdout() -> str:
    return TINY_STDOUT
