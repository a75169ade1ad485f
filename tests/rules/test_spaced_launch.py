"""`kernel << < grid, block >> > (args)` (nvcc accepts it; Rodinia's particlefilter writes it) is
joined into `<<<`/`>>>`, which is all clang reads; shifts and comparisons are left alone."""

from __future__ import annotations

from pathlib import Path

import pytest

SOURCE = """__global__ void k(int *p, int n) { p[threadIdx.x] = n << 2; }
template <int N> __global__ void t(int *p) { p[0] = N; }
int main() {
    int *p = nullptr, a = 1 << 3, b = a >> 1;
    bool c = a << b < 9 && b >> a > 0;
    k << < 1, 32 >> > (p, a);
    t<4> << < dim3(1), dim3(1) >> > (p);
    k<<<1, 1>>>(p, b + c);
    return 0;
}
"""


def test_spaced_brackets_are_joined_and_nothing_else_changes(port_snippet) -> None:
    text, codes = port_snippet(SOURCE)
    assert "k<<<1, 32>>>(p, a);" not in text  # spacing inside is kept byte for byte
    assert "k <<< 1, 32 >>> (p, a);" in text
    assert "t<4> <<< dim3(1), dim3(1) >>> (p);" in text
    assert "bool c = a << b < 9 && b >> a > 0;" in text and "1 << 3" in text
    assert sorted(d.line for d in codes["CASS081"]) == [6, 7]


@pytest.mark.toolchain
def test_the_joined_port_compiles_for_gfx1100(port_snippet, hip_compile, tmp_path: Path) -> None:
    text, _ = port_snippet(SOURCE)
    source = tmp_path / "spaced.hip"
    source.write_text("#include <hip/hip_runtime.h>\n" + text)
    result = hip_compile(source, "-fsyntax-only")
    assert result.returncode == 0, result.stderr
