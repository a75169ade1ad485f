"""The wrong-result class of issue 25 (`__constant__` masks read by a shared-memory stencil with
halos, int and float atomics on shared and global memory, a 2D grid): the bench task
image_processing/constant_mask_stencil_atomics lifted from sm_80 and sm_90 SASS, run on the RDNA3
emulator, its integer results checked against a Python model of the CUDA source."""

from __future__ import annotations

from pathlib import Path

import pytest

TASK = (
    Path(__file__).parents[2]
    / "models/bench/tasks/image_processing/constant_mask_stencil_atomics/main.cu"
)
W, H, R = 150, 100, 2


def expected_integer_lines() -> list[str]:
    img = [((i * 2654435761) & 0xFFFFFFFF) >> 24 for i in range(W * H)]
    img = [v % 97 for v in img]
    mask = [[(i - R) * (j - R) + ((i + j) % 3) - 1 for i in range(5)] for j in range(5)]
    thresholds = (40, 120, 300, 1000)
    count = half = global_half = 0
    maxv, hist, digest = -(1 << 31), [0] * 16, 0
    for y in range(H):
        for x in range(W):
            acc = 0
            for dy in range(5):
                for dx in range(5):
                    gx, gy = x + dx - R, y + dy - R
                    acc += mask[dy][dx] * (img[gy * W + gx] if 0 <= gx < W and 0 <= gy < H else 0)
            count += acc > thresholds[(x + y) & 3]
            half += (acc & 15) / 2
            global_half += (acc & 7) / 2
            hist[acc & 15] += 1
            maxv = max(maxv, acc)
            digest = (digest * 31 + acc) & ((1 << 64) - 1)  # the program hashes in unsigned 64-bit
    return [f"count_blocks {count} count_threads {count} max {maxv}",
            f"half_sum {half:.1f} global_half_sum {global_half:.1f}",
            f"out_hash {digest}", "hist " + " ".join(map(str, hist))]  # fmt: skip


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_constant_mask_stencil_with_atomics_matches_the_source(
    arch: str, tmp_path: Path, build_lifted
) -> None:
    from cass.runner.emulator import run_program

    run = run_program(build_lifted(TASK, arch, tmp_path), timeout_s=180)
    assert run.exit_code == 0, run.stderr
    lines = run.stdout.splitlines()
    got = [lines[0], lines[1], lines[2].split(" fout_sum")[0], lines[3]]
    assert got == expected_integer_lines()
    assert lines[-1] == "CHECK PASS"  # and the program's own host check agrees
