"""Warp collectives lifted from sm_80 and sm_90 SASS (one NVIDIA warp = one wave32): shuffles with
sub-warp widths, MATCH, REDUX, votes inside a divergent branch (the sm_80 `__cuda_sm70_*` helpers
and the sm_90 WARPSYNC.COLLECTIVE slow paths), a cooperative-groups tile reduction, a
warp-aggregated atomic and BAR.RED block reductions, run on the RDNA3 emulator against a Python
model of warp_kernels.cu."""

from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"
N, BLOCK = 256, 128


def s32(x: int) -> int:
    x &= 0xFFFFFFFF
    return x - (1 << 32) if x >> 31 else x


def shfl(vals: list[int], lane: int, src: int, width: int, valid: bool) -> int:
    return vals[src] if valid else vals[lane]


def warp_results(w: list[int]) -> list[int]:
    """The kernel's r for the 32 lanes of one warp (values w), before the block reductions."""
    out = []
    for lane, v in enumerate(w):
        seg = lane & ~7
        r = w[seg + ((lane * 5) & 7)]
        r += (w[lane - 3] if lane % 16 >= 3 else v) * 3
        r += (w[lane + 2] if lane % 8 + 2 < 8 else v) * 5
        r += w[lane ^ 5] * 7
        r ^= sum(1 << k for k, x in enumerate(w) if x & 3 == v & 3)
        r += 1 + 1  # match_all over v >> 30 (all 0): pred 1, mask bit 0
        u = [x & 0xFFFFFFFF for x in w]
        r += sum(w) + min(x - 50 for x in w) * 3 + max(u) * 5
        a = o = 0xFFFFFFFF
        o, x = 0, 0
        for y in u:
            a &= y | 0x100
            o |= y
            x ^= y
        r += s32(a ^ o ^ x)
        if v & 1:
            odd = [k for k, y in enumerate(w) if y & 1]
            m = sum(1 << k for k in odd)
            r += len(odd) * 11 + sum(w[k] for k in odd) + w[odd[0]]
            r += all(w[k] > 10 for k in odd) * 13 + any(w[k] > 90 for k in odd) * 17
            r += sum(1 << k for k in odd if w[k] & 2) & 0xFF
            assert m
        r += sum(w[seg : seg + 8]) * 19
        out.append(s32(r))
    return out


def expected_lines() -> list[str]:
    values = [(i * 37) % 101 for i in range(N)]
    out = []
    for t0 in range(0, N, 32):
        out += warp_results(values[t0 : t0 + 32])
    for b0 in range(0, N, BLOCK):
        block = values[b0 : b0 + BLOCK]
        c = sum(1 for v in block if v & 4)
        a = int(all(v < 100 for v in block))
        o = int(any(v == 7 for v in block))
        for t in range(b0, b0 + BLOCK):
            out[t] = s32(out[t] + c * 23 + a * 29 + o * 31)
    lines = [" ".join(str(x) for x in out[i : i + 8]) for i in range(0, N, 8)]
    return lines + [f"atomic {N}"]


@pytest.fixture(scope="module", params=["sm_80", "sm_90"])
def lifted_program(request, tmp_path_factory, build_lifted) -> Path:
    work = tmp_path_factory.mktemp(f"warp-{request.param}")
    return build_lifted(DATA / "warp_kernels.cu", request.param, work, host=DATA / "warp_host.hip")


def test_warp_collectives_match_the_model(lifted_program: Path) -> None:
    from cass.runner.emulator import run_program

    run = run_program(lifted_program)
    assert run.exit_code == 0, run.stderr
    got, want = run.stdout.splitlines(), expected_lines()
    assert got == want, next(
        (f"line {i}: got {g!r}, want {w!r}" for i, (g, w) in enumerate(zip(got, want)) if g != w),
        "",
    )
