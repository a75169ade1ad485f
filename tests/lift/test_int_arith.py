"""Integer semantics end to end: nvcc compiles int_kernels.cu to sm_80 and sm_90 cubins, the lifter
translates their SASS to gfx1100, the rules engine ports the host code, the RDNA3 emulator runs
it, and every printed result equals the Python model below (edge values: 0, ±1, INT_MIN, shift
amounts 0..63, carries of 2 out of three-term sums, ...).

Covered: IADD3 (one and two carry-outs) / IADD3.X, IMAD(.WIDE/.HI/.X, negated pair addend), LEA(.HI.X), SHF (every
width and direction, wrap and clamp), POPC/FLO/BREV, PRMT, IDP.4A/IDP.2A, VABSDIFF, (V)IMNMX,
IABS, ISETP(.EX), the 32/64-bit division subroutines, SGXT/BMSK-style bit fields.
"""

from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"
M32, M64 = (1 << 32) - 1, (1 << 64) - 1


def signed(v: int, bits: int) -> int:
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


def fields(v: int, width: int, count: int, first: int, is_signed: bool) -> list[int]:
    raw = [(v >> (k * width)) & ((1 << width) - 1) for k in range(first, first + count)]
    return [signed(f, width) if is_signed else f for f in raw]


def byte_perm(x: int, y: int, s: int) -> int:
    """PRMT default mode: nibble k picks byte (sel & 7) of {y:x}; bit 3 replicates its sign
    (__byte_perm masks its selector with 0x7777 first)."""
    src, out = (y << 32 | x).to_bytes(8, "little"), 0
    for k in range(4):
        sel = s >> (4 * k) & 0xF
        b = src[sel & 7]
        out |= (0xFF if b & 0x80 else 0) << (8 * k) if sel & 8 else b << (8 * k)
    return out


def tdiv(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def ffs(v: int) -> int:
    return (v & -v).bit_length()


def brev(v: int, bits: int) -> int:
    return int(f"{v:0{bits}b}"[::-1], 2)


def orient(ax: int, ay: int, bx: int, by: int, cx: int, cy: int) -> int:
    return signed(bx - ax, 32) * signed(cy - ay, 32) - signed(by - ay, 32) * signed(cx - ax, 32)


def int32_model(t: int, x: int, y: int, z: int) -> list[int]:
    sx, sy, sz = signed(x, 32), signed(y, 32), signed(z, 32)
    n, pair = t, y << 32 | x
    ok_div = sy != 0 and not (sx == -(1 << 31) and sy == -1)
    values = [
        x + y + z, x - y - z, x * y + z, (x * y) >> 32, (sx * sy) >> 32,
        x << (y & 31), x >> (y & 31), sx >> (y & 31),
        (pair << (n & 31)) >> 32, pair >> (n & 31), (pair << min(n, 32)) >> 32, pair >> min(n, 32),
        x.bit_count(), 32 - x.bit_length(), ffs(x), brev(x, 32),
        byte_perm(x, y, z & 0x7777), byte_perm(x, y, 0x0123), byte_perm(x, y, 0x7531),
        min(sx, sy), max(sx, sy), min(x, y), max(x, y), abs(sx),
        x // y if y else 0, x % y if y else 0,
        tdiv(sx, sy) if ok_div else 0, sx - tdiv(sx, sy) * sy if ok_div else 0,
        abs(sx - sy) + z, abs(x - y) + z, (sx + sy) >> 1, (sx + sy + 1) >> 1, (x + y) >> 1, (x + y + 1) >> 1,
        sz + sum(p * q for p, q in zip(fields(x, 8, 4, 0, True), fields(y, 8, 4, 0, True))),
        z + sum(p * q for p, q in zip(fields(x, 8, 4, 0, False), fields(y, 8, 4, 0, False))),
        sz + sum(p * q for p, q in zip(fields(x, 16, 2, 0, True), fields(y, 8, 2, 0, True))),
        z + sum(p * q for p, q in zip(fields(x, 16, 2, 0, False), fields(y, 8, 2, 2, False))),
        signed(x, 24) * signed(y, 24), (x & 0xFFFFFF) * (y & 0xFFFFFF),
        signed(x, 8) + signed(y, 16),
        (x >> (n & 15)) & ((1 << (y & 15)) - 1),
        (sx < sy) | (x < y) << 1 | (sx == sy) << 2 | (sx >= sz) << 3 | (x <= z) << 4,
        ffs(x << 32 | y),
        x.bit_count() + y.bit_count() + z.bit_count(),
        (x & y) | (~x & z), (x ^ y ^ z) | (x & ~z),
        (sx * 13 - sy * 7) + (x << 5) - (y >> 3),
    ]  # fmt: skip
    return [v & M32 for v in values]


def int64_model(t: int, x: int, y: int, z: int) -> list[int]:
    sx, sy = signed(x, 64), signed(y, 64)
    n = t
    ok_div = sy != 0 and not (sx == -(1 << 63) and sy == -1)
    values = [
        x + y + z, x + y + z + (x >> 1) + (y >> 2), x - y - z, x * y, x * y + z,
        (x * y) >> 64, (sx * sy) >> 64, (x & M32) * (y & M32) + z, signed(x, 32) * signed(y, 32),
        x << n, x >> n, sx >> n, (x >> n) | (x << ((64 - n) & 63)),
        x // y if y else 0, x % y if y else 0,
        tdiv(sx, sy) if ok_div else 0, sx - tdiv(sx, sy) * sy if ok_div else 0,
        x.bit_count() | (64 - x.bit_length()) << 8 | ffs(x) << 16,
        brev(x, 64), (min(sx, sy) & M64) ^ max(x, y),
        (sx < sy) | (x < y) << 1 | (x == y) << 2 | (sx >= signed(z, 64)) << 3,
        abs(sx), x * 0x9E3779B97F4A7C15 + (y << 17), x + (y << 3) + signed(z, 32),
        orient(*(signed(v >> k, 32) for v in (x, y, z) for k in (0, 32))),
    ]  # fmt: skip
    return [v & M64 for v in values]


MODELS = {"i32": int32_model, "i64": int64_model}


def mismatches(stdout: str) -> list[str]:
    bad, rows = [], 0
    inputs = [
        signed(int(w, 16), 32)
        for line in stdout.splitlines()
        if line.startswith("i32")
        for w in line.split()[2:5]
    ]
    flat = [
        v for k in range(3) for v in inputs[k::3]
    ]  # the kernel's a[], b[], c[] arrays back to back
    for line in stdout.splitlines():
        kind, t, *words = line.split()
        if kind == "orient":
            cross = orient(*flat[int(t) * 6 : int(t) * 6 + 6])
            if int(words[0]) != (cross > 0) - (cross < 0):
                bad.append(f"orient t={t}: want sign of {cross} got {words[0]}")
            continue
        x, y, z, *got = (int(w, 16) for w in words)
        want = MODELS[kind](int(t), x, y, z)
        rows += 1
        bad += [f"{kind} t={t} op {k}: ({x:#x}, {y:#x}, {z:#x}) want {w:#x} got {g:#x}"
                for k, (w, g) in enumerate(zip(want, got)) if w != g]  # fmt: skip
        assert len(got) == len(want), line
    assert rows == 128, stdout
    return bad


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_integer_kernels_match_the_python_model(arch: str, tmp_path: Path, build_lifted) -> None:
    from cass.runner.emulator import run_program

    run = run_program(build_lifted(DATA / "int_kernels.cu", arch, tmp_path))
    assert run.exit_code == 0, run.stderr
    assert mismatches(run.stdout) == []
