"""cass's reference roctx and the driver-API contexts on the emulator: an NVTX port's ranges and
marks run as roctx specifies (nested levels per thread, process-wide ids, a negative level for a
pop without a range), change nothing on stdout, and go to stderr only under CASS_ROCTX_TRACE."""

from __future__ import annotations

import os

import pytest
from cass.runner import emulated_libraries
from cass.runner.emulator import build_hip_program, run_program

pytestmark = pytest.mark.toolchain

PROGRAM = r"""
#include <hip/hip_runtime.h>
#include <roctracer/roctx.h>
#include <cstdio>
__global__ void twice(int* v) { v[threadIdx.x] *= 2; }
int main() {
    hipCtx_t primary = nullptr, current = nullptr, popped = nullptr;
    if (hipInit(0) != hipSuccess || hipDevicePrimaryCtxRetain(&primary, 0) != hipSuccess) return 1;
    hipCtxSetCurrent(primary);
    hipCtxGetCurrent(&current);
    hipCtxPushCurrent(primary);
    hipCtxPopCurrent(&popped);
    printf("contexts %d %d %d\n", current == primary, popped == primary,
           hipDevicePrimaryCtxRetain(&current, 1) == hipErrorInvalidDevice);
    roctx_range_id_t all = roctxRangeStartA("all");
    int outer = roctxRangePushA("outer");
    int inner = roctxRangePushA("inner");
    roctxMarkA("tick");
    int* v;
    hipMallocManaged(&v, 32 * sizeof(int));
    for (int i = 0; i < 32; ++i) v[i] = i;
    twice<<<1, 32>>>(v);
    hipDeviceSynchronize();
    int ended_inner = roctxRangePop();
    int ended_outer = roctxRangePop();
    int none = roctxRangePop();
    roctx_range_id_t next = roctxRangeStartA("next");
    roctxRangeStop(next);
    roctxRangeStop(all);
    printf("levels %d %d ended %d %d none %d ids %d v31 %d version %u.%u\n", outer, inner,
           ended_inner, ended_outer, none, (int)(next - all), v[31], roctx_version_major(),
           roctx_version_minor());
    hipDevicePrimaryCtxRelease(0);
    return 0;
}
"""


def test_roctx_is_the_reference_for_its_header():
    (ref,) = emulated_libraries.needed("#include <roctracer/roctx.h>\n")
    assert ref.library == "roctx" and ref.task_library == "nvtx"
    assert {"nvtx", "nvrtc"} <= emulated_libraries.provided()


def test_ranges_marks_and_contexts_run_as_specified(tmp_path):
    src = tmp_path / "roctx.hip"
    src.write_text(PROGRAM)
    exe = build_hip_program(src, tmp_path / "roctx", extra_args=["-O2"])
    quiet = run_program(exe, timeout_s=120, env={**os.environ, "CASS_ROCTX_TRACE": "0"})
    assert quiet.exit_code == 0, quiet.stdout + quiet.stderr
    assert "contexts 1 1 1" in quiet.stdout
    assert "levels 0 1 ended 1 0 none -1 ids 1 v31 62 version 1.0" in quiet.stdout
    assert "cass roctx" not in quiet.stderr
    traced = run_program(exe, timeout_s=120, env={**os.environ, "CASS_ROCTX_TRACE": "1"})
    assert traced.stdout == quiet.stdout
    lines = [ln for ln in traced.stderr.splitlines() if ln.startswith("cass roctx:")]
    assert lines[:4] == [
        'cass roctx: start "all" 1',
        'cass roctx: push "outer" 0',
        'cass roctx: push "inner" 1',
        'cass roctx: mark "tick" 2',
    ]
    assert "cass roctx: pop without a range -1" in lines and lines[-1] == "cass roctx: stop 1"
