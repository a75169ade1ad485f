"""The SASS text parser: operands, modifiers, guards, labels, both disassemblers' line shapes."""

from __future__ import annotations

import pytest
from cass.models.lift.ir import CBank, FImm, Imm, Mem, Reg, Target
from cass.models.lift.parse import parse_instruction, parse_listing, split_operands
from cass.runner.diagnostics import CassError

CUOBJDUMP = """
\tcode for sm_90
\t\tFunction : _Z3addPfi
\t.headerflags\t@"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"
        /*0000*/                   LDC R1, c[0x0][0x28] ;          /* 0x00000a00ff017b82 */
                                                                   /* 0x000fe20000000800 */
        /*0010*/               @!P0 BRA 0x40 ;                     /* 0x0000000000148947 */
        /*0020*/                   LDG.E R3, desc[UR4][R2.64+0x4] ;
        /*0030*/                   EXIT ;
        /*0040*/                   EXIT ;
"""

NVDISASM = """
.text._Z1kv:
        /*0000*/                   BRA `(.L_x_1) ;
.L_x_1:
        /*0010*/                   RET.REL.NODEC R20 `(_Z1kv) ;
"""


def test_cuobjdump_listing() -> None:
    listing = parse_listing(CUOBJDUMP)
    assert listing.arch == "sm_90"
    [fn] = listing.functions
    assert fn.name == "_Z3addPfi"
    assert [i.address for i in fn.instructions] == [0, 0x10, 0x20, 0x30, 0x40]
    bra = fn.instructions[1]
    assert bra.guard == Reg("P0", invert=True) and bra.operands == (Target(0x40),)
    ldg = fn.instructions[2]
    assert ldg.opcode == "LDG" and ldg.mods == ("E",)
    assert ldg.operands[1] == Mem(Reg("R2", wide=True), 4)
    assert fn.instructions[0].line == 5


def test_nvdisasm_labels_resolve() -> None:
    [fn] = parse_listing(NVDISASM).functions
    assert fn.name == "_Z1kv"
    assert fn.instructions[0].operands == (Target(0x10),)
    assert fn.instructions[1].operands == (Reg("R20"),)


@pytest.mark.parametrize(
    ("text", "operand"),
    [
        ("FADD R0, -|R2|, R3", Reg("R2", neg=True, absolute=True)),
        ("LOP3.LUT R0, R1, R2, RZ, 0xc0, !PT", Reg("R1")),
        ("IADD3.X R5, ~R4, R2, RZ, P0, !PT", Reg("R4", invert=True)),
        ("HADD2.F32 R0, -RZ, R2.H1_H1", Reg("RZ", neg=True)),
        ("FFMA R0, R1, 0.5, -INF", Reg("R1")),
        ("IMAD.WIDE R2, R9, 0x4, c[0x0][0x160]", Reg("R9")),
        ("STS [R7.X4+UR4+0x10], R0", Mem(Reg("R7"), 0x10, Reg("UR4"), 4)),
    ],
)
def test_operand_shapes(text: str, operand) -> None:
    ins = parse_instruction(text, 0)
    assert operand in ins.operands


def test_immediates_and_constant_banks() -> None:
    ins = parse_instruction("IMAD.WIDE R2, R9, -0x4, c[0x0][R3+0x160]", 0)
    assert ins.operands[2] == Imm(-4)
    assert ins.operands[3] == CBank(0, 0x160, Reg("R3"))
    assert parse_instruction("FMUL R0, R1, 12582913", 0).operands[2] == FImm("12582913")
    assert parse_instruction("LDC R9, c[0x0][RZ]", 0).operands[1] == CBank(0, 0)
    assert parse_instruction("HFMA2 R0, R2.H1_H1, R3.reuse, R4", 0).operands[1] == Reg(
        "R2", half="H1_H1"
    )


def test_bad_line_is_a_located_error_when_its_function_is_read() -> None:
    listing = parse_listing(
        "Function : k\n/*0000*/ EXIT ;\n/*0010*/ MOV R0, {junk} ;\n"
        "Function : good\n/*0000*/ EXIT ;\n",
        "k.sass",
    )
    assert [(f.name, f.count()) for f in listing.functions] == [("k", 2), ("good", 1)]
    assert [i.opcode for i in listing.functions[1].instructions] == ["EXIT"]
    with pytest.raises(CassError, match=r"k.sass:3: cannot read operand"):
        listing.functions[0].instructions  # noqa: B018 -- reading it raises


def test_a_bad_line_stops_the_lift_with_its_location() -> None:
    from cass.models.lift.pipeline import lift_sass

    with pytest.raises(CassError, match=r"k.sass:5: cannot read operand"):
        lift_sass("Function : good\n/*0000*/ EXIT ;\nFunction : k\n/*0000*/ EXIT ;\n"
                  "/*0010*/ MOV R0, {junk} ;\n", path="k.sass", compile=False)  # fmt: skip


def test_operands_split_at_top_level_commas_only() -> None:
    assert split_operands("R0, c[0x0][R2, 0x4], `(.L_x_1, x), RZ") == [
        "R0", "c[0x0][R2, 0x4]", "`(.L_x_1, x)", "RZ"
    ]  # fmt: skip
    assert split_operands("") == [] and split_operands("R1, R2,") == ["R1", "R2"]


def test_register_pairs_name_the_next_register() -> None:
    r4, rz = Reg("R4"), Reg("RZ")
    assert r4.offset(1) == Reg("R5") and r4.offset(3).name == "R7" and r4.offset(0) is r4
    assert rz.offset(1) is rz and Reg("UR6").offset(1).kind == "UR"
    assert Reg("P2").is_pred and not Reg("R2").is_pred and Reg("URZ").is_zero
