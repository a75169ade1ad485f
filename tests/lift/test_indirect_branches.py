"""Indirect branches (`BRX Rn imm`): jump tables recovered from the kernel's literal pool
(`.nv.constant2.<kernel>`) or from nvdisasm's BRANCH_TARGETS note, lifted to an LLVM `switch`
whose default traps; an unrecoverable table is a located error. `JMX Rn imm` (absolute) the same
way, the function's code placed at address 0. End to end: a dense `switch` in a loop, a PTX
`brx.idx` computed jump and one on a uniform index (`BRXU URn imm`, its table read by ULDC),
lifted from sm_80 and sm_90 SASS, run on the RDNA3 emulator against a Python model of the CUDA
source; and the same cubin with its BRX rewritten as JMX (no nvcc here emits JMX)."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest
from cass.models.lift.cfg import build_cfg
from cass.models.lift.ir import Imm, Target
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
        "\tFunction : k\n/*0000*/ LDC R4, c[0x0][0x210] ;\n/*0010*/ JMX R4 ;\n/*0020*/ EXIT ;\n",
        path="k.sass",
        arch="sm_90",
        compile=False,
    )  # the address comes from a kernel parameter, not a table: its targets are unknown
    assert not jmx.ok and "k.sass:3:1" in jmx.diagnostics[0].render()
    assert "jump table is not recoverable" in jmx.diagnostics[0].message


def test_jmx_targets_come_from_the_note_or_an_absolute_table() -> None:
    """`JMX R4 -0x140`: absolute, so a table word plus the displacement is the target's offset
    (the function's code placed at 0), where BRX adds the next instruction's address too."""
    note = parse_listing(
        ".text.k:\n /*0000*/ LDC R4, c[0x2][R2] ;\n"
        ' /*0010*/ JMX R4 -0x30 (*"BRANCH_TARGETS .L_x_1,.L_x_2"*) ;\n'
        ".L_x_1:\n /*0020*/ EXIT ;\n.L_x_2:\n /*0030*/ EXIT ;\n"
    ).functions[0]
    jmx = note.instructions[1]
    assert jmx.opcode == "JMX" and [o.address for o in jmx.operands if isinstance(o, Target)] == [
        0x20, 0x30]  # fmt: skip
    text = "\tFunction : k\n" + "".join(f"/*{a:04x}*/ {body} ;\n" for a, body in [
        (0x00, "LDC R4, c[0x2][R2]"), (0x10, "JMX R4 -0x40"), (0x20, "EXIT"), (0x30, "EXIT"),
        (0x40, "EXIT")])  # fmt: skip
    fn = parse_listing(text).functions[0]
    pool = struct.pack("<3i", 0x60, 0x80, 0x10)  # 0x20, 0x40; 0x10 - 0x40 is no instruction
    jmx = attach_jump_tables(fn, pool).instructions[1]
    assert [o.address for o in jmx.operands if isinstance(o, Target)] == [0x20, 0x40]


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


def brx_to_jmx(cubin: Path) -> int:
    """Rewrite each register `BRX Rn imm` of `cubin` as `JMX Rn imm` (opcode 0x949 -> 0x94c, the
    rest of the encoding kept) and its table's words as the absolute addresses JMX takes (each
    word plus the next instruction's address, the function's code at 0), as a compiler emitting
    JMX would lay it out. Returns how many branches were rewritten."""
    from cass.models.lift.inputs import disassemble
    from cass.models.lift.jumps import defining_load, table_starts
    from elftools.elf.elffile import ELFFile

    data = bytearray(cubin.read_bytes())
    with cubin.open("rb") as f:
        sections = {
            sec.name: (sec["sh_offset"], sec["sh_size"]) for sec in ELFFile(f).iter_sections()
        }
    rewritten = 0
    for fn in parse_listing(disassemble(cubin, None)).functions:
        text_at, _ = sections[f".text.{fn.name}"]
        pool_at, pool_size = sections.get(f".nv.constant2.{fn.name}", (0, 0))
        addresses, starts = {i.address for i in fn.instructions}, table_starts(fn)
        for k, ins in enumerate(fn.instructions):
            load = defining_load(fn.instructions[:k], ins) if ins.opcode == "BRX" else None
            if load is None:
                continue
            (word,) = struct.unpack_from("<Q", data, text_at + ins.address)
            assert word & 0xFFF == 0x949
            struct.pack_into("<Q", data, text_at + ins.address, word & ~0xFFF | 0x94C)
            base, offset = ins.address + 16 + next(o.value for o in ins.operands if isinstance(o, Imm)), load.offset  # fmt: skip
            while offset + 4 <= pool_size and (offset == load.offset or offset not in starts):
                (value,) = struct.unpack_from("<i", data, pool_at + offset)
                if base + value not in addresses:
                    break
                struct.pack_into("<i", data, pool_at + offset, value + ins.address + 16)
                offset += 4
            rewritten += 1
    cubin.write_bytes(bytes(data))
    return rewritten


def test_jmx_through_absolute_tables_runs_as_the_source_says(tmp_path: Path, build_lifted) -> None:
    from cass.models.lift.inputs import disassemble
    from cass.runner.emulator import run_program

    program = build_lifted(DATA / "jump_kernels.cu", "sm_90", tmp_path, patch=brx_to_jmx)
    sass = disassemble(tmp_path / "jump_kernels.cubin", None)
    assert sass.count("JMX R") >= 10 and "BRX R" not in sass  # cuobjdump reads the rewrite
    assert "s_setpc_b64" not in (tmp_path / "device.s").read_text()
    run = run_program(program)
    assert run.exit_code == 0, run.stderr
    assert run.stdout.splitlines() == expected_lines()


def test_a_static_kernel_runs_under_the_name_its_host_registers(tmp_path: Path, build_lifted):
    """nvcc names a `static __global__` kernel `_Z5twicePii` in its cubin; the host port
    registers `_ZL5twicePii`: the emulator finds the lifted kernel all the same, to launch it and
    to answer cudaFuncGetAttributes."""
    from cass.runner.emulator import run_program

    program = build_lifted(DATA / "static_kernel.cu", "sm_90", tmp_path)
    assert "_Z5twicePii" in (tmp_path / "device.s").read_text()
    run = run_program(program)
    assert run.exit_code == 0, run.stderr
    # launched, and its attributes found, under the host's name
    assert run.stdout.split() == ["no", "error", "1", "127", "no", "error", "1024"]
