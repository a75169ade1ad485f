"""HIP names of lifted kernels whose signatures mix vector types with __half/__half2
(image_processing/rgb_to_yuv420_half: the host port registers the name clang mangles with
hip_fp16.h's structs, which the name probe must therefore see)."""

from __future__ import annotations

import pytest
from cass.models.lift.aliases import hip_aliases
from cass.runner.toolchain import has_tool

pytestmark = pytest.mark.skipif(
    not has_tool("clang++-16"), reason="clang++-16 is not installed (`cass setup`)"
)


def test_half_parameters_beside_a_vector_type() -> None:
    name = "_Z13convertPixelsPK6uchar3P6__halfP7__half2ii"
    assert hip_aliases([name, "_Z15subsampleChromaPK7__half2PS_ii"]) == {
        name: "_Z13convertPixelsPK15HIP_vector_typeIhLj3EEP6__halfP7__half2ii"
    }


def test_half_template_argument_beside_a_vector_type() -> None:
    # template <typename T> __global__ void pack(const T*, float2*, int) with T = __half
    name = "_Z4packI6__halfEvPKT_P6float2i"
    assert hip_aliases([name]) == {name: "_Z4packI6__halfEvPKT_P15HIP_vector_typeIfLj2EEi"}
