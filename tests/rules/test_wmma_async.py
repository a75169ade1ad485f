"""nvcuda::wmma -> rocWMMA by target, and CUDA's asynchronous copies: the per-thread pipeline
primitives and cooperative groups' block copy become synchronous copies that compute what CUDA
computes (run on cass's RDNA3 emulator); libcu++ pipelines and barriers are reported."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from cass.models.engine import Target
from cass.models.rules import lookup, port_unit
from cass.models.rules.passes.wmma import ROCWMMA_SINCE
from cass.models.rules.tables import TABLE_DIR, family_table

HERE = Path(__file__).parent
WMMA = (HERE / "ports" / "wmma_gemm.cu").read_text()


def _port(text: str, target: Target):
    unit = port_unit(text, "t.cu", target)
    return unit.render(), [(d.line, d.code, d.message) for d in unit.diagnostics]


def test_wmma_rows_are_declared_by_rocwmma_hpp():
    lines = (TABLE_DIR / "facts" / "rocwmma.hpp@002e5aa5.ids").read_text().splitlines()
    header = dict(ln[2:].split(": ", 1) for ln in lines[:4])
    assert header["repository"] == "ROCm/rocWMMA"
    assert re.fullmatch(r"[0-9a-f]{40}", header["commit"])
    declared = {ln for ln in lines if ln and not ln.startswith("#")}
    rows = family_table("wmma")
    mapped = [e for e in rows.values() if e.status != "unsupported"]
    assert len(mapped) >= 13
    assert all(e.hip.removeprefix("rocwmma::") in declared for e in mapped)
    assert lookup("wmma::mma_sync").hip == "rocwmma::mma_sync"
    assert lookup("fragment") is None  # a plain word is no CUDA name


@pytest.mark.parametrize("version", ["6.2", "5.5"])
def test_wmma_ports_to_rocwmma_where_the_target_has_it(version):
    out, diags = _port(WMMA, Target(gfx_arch="gfx1100", hip_version=version))
    assert "#include <rocwmma/rocwmma.hpp>" in out
    assert "namespace wmma = rocwmma;" in out
    assert "wmma::mma_sync(acc, fa, fb, acc);" in out  # rocWMMA keeps the calls
    assert "rocwmma::fragment<rocwmma::matrix_a, 32, 8, 16" in out
    errors = [(line, code) for line, code, _ in diags if code in ("CASS073", "CASS072")]
    assert errors == [(19, "CASS073")]  # the 32x8x16 fragment only
    assert "32x8x16" in next(m for line, code, m in diags if line == 19)


def test_wmma_is_an_error_where_rocwmma_does_not_support_the_target():
    _, diags = _port(WMMA, Target())  # gfx1100, HIP 5.2: rocWMMA has gfx11 from ROCm 5.5
    errors = [(line, code) for line, code, _ in diags if code == "CASS073"]
    assert errors == [(2, "CASS073"), (4, "CASS073")]  # the include and the first use
    assert "--hip-version 5.5" in diags[0][2]
    _, diags = _port(WMMA, Target(gfx_arch="gfx1030", hip_version="7.0"))
    assert "does not support gfx1030" in diags[0][2]
    assert ROCWMMA_SINCE["gfx90a"] == "5.2" and ROCWMMA_SINCE["gfx1100"] == "5.5"


def test_wmma_on_wave64_warns_about_the_wavefront():
    out, diags = _port(WMMA, Target(gfx_arch="gfx90a", hip_version="5.2"))
    assert "<rocwmma/rocwmma.hpp>" in out
    assert [code for _, code, _ in diags if code == "CASS087"] == ["CASS087"]


def test_wmma_members_rocwmma_lacks_and_tf32_are_reported():
    text = """#include <mma.h>
__global__ void k() {
  nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 8, nvcuda::wmma::precision::tf32, nvcuda::wmma::row_major> a;
  nvcuda::wmma::bmma_sync(a, a, a, a);
}
"""
    _, diags = _port(text, Target(gfx_arch="gfx1100", hip_version="6.2"))
    messages = [m for _, code, m in diags if code == "CASS073"]
    assert any("tf32" in m and "gfx940-942" in m for m in messages)
    assert any("bmma_sync" in m for m in messages)
    _, diags = _port(text, Target(gfx_arch="gfx942", hip_version="6.2"))
    assert not [m for _, code, m in diags if code == "CASS073" and "tf32" in m]


def test_libcuxx_pipeline_is_reported_with_the_route():
    text = (HERE / "ports" / "libcu_pipeline.cu").read_text()
    _, diags = _port(text, Target())
    by_line = {(line, code) for line, code, _ in diags}
    assert {(8, "CASS088"), (9, "CASS088"), (11, "CASS088")} <= by_line
    assert (2, "CASS072") in by_line  # <cuda/pipeline>: the header row says the route too
    assert not [d for d in diags if d[1] == "CASS072" and d[0] != 2]  # no double reports
    assert all("__syncthreads()" in m for _, code, m in diags if code == "CASS088")


PROGRAM = HERE / "programs" / "async_copy.cu"


def test_pipeline_primitives_become_synchronous_copies():
    out, diags = _port(PROGRAM.read_text(), Target())
    assert "__cass_pipeline_memcpy(&tile[threadIdx.x]" in out
    assert out.count("(void)0;") == 2
    assert "static_cast<size_t>(sizeof(double) * 256)" in out
    assert not [d for d in diags if d[1] in ("CASS072", "CASS088") or "error" in d[2][:0]]


def _expected(blocks: int = 2) -> list[tuple[int, float, float]]:
    """What CUDA prints: odd threads' copies zero-fill z and w (8 bytes of zfill)."""
    rows = []
    for i in range(blocks * 64):
        block, t = divmod(i, 64)
        j = block * 64 + 63 - t
        x, y, z, w = j, j + 0.5, 2 * j, 3 * j + 1
        if (63 - t) & 1:
            z = w = 0
        d = [v * 0.25 for v in range(block * 256, block * 256 + 256)]
        rows.append((i, x + 2 * y + 3 * z + 4 * w, d[255 - t] + d[t * 4]))
    return rows


@pytest.mark.toolchain
def test_ported_async_copies_match_cuda_on_the_emulator(tmp_path):
    unit = port_unit(PROGRAM.read_text(), PROGRAM.name, Target())
    assert not [d for d in unit.diagnostics if d.severity.value == "error"]
    port = tmp_path / "async_copy.hip"
    port.write_text(unit.render())
    proc = subprocess.run(
        [sys.executable, "-m", "cass.server.cli", "run-hip", str(port)],
        check=False,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    rows = [line.split() for line in proc.stdout.splitlines() if line.strip()]
    got = [(int(i), float(a), float(b)) for i, a, b in rows]
    assert got == [(i, round(a, 2), round(b, 2)) for i, a, b in _expected()]
