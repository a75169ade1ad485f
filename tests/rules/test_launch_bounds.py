"""`__launch_bounds__(MAX, MIN_BLOCKS)`: CUDA's minimum blocks per SM becomes HIP's minimum waves
per EU (`amdgpu_waves_per_eu`), computed for the target's wave size; clang-16 receives it."""

from __future__ import annotations

import re

import pytest
from cass.models.rules.passes.signatures import waves_per_eu


@pytest.mark.parametrize(
    "max_threads, min_blocks, wave, expected",
    [
        (256, 2, 32, 4),  # 16 wave32 waves over a WGP's 4 SIMDs
        (256, 2, 64, 2),  # 8 wave64 waves over a CU's 4 SIMDs
        (128, 1, 32, 1),
        (100, 3, 32, 3),  # 4 waves per block (rounded up), 12 waves
        (1024, 4, 32, 16),  # capped at RDNA's 16 wave slots
        (1024, 4, 64, 8),  # capped at CDNA's 8
    ],
)
def test_waves_per_eu(max_threads, min_blocks, wave, expected):
    assert waves_per_eu(max_threads, min_blocks, wave) == expected


def test_macro_bounds_become_the_same_constant_expression(port_snippet):
    out, found = port_snippet(
        "#define T 100\n#define B 3\n__global__ void __launch_bounds__(T, B) k(){}"
    )
    assert "__launch_bounds__(T) __attribute__((amdgpu_waves_per_eu(" in out
    assert "CASS061" in found
    expression = out.split("amdgpu_waves_per_eu(", 1)[1].rsplit(")))", 1)[0]
    assert eval(expression.replace("T", "100").replace("B", "3").replace("/", "//")) == 3


def test_zero_minimum_is_dropped(port_snippet):
    out, found = port_snippet("__global__ void __launch_bounds__(256, 0) k(){}")
    assert "__launch_bounds__(256) k" in out and "CASS061" not in found


@pytest.mark.toolchain
def test_converted_bounds_compile_for_gfx1100_and_reach_the_backend(
    tmp_path, port_snippet, hip_compile
):
    out, _ = port_snippet(
        "#include <cuda_runtime.h>\n#define B 3\n"
        "__global__ void __launch_bounds__(256, 2) a(float* p){ p[threadIdx.x] *= 2.0f; }\n"
        "__global__ void __launch_bounds__(100, B) b(float* p){ p[threadIdx.x] += 1.0f; }\n"
    )
    source = tmp_path / "k.hip"
    source.write_text(out)
    done = hip_compile(source, "--cuda-device-only", "-emit-llvm", "-S", "-o", "-")
    assert done.returncode == 0, done.stderr
    assert re.findall(r'"amdgpu-waves-per-eu"="(\d+)"', done.stdout) == ["4", "3"]
    assert re.findall(r'"amdgpu-flat-work-group-size"="([\d,]+)"', done.stdout) == [
        "1,256",
        "1,100",
    ]
