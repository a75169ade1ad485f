"""ds_swizzle_b32, ds_permute_b32 and the gfx11 WMMA instructions against CPU references: the
swizzle and permute tables spell each mode's lane mapping out by hand; WMMA tiles are laid out
per the RDNA3 ISA (A row / B column = lane % 16 with all 16 K values; C/D VGPR v of lane l is
element [2v + l // 16][l % 16]) and compared with numpy's matrix product; a HIP program uses
clang's __builtin_amdgcn_wmma_*_w32 builtins."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from cass.runner.emulator import build_hip_program, run_program
from cass.runner.emulator.snippet import Snippet
from cass.runner.emulator.state import Fault

pytestmark = pytest.mark.toolchain

LANES = list(range(32))

SWIZZLES = [
    ("swizzle(SWAP,16)", [i ^ 16 for i in LANES]),
    ("swizzle(SWAP,1)", [i ^ 1 for i in LANES]),
    ("swizzle(REVERSE,8)", [(i & ~7) | (7 - (i & 7)) for i in LANES]),
    ("swizzle(BROADCAST,8,3)", [(i & ~7) + 3 for i in LANES]),
    ("swizzle(QUAD_PERM,3,2,1,0)", [(i & ~3) + 3 - (i & 3) for i in LANES]),
    ('swizzle(BITMASK_PERM,"00p11")', [(i & 4) | 3 for i in LANES]),
    ("0x041f", [i ^ 1 for i in LANES]),  # raw bit-mask offset: and 0x1f, or 0, xor 1
]


@pytest.mark.parametrize(("offset", "sources"), SWIZZLES, ids=[s[0] for s in SWIZZLES])
def test_swizzle_lane_mapping(offset, sources):
    m = Snippet([f"ds_swizzle_b32 v0, v1 offset:{offset}"], vgpr={1: np.arange(32) + 100}).run()
    assert [int(v) - 100 for v in m.st.V[0, 0]] == sources


def test_swizzle_reads_0_from_inactive_lanes_and_keeps_inactive_destinations():
    m = Snippet(
        ["ds_swizzle_b32 v0, v1 offset:swizzle(SWAP,16)"],
        vgpr={0: 7, 1: np.arange(32) + 100},
        exec_mask=0x0000FFFF,
    ).run()
    assert [int(v) for v in m.st.V[0, 0]] == [0] * 16 + [7] * 16


def test_swizzle_rotate_mode_is_a_located_fault():
    with pytest.raises(Fault) as info:
        Snippet(["ds_swizzle_b32 v0, v1 offset:0xc021"]).run()
    assert info.value.kind == "unsupported" and "rotate" in info.value.message


def test_forward_permute_highest_lane_wins_and_untargeted_lanes_read_0():
    lanes = np.arange(32)
    target = np.where(lanes < 16, lanes + 1, 5)  # lanes 16-31 all send to lane 5
    m = Snippet(["ds_permute_b32 v0, v2, v1"], vgpr={1: lanes + 100, 2: target * 4}).run()
    want = [0] + [i - 1 + 100 for i in range(1, 17)] + [0] * 15
    want[5] = 31 + 100
    assert [int(v) for v in m.st.V[0, 0]] == want


# --- WMMA --------------------------------------------------------------------------------------
def _ab_regs(rows: np.ndarray, first: int) -> dict[int, np.ndarray]:
    """rows[r] = the 16 K values lane r (and r + 16) holds, packed low first."""
    packed = np.concatenate([rows, rows]).view(np.uint32)  # [32 lanes, regs]
    return {first + r: packed[:, r] for r in range(packed.shape[1])}


def _cd_regs(tile: np.ndarray, first: int) -> dict[int, np.ndarray]:
    bits = tile.view(np.uint32) if tile.dtype.itemsize == 4 else tile
    return {first + v: np.array([bits[2 * v + i // 16, i % 16] for i in LANES]) for v in range(8)}


def _tile(m, first: int, dtype) -> np.ndarray:
    out = np.zeros((16, 16), np.uint32)
    for v in range(8):
        for i in LANES:
            out[2 * v + i // 16, i % 16] = m.st.V[first + v, 0, i]
    return out.view(dtype) if np.dtype(dtype).itemsize == 4 else out


RNG = np.random.default_rng(7)


def test_wmma_f32_f16_matches_numpy():
    a = RNG.standard_normal((16, 16)).astype(np.float16)
    b = RNG.standard_normal((16, 16)).astype(np.float16)
    c = RNG.standard_normal((16, 16)).astype(np.float32)
    regs = {**_ab_regs(a, 8), **_ab_regs(b.T.copy(), 16), **_cd_regs(c, 0)}
    m = Snippet(["v_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], v[0:7]"], vgpr=regs).run()
    want = a.astype(np.float64) @ b.astype(np.float64) + c
    assert np.allclose(_tile(m, 0, np.float32), want, rtol=1e-6, atol=1e-6)


def test_wmma_bf16_output_in_the_high_halves_keeps_the_low_halves():
    a = RNG.integers(-3, 4, (16, 16)).astype(np.float32)
    b = RNG.integers(-3, 4, (16, 16)).astype(np.float32)

    def bf16_rows(x):
        return (x.view(np.uint32) >> 16).astype(np.uint16)

    keep = np.full((16, 16), 0x1234, np.uint32)
    regs = {**_ab_regs(bf16_rows(a), 8), **_ab_regs(bf16_rows(b.T.copy()), 16)}
    regs.update(_cd_regs(keep, 0))
    m = Snippet(
        ["v_wmma_bf16_16x16x16_bf16 v[0:7], v[8:15], v[16:23], v[0:7] op_sel:[0,0,1]"], vgpr=regs
    ).run()
    tile = _tile(m, 0, np.uint32)
    got = ((tile >> 16) << 16).astype(np.uint32).view(np.float32)
    assert np.array_equal(got, a @ b) and np.all(tile & 0xFFFF == 0x1234)


@pytest.mark.parametrize(
    ("op", "bits", "signed"),
    [("iu8", 8, [1, 1]), ("iu8", 8, [0, 1]), ("iu4", 4, [1, 1]), ("iu4", 4, [0, 0])],
)
def test_wmma_integer_signedness(op, bits, signed):
    lo = [-(1 << (bits - 1)) if s else 0 for s in signed]
    hi = [(1 << (bits - 1)) - 1 if s else (1 << bits) - 1 for s in signed]
    a = RNG.integers(lo[0], hi[0] + 1, (16, 16))
    b = RNG.integers(lo[1], hi[1] + 1, (16, 16))
    c = RNG.integers(-1000, 1000, (16, 16)).astype(np.int32)

    def packed(x):  # 16 values per lane -> uint32 words, element 0 in the low bits
        u = (x & ((1 << bits) - 1)).astype(np.uint64)
        per = 32 // bits
        words = np.zeros((16, 16 // per), np.uint64)
        for e in range(16):
            words[:, e // per] |= u[:, e] << np.uint64(bits * (e % per))
        return words.astype(np.uint32)

    n = 16 // (32 // bits)
    regs = {**_ab_regs(packed(a), 8), **_ab_regs(packed(b.T.copy()), 12), **_cd_regs(c, 0)}
    line = (
        f"v_wmma_i32_16x16x16_{op} v[0:7], v[8:{7 + n}], v[12:{11 + n}], v[0:7]"
        f" neg_lo:[{signed[0]},{signed[1]},0]"
    )
    m = Snippet([line], vgpr=regs).run()
    assert np.array_equal(_tile(m, 0, np.int32), (a @ b + c).astype(np.int32))


def test_wmma_builtins_in_a_hip_program(tmp_path):
    source = Path(__file__).parent / "programs" / "wmma.hip"
    exe = build_hip_program(source, tmp_path / "wmma", extra_args=["-O2"])
    run = run_program(exe, timeout_s=240)
    assert run.exit_code == 0 and "wmma: PASS" in run.stdout, run.stdout + run.stderr
