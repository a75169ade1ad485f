"""End to end: nvcc compiles kernels.cu to sm_80 and sm_90 cubins, the lifter translates their
SASS to gfx1100, the RDNA3 emulator runs the translated code under a HIP host program, and every
printed value equals an independent Python model of the same kernels."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

DATA = Path(__file__).parent / "data"
MASK64 = (1 << 64) - 1


def wrap64(v: int) -> int:
    v &= MASK64
    return v - (1 << 64) if v >> 63 else v


def expected_lines() -> list[str]:
    n = 1000
    f32 = np.float32
    a = np.array([i * 0.5 - 100.0 for i in range(n)], f32)
    b = np.array([3.0 - i * 0.25 for i in range(n)], f32)
    c = a + b
    s1 = 0.0
    for i in range(n):
        s1 += float(c[i] * f32(i % 7))
    b2 = (f32(1.5) * a + b).astype(f32)
    s2 = 0.0
    for i in range(n):
        s2 += float(b2[i] * f32(i % 5))
    total = float(a.astype(np.float64).sum())
    h = 0
    for i in range(n):
        ia = i * 7919 - 300000
        q = abs(ia) // abs(i - 1037) * (1 if (ia < 0) == (i - 1037 < 0) else -1)
        ib = i * 123456789123 - 5
        d = i * 1000003 + 7
        qb = abs(ib) // d * (1 if ib >= 0 else -1)
        ic = (2654435761 * i) & 0xFFFFFFFF
        clz = 32 - i.bit_length()
        brev = int(f"{i:032b}"[::-1], 2)
        r = ((ic >> (i & 7)) % (i + 3) + bin(ic).count("1") + clz + brev) & 0xFFFFFFFF
        h = wrap64(h * 31 + q + qb + r)
    w = [(i * 37) % 101 for i in range(256)]
    hw = 0
    for i in range(256):
        warp = w[i - i % 32 : i - i % 32 + 32]
        lane = i % 32
        out = sum(warp) * 3 + sum(v & 1 for v in warp) + (warp[lane - 1] if lane else 0)
        hw = wrap64(hw * 17 + out)
    s3 = 0.0
    for i in range(n):
        x = a[i]
        t = np.float32(min(max(np.float32(np.float64(x) * 2.5 - 1.0), f32(-3.0)), f32(3.0)))
        t = f32(t + f32(np.floor(x)))
        t = f32(t + f32(int(np.float64(x) * 7.0)))
        t = f32(t + x / f32(np.float64(x) * np.float64(x) + 2.0))
        s3 += float(f32(t * f32(i % 3))) + (float(x) * 1.5 + i)
    return [f"vecadd {s1:.3f}", f"saxpy {s2:.3f}", f"reduce {total:.3f}", f"intdiv {h}", f"warp {hw}",
            f"float {s3:.4f}", "say 41  2.50 ff -7", "say 42  2.50 ff -7"]  # fmt: skip


@pytest.fixture(scope="module", params=["sm_80", "sm_90"])
def lifted_program(request, tmp_path_factory, build_lifted) -> Path:
    work = tmp_path_factory.mktemp(f"lift-{request.param}")
    return build_lifted(DATA / "kernels.cu", request.param, work, host=DATA / "host.hip")


def test_lifted_kernels_match_the_model(lifted_program: Path) -> None:
    from cass.runner.emulator import run_program

    run = run_program(lifted_program)
    assert run.exit_code == 0, run.stderr
    assert run.stdout.splitlines() == expected_lines()
