"""Include order: HIP 5.2 headers that compile only after hip/hip_runtime.h get it first."""

from __future__ import annotations

import pytest
from cass.models.rules.prelude import NEEDS_RUNTIME_FIRST

pytestmark = pytest.mark.toolchain


@pytest.mark.parametrize("header", sorted(NEEDS_RUNTIME_FIRST))
def test_each_listed_header_needs_the_runtime_first(tmp_path, hip_compile, header):
    alone, after = tmp_path / "alone.hip", tmp_path / "after.hip"
    alone.write_text(f"#include <{header}>\n")
    after.write_text(f"#include <hip/hip_runtime.h>\n#include <{header}>\n")
    assert hip_compile(alone, "-fsyntax-only").returncode != 0, f"{header} compiles alone now"
    result = hip_compile(after, "-fsyntax-only")
    assert result.returncode == 0, result.stderr[-2000:]


CG_FIRST = """#include <cooperative_groups.h>
#include <cstdio>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;
__global__ void k(int *out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<8> tile = cg::tiled_partition<8>(block);
  out[block.thread_rank()] = tile.meta_group_rank();
}
int main() { int *d; cudaMalloc(&d, 64 * sizeof(int)); k<<<1, 64>>>(d); return 0; }
"""


def test_cooperative_groups_first_compiles_after_the_port(tmp_path, port_snippet, hip_compile):
    ported, _ = port_snippet(CG_FIRST)
    runtime = ported.index("#include <hip/hip_runtime.h>")
    assert runtime < ported.index("#include <hip/hip_cooperative_groups.h>")
    assert port_snippet(ported)[0] == ported  # stable
    (tmp_path / "cg.hip").write_text(ported)
    result = hip_compile(tmp_path / "cg.hip", "-c", "-o", str(tmp_path / "cg.o"))
    assert result.returncode == 0, result.stderr[-3000:]


@pytest.mark.parametrize("header", ["driver_types.h", "texture_types.h", "channel_descriptor.h"])
def test_cuda_type_headers_alone_compile_after_the_port(
    tmp_path, port_snippet, hip_compile, header
):
    ported, _ = port_snippet(f"#include <{header}>\nint main() {{ return 0; }}\n")
    (tmp_path / "t.hip").write_text(ported)
    result = hip_compile(tmp_path / "t.hip", "-fsyntax-only")
    assert result.returncode == 0, result.stderr[-2000:]


EXTERN_C_CUDA_H = """#ifdef __cplusplus
extern "C" {
#endif
#include "cuda.h"
int pick_device(int id) { return cudaSetDevice(id) == cudaSuccess ? 0 : 1; }
#ifdef __cplusplus
}
#endif
"""


def test_runtime_included_inside_extern_c_gets_one_before_the_block(
    tmp_path, port_snippet, hip_compile
):
    # cuda.h is C-compatible and nvcc included cuda_runtime.h before the block; its port,
    # hip_runtime.h, pulls in C++ templates, which cannot have C linkage
    ported, _ = port_snippet(EXTERN_C_CUDA_H)
    assert ported.index("#include <hip/hip_runtime.h>") < ported.index('extern "C"')
    assert port_snippet(ported)[0] == ported  # stable
    (tmp_path / "dev.hip").write_text(ported)
    result = hip_compile(tmp_path / "dev.hip", "-c", "-o", str(tmp_path / "dev.o"))
    assert result.returncode == 0, result.stderr[-3000:]
