"""The HIP ports of the examples, run on the cass RDNA3 emulator (`cass run-hip`): no GPU needed.

Each must print deterministic output ending in CHECK PASS, the same contract as the CUDA originals.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.toolchain
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
CASS = Path(sys.executable).with_name("cass")
EXPECTED_FIRST_LINE = {
    "vector_add": "c[0]=1.0 c[1]=3.5 c[999]=2498.5",
    "reduce_shared": "blocks=40 sum=499950 expected=499950",
    "templated_scale": "float: y[16]=24.25 total=6249.5",
    "two_kernels": "a[3]=9 a[299]=89401",
    "constant_poly": "y(-4)=1.0000 y(0)=1.0000 y(3.96875)=16.5659",
}


@pytest.mark.parametrize("name", EXPECTED_FIRST_LINE)
def test_hip_example_passes_on_the_emulator(name):
    proc = subprocess.run(
        [str(CASS), "run-hip", str(EXAMPLES / f"{name}.hip")],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == EXPECTED_FIRST_LINE[name]
    assert lines[-1] == "CHECK PASS"
