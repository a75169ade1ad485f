"""Local memory: the lifted stack is sized from the SASS's own frame adjustment (sm_90 prints
`VIADD R1, R1, 0xfffffa00`, a signed immediate) and from the cubin's EIATTR_FRAME_SIZE /
EIATTR_MIN_STACK_SIZE, so per-thread arrays indexed by data fit. Lifted from sm_80 and sm_90,
run on the RDNA3 emulator, checked against a Python model."""

from __future__ import annotations

from pathlib import Path

import pytest
from cass.models.lift.lifter import estimate_resources
from cass.models.lift.parse import parse_listing

DATA = Path(__file__).parent / "data"


def s32(v: int) -> int:
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >> 31 else v


def expected(n: int = 64) -> list[str]:
    data = [(i * 131) % 997 for i in range(n)]
    lines = []
    for t in range(n):
        table = [s32(k * t) for k in range(384)]
        s = (t * 2654435761 + 1) & 0xFFFFFFFF
        for k in range(500):
            s = (s * 1103515245 + 12345) & 0xFFFFFFFF
            i, j = (s >> 8) % 384, (data[(t + k) % n] + k) % 384
            table[i] = s32(table[i] + (table[j] ^ k))
        lines.append(str(s32(sum(table[k] for k in range(0, 384, 7)))))
    return lines


def test_an_sm90_frame_adjustment_is_a_signed_immediate() -> None:
    text = "\tFunction : k\n/*0000*/ LDC R1, c[0x0][0x28] ;\n/*0010*/ VIADD R1, R1, 0xfffffa00 ;\n" \
           "/*0020*/ STL [R1], RZ ;\n/*0030*/ EXIT ;\n"  # fmt: skip
    stack, _ = estimate_resources(parse_listing(text, "k.sass").functions[0], "sm_90")
    assert stack >= 0x600


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_a_large_local_array_with_computed_offsets(arch: str, tmp_path: Path, build_lifted) -> None:
    from cass.models.lift.inputs import disassemble
    from cass.runner.emulator import run_program

    program = build_lifted(DATA / "local_kernels.cu", arch, tmp_path)
    assert "STL" in disassemble(tmp_path / "local_kernels.cubin", None)
    run = run_program(program, timeout_s=180)
    assert run.exit_code == 0, run.stderr
    assert run.stdout.splitlines() == expected()
