"""Semantics renaming misses: no-contraction arithmetic (run on the RDNA3 emulator and compared
bit for bit with an uncontracted reference) and argument evaluation order."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

PROGRAM = Path(__file__).parent / "programs" / "no_contract.cu"


def uncontracted() -> list[str]:
    """What CUDA computes: each product rounded, then each sum rounded (never one FMA)."""
    f, d = np.float32, np.float64
    a, c, e = f(1 + 2**-12), f(-(1 + 2**-11)), f(1 + 2**-11)
    da, dc, de = d(1 + 2**-27), d(-(1 + 2**-26)), d(1 + 2**-26)
    floats = [f(f(a * a) + c), f(f(a * a) + c), f(f(a * a) - e)]
    doubles = [d(d(da * da) + dc), d(d(da * da) + dc), d(d(da * da) - de)]
    return [f"f{i} {int(v.view(np.uint32)):08x}" for i, v in enumerate(floats)] + [
        f"d{i} {int(v.view(np.uint64)):016x}" for i, v in enumerate(doubles)
    ]


def run_hip(path: Path) -> list[str]:
    proc = subprocess.run(
        [sys.executable, "-m", "cass.server.cli", "run-hip", str(path)],
        check=False,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return [line for line in proc.stdout.splitlines() if line[:1] in ("f", "d")]


@pytest.mark.toolchain
def test_rounded_arithmetic_stays_uncontracted_on_gfx1100(tmp_path, port_snippet):
    ported, codes = port_snippet(PROGRAM.read_text())
    assert len(codes["CASS020"]) == 6 and "clang fp contract(off)" in ported
    (tmp_path / "port.hip").write_text(ported)
    assert run_hip(tmp_path / "port.hip") == uncontracted()
    # HIP 5.2's own __fadd_rn & co. (a plain rename) are contracted: the values differ
    naive = ported.replace("__cass_", "__").split("// cass: HIP equivalents")[0]
    naive += ported[ported.index("__global__") :].replace("__cass_", "__")
    (tmp_path / "naive.hip").write_text(naive)
    assert run_hip(tmp_path / "naive.hip") != uncontracted()


@pytest.mark.parametrize(
    "call",
    [
        "make_int2(next(), next())",
        "make_int2(draw(&state), draw(&state))",
        "h(read(fp), 1, read(fp))",
    ],
)
def test_repeated_stateful_calls_in_one_argument_list_are_reported(port_snippet, call):
    _, codes = port_snippet(f"void f() {{ auto v = {call}; }}\n")
    [found] = codes["CASS068"]
    assert found.line == 1 and "GCC, right to left" in found.message


@pytest.mark.parametrize(
    "call", ["make_float2(min(a, b), min(a, b))", "g(f(1), f(2))", "g(v.size(), v.size())"]
)
def test_pure_or_distinct_calls_are_not_reported(port_snippet, call):
    assert "CASS068" not in port_snippet(f"void f() {{ auto v = {call}; }}\n")[1]
