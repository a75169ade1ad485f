"""The pipeline's per-program stages as Ray tasks on a local Ray cluster (ray.init(num_cpus=2)):
a small multi-file CUDA project (a kernel file including a header from an include folder) is
ported as a project, compiled on both stacks and aligned per kernel by Ray workers."""

from __future__ import annotations

import os

import pytest

pytestmark = pytest.mark.toolchain

HEADER = """#pragma once
__device__ inline float blend(float a, float b, float t) { return a + (b - a) * t; }
"""
KERNELS = """#include <cuda_runtime.h>
#include "blend.cuh"

__global__ void blend_rows(const float* a, const float* b, float* out, int n, float t) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = blend(a[i], b[i], t);
}

__global__ void count_positive(const float* x, int n, unsigned int* count) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && x[i] > 0.0f) atomicAdd(count, 1u);
}
"""


def test_pipeline_on_a_local_ray_cluster(tmp_path):
    ray = pytest.importorskip("ray")
    from cass.models.dataset.pipeline import BuildOptions, build

    corpus = tmp_path / "corpus"
    (corpus / "include").mkdir(parents=True)
    (corpus / "include" / "blend.cuh").write_text(HEADER)
    (corpus / "src").mkdir()
    (corpus / "src" / "kernels.cu").write_text(KERNELS)
    out = tmp_path / "out"
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        assert ray.cluster_resources()["CPU"] == 2
        options = BuildOptions(
            [str(corpus)], out, include_dirs=[corpus / "include"], ray="local", workers=2
        )
        stats = build(options)
    finally:
        ray.shutdown()
    assert stats["stages"]["compiled-nvidia"] == 1 and stats["stages"]["compiled-amd"] == 1
    assert stats["kernels"] == 2 and stats["verification"] == {
        "not-run": 1
    }  # no main(): compile only
    import datasets

    row = datasets.load_dataset(str(out), "programs", split="train").to_list()[0]
    assert row["path"] == "src/kernels.cu" and "hipLaunchKernel" not in row["cuda"]
    assert int(row["worker"].rsplit(":", 1)[1]) != os.getpid()  # built by a Ray worker process
    kernels = {
        k["demangled"].split("(")[0]
        for k in datasets.load_dataset(str(out), "kernels", split="train").to_list()
    }
    assert kernels == {"blend_rows", "count_positive"}
