"""Indirect branches (`BRX Rn imm`): jump tables recovered from the kernel's literal pool
(`.nv.constant2.<kernel>`) or from nvdisasm's BRANCH_TARGETS note, lifted to an LLVM `switch`
whose default traps; an unrecoverable table, and `JMX`, are located errors. End to end: a dense
`switch` in a loop, a PTX `brx.idx` computed jump and one on a uniform index (`BRXU URn imm`, its
table read by ULDC), lifted from sm_80 and sm_90 SASS, run on the RDNA3 emulator against a Python
model of the CUDA source."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest
from cass.models.lift.cfg import build_cfg
from cass.models.lift.ir import Target
from cass.models.lift.jumps import attach_jump_tables
from cass.models.lift.parse import parse_instruction, parse_listing
from cass.models.lift.pipeline import lift_sass

DATA = Path(__file__).parent / "data"


def s32(v: int) -> int:
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >> 31 else v


def cdiv(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


INTERP = {  # jump_kernels.cu's switch, case -> (acc, s, i) -> acc
    0: lambda a, s, i: a * 3 + 1, 1: lambda a, s, i: a ^ 0x55, 2: lambda a, s, i: a - 77,
    3: lambda a, s, i: a << 3, 4: lambda a, s, i: cdiv(a, 7), 5: lambda a, s, i: ~a,
    6: lambda a, s, i: a * a, 7: lambda a, s, i: a + 1000, 8: lambda a, s, i: a >> 2,
    9: lambda a, s, i: a | 0x100, 10: lambda a, s, i: a & 0xFFFF, 11: lambda a, s, i: a - cdiv(a, 13) * 13,
    12: lambda a, s, i: a + s, 13: lambda a, s, i: a - i, 14: lambda a, s, i: a * 5 - s,
    15: lambda a, s, i: (a << 1) | ((a >> 31) & 1),
}  # fmt: skip


def expected_lines(n: int = 96, steps: int = 40) -> list[str]:
    code = [(i * 7 + 3) % 18 for i in range(64)]
    interp = []
    for i in range(n):
        acc = i
        for s in range(steps):
            acc = s32(INTERP.get(code[(i + s) % 64], lambda a, s, i: -a)(acc, s, i))
        interp.append(acc)
    computed = []
    for i in range(n):
        k = (i * 13 + 5) % 5
        computed.append(s32([11, k * 7, k + 100, k ^ 0xFF, 4242][k] + i))
    uniform = []
    for k in range(6):
        kk = (k * 3 + 1) % 5
        r = [11, kk * 7, kk + 100, kk ^ 0xFF, 4242][kk]
        uniform.append(f"uniform {kk} " + " ".join(str(r * 2 + i) for i in range(0, n, 19)))
    return ["interp " + " ".join(map(str, interp)), "computed " + " ".join(map(str, computed)),
            *uniform]  # fmt: skip


def test_brx_parses_in_cuobjdump_and_nvdisasm_forms() -> None:
    plain = parse_instruction("BRX R10 -0x2c0", 0x2B0)
    assert [type(o).__name__ for o in plain.operands] == ["Reg", "Imm"] and plain.operands[
        1
    ].value == -0x2C0
    text = ("\t.text.k:\n/*0000*/ BRX R12 -0x10 (*\"BRANCH_TARGETS .L_x_1,.L_x_2\"*) ;\n.L_x_1:\n"
            "/*0010*/ EXIT ;\n.L_x_2:\n/*0020*/ EXIT ;\n")  # fmt: skip
    brx = parse_listing(text, "k.sass").functions[0].instructions[0]
    assert [o.address for o in brx.operands if isinstance(o, Target)] == [0x10, 0x20]


LISTING = [
    (0x00, "LDC R4, c[0x2][R8]"), (0x10, "SHF.R.S32.HI R5, RZ, 0x1f, R4"), (0x20, "BRX R4 -0x30"),
    (0x30, "MOV R0, 0x1"), (0x40, "EXIT"), (0x50, "MOV R0, 0x2"), (0x60, "EXIT"),
    (0x70, "LDC R6, c[0x2][R8+0x8]"), (0x80, "BRX R6 -0x90"), (0x90, "EXIT"),
]  # fmt: skip


def test_tables_come_from_the_literal_pool_and_stop_at_the_next_table() -> None:
    fn = parse_listing(
        "\tFunction : k\n" + "\n".join(f"/*{a:04x}*/ {t} ;" for a, t in LISTING), "k.sass"
    ).functions[0]
    pool = struct.pack("<5i", 0x30, 0x50, 0x90, 0x30, 0x7777)  # table 1 at 0x0, table 2 at 0x8
    fn = attach_jump_tables(fn, pool)
    first, second = (ins for ins in fn.instructions if ins.opcode == "BRX")
    assert [o.address for o in first.operands if isinstance(o, Target)] == [0x30, 0x50]
    assert [o.address for o in second.operands if isinstance(o, Target)] == [
        0x90,
        0x30,
    ]  # 0x7777 is no code
    assert {0x30, 0x50, 0x90} <= build_cfg(fn).leaders


def test_unrecoverable_tables_and_jmx_are_located_errors() -> None:
    text = "\tFunction : k\n/*0000*/ IADD3 R4, R4, 0x10, RZ ;\n/*0010*/ BRX R4 -0x20 ;\n/*0020*/ EXIT ;\n"
    result = lift_sass(text, path="k.sass", arch="sm_90", compile=False)
    assert not result.ok
    assert (
        "k.sass:3:1" in result.diagnostics[0].render()
        and "jump table is not recoverable" in result.diagnostics[0].render()
    )
    jmx = lift_sass(
        "\tFunction : k\n/*0000*/ JMX R4 ;\n/*0010*/ EXIT ;\n",
        path="k.sass",
        arch="sm_90",
        compile=False,
    )
    assert not jmx.ok and "absolute indirect jump" in jmx.diagnostics[0].message


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_switch_tables_and_computed_jumps_run_as_the_source_says(
    arch: str, tmp_path: Path, build_lifted
) -> None:
    from cass.models.lift.inputs import disassemble
    from cass.runner.emulator import run_program

    program = build_lifted(DATA / "jump_kernels.cu", arch, tmp_path)
    sass = disassemble(tmp_path / "jump_kernels.cubin", None)
    assert sass.count("BRX") >= 10  # the kernels jump through tables
    assert "BRXU UR" in sass  # brx.idx on a kernel parameter: a uniform-register indirect branch
    ir = (tmp_path / "device.s").read_text()
    assert "s_setpc_b64" not in ir  # no computed jump survives: a switch over the table's blocks
    run = run_program(program)
    assert run.exit_code == 0, run.stderr
    assert run.stdout.splitlines() == expected_lines()
