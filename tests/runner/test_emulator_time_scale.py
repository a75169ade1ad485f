"""A run spec's timeout_s is sized for a GPU: wherever a port is verified on the emulator it gets
TIME_SCALE times that limit (as the bench gives it), so `cass verify` does not call a port that
only runs slower on the CPU a time-out."""

from __future__ import annotations

from pathlib import Path

import pytest
from cass.runner import verify
from cass.runner.backends import get_backend
from cass.runner.backends.emulator import TIME_SCALE
from cass.runner.spec import load_run_spec

pytestmark = pytest.mark.toolchain

PROGRAM = """// cass: timeout_s = 1
#include <hip/hip_runtime.h>
#include <cstdio>
#include <unistd.h>
__global__ void one(int* x) { *x = 1; }
int main() {
    int* d; int h = 0;
    hipMalloc(&d, sizeof(int));
    one<<<1, 1>>>(d);
    hipMemcpy(&h, d, sizeof(int), hipMemcpyDeviceToHost);
    usleep(1200 * 1000);  // longer than the spec's limit, well inside TIME_SCALE times it
    printf("x %d\\n", h);
    return 0;
}
"""


def test_the_emulator_side_of_a_verification_gets_the_scaled_limit(tmp_path: Path):
    source = tmp_path / "slow.hip"
    source.write_text(PROGRAM)
    backend = get_backend("emulator")
    exe = backend.build(source, tmp_path)
    spec = load_run_spec(source)
    assert spec.timeout_s == 1 and TIME_SCALE >= 3
    plain = backend.run(source, exe, spec)
    assert plain.timed_out  # the spec's own limit
    scaled = verify._run(backend, source, exe, spec)
    assert scaled.finished and scaled.stdout == "x 1\n"
