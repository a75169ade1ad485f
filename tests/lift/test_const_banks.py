"""Constant banks and memory forms lifted from SASS text (LLVM IR checked, nothing compiled):
driver words of c[0x0], register-indexed `__constant__` reads, LDGSTS, STRONG accesses, QSPC."""

from __future__ import annotations

import pytest
from cass.models.lift.constants import driver_word
from cass.models.lift.elfinfo import ConstantSymbol, CubinInfo
from cass.models.lift.ir import CBank, Reg
from cass.models.lift.parse import parse_instruction
from cass.models.lift.pipeline import lift_sass

SM90_BASE, SM80_BASE = 0x210, 0x160


def kernel_ir(body: str, arch: str = "sm_90", cubin: CubinInfo | None = None) -> str:
    lines = [
        f"        /*{16 * k:04x}*/  {ins} ;"
        for k, ins in enumerate([*body.strip().splitlines(), "EXIT"])
    ]
    text = f"\tcode for {arch}\n\t\tFunction : k\n" + "\n".join(lines) + "\n"
    result = lift_sass(text, arch=arch, compile=False, cubin=cubin)
    assert result.ok, [d.render() for d in result.diagnostics]
    return result.llvm_ir


@pytest.mark.parametrize(
    ("offset", "base", "meaning"),
    [
        (0x44, SM90_BASE, "grid.workspace.hi"),  # %envreg1
        (0x48, SM90_BASE, "grid.workspace.lo"),  # %envreg2
        (0x8C, SM80_BASE, "grid.workspace.hi"),
        (0x90, SM80_BASE, "grid.workspace.lo"),
        (0x18, SM80_BASE, "shared.window.lo"),
        (0x1C, SM80_BASE, "shared.window.hi"),
        (0x40, SM90_BASE, None),  # %envreg0: not modelled, stays an error
        (0x44, SM80_BASE, None),
    ],
)
def test_driver_words(offset: int, base: int, meaning: str | None) -> None:
    assert driver_word(offset, base) == meaning


def test_constant_bank_operand_shapes() -> None:
    assert parse_instruction("LDC R3, c[0x3] [0x4]", 0).operands[1] == CBank(3, 4)
    assert parse_instruction("@!P3 LDC R25, c[0x3][R7+-0x8]", 0).operands[1] == CBank(
        3, -8, Reg("R7")
    )


def test_grid_workspace_is_a_zeroed_global_of_the_kernel() -> None:
    ir = kernel_ir("ULDC UR11, c[0x0][0x48]\nULDC UR14, c[0x0][0x44]\nIMAD.U32 R4, RZ, RZ, UR11\nIMAD.U32 R5, RZ, RZ, UR14\n"
                   "ATOM.E.ADD.STRONG.GPU PT, R7, [R4.64+0x4], R7")  # fmt: skip
    assert '@"sass.gridws.k" = internal addrspace(1) global [16 x i8] zeroinitializer' in ir
    assert 'ptrtoint ptr addrspace(1) @"sass.gridws.k" to i64' in ir


def test_unmodelled_driver_word_is_a_located_error() -> None:
    text = "\tcode for sm_90\n\t\tFunction : k\n        /*0000*/  LDC R3, c[0x0][0x40] ;\n        /*0010*/  EXIT ;\n"
    result = lift_sass(text, arch="sm_90", compile=False)
    assert not result.ok
    assert "c[0x0][0x40] is a driver constant" in result.diagnostics[0].message


def test_indexed_constant_chooses_the_variable_by_range() -> None:
    cubin = CubinInfo(
        constant3=bytes(64),
        constant3_symbols=[ConstantSymbol("bias", 0, 16), ConstantSymbol("w", 16, 48)],
    )
    ir = kernel_ir("LDC R25, c[0x3][R7+-0x8]", cubin=cubin)
    assert "icmp sge i32" in ir and '@"w"' in ir and '@"bias"' in ir


def test_async_copy_with_zero_fill() -> None:
    ir = kernel_ir(
        "LDGSTS.E.BYPASS.128.ZFILL [R5], desc[UR4][R2.64+0x4]\nLDGDEPBAR\nDEPBAR.LE SB0, 0x0"
    )
    assert "load <3 x i32>, ptr addrspace(1)" in ir  # 12 source bytes
    assert "store <4 x i8> zeroinitializer, ptr addrspace(3)" in ir  # 4 zero-filled
    ir = kernel_ir("LDGSTS.E [R9], desc[UR4][R2.64], !PT")
    assert "store <4 x i8> zeroinitializer" in ir and "addrspace(1)" not in ir.split("define")[1]


def test_strong_accesses_are_atomic() -> None:
    ir = kernel_ir(
        "LD.E.STRONG.GPU R7, desc[UR12][R4.64+0x4]\nSTG.E.64.STRONG.SYS desc[UR4][R4.64+0x20], R6"
    )
    assert "load atomic i32, ptr %" in ir and 'syncscope("agent") monotonic' in ir
    assert "store atomic i64" in ir


def test_generic_float_atomic_reports_done() -> None:
    """ptxas follows a generic float atomic with a QSPC fallback taken when the predicate is false."""
    ir = kernel_ir("ATOM.E.ADD.F32.FTZ.RN.STRONG.GPU P0, RZ, [R4.64], R2\nQSPC.E.S P1, RZ, [R4]")
    assert "atomicrmw fadd ptr" in ir
    assert "store i1 true, ptr addrspace(5) %r.P0" in ir


def test_packed_half_atomics_are_cas_loops() -> None:
    ir = kernel_ir(
        "ATOM.E.ADD.F16x2.RN.STRONG.GPU P0, RZ, [R4.64], R7\nATOMG.E.ADD.BF16x2.RN.STRONG.GPU PT, R3, [R2.64], R7"
    )
    assert "fadd <2 x half>" in ir and "fadd float" in ir
    assert ir.count("cmpxchg ptr %") == 1 and ir.count("cmpxchg ptr addrspace(1)") == 1


def test_wide_cas_success_flag_fills_the_pair() -> None:
    ir = kernel_ir("ATOMS.CAST.SPIN.64 R10, [R15], R8, R10")
    assert "zext i1" in ir and "to i64" in ir
    assert "%r.R11" in ir


def test_uniform_load_with_a_negative_offset_assembles(tmp_path) -> None:
    """A uniform `[R2.64+-0x8]` load becomes a scalar load whose offset llc-16 prints unsigned."""
    import subprocess

    from cass.runner.toolchain import require_tool

    text = ("\tcode for sm_90\n\t\tFunction : k\n"
            "        /*0000*/  LDC.64 R2, c[0x0][0x210] ;\n"
            "        /*0010*/  LDG.E.64.CONSTANT R4, desc[UR4][R2.64+-0x8] ;\n"
            "        /*0020*/  LDC.64 R6, c[0x0][0x218] ;\n"
            "        /*0030*/  STG.E.64 desc[UR4][R6.64], R4 ;\n"
            "        /*0040*/  EXIT ;\n")  # fmt: skip
    result = lift_sass(text, arch="sm_90")
    assert "s_load_b64" in result.assembly
    source = tmp_path / "k.s"
    source.write_text(result.assembly)
    subprocess.run([str(require_tool("llvm-mc-16")), "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx1100",
                    "-filetype=obj", "-o", str(tmp_path / "k.o"), str(source)], check=True, timeout=60)  # fmt: skip


def test_unsigned_scalar_load_offsets_are_printed_signed() -> None:
    """In loops llc-16 prints the same offset as `0xfffffff8` (ml_operators/embedding_bag_atomics)."""
    from cass.models.lift.module import signed_smem_offsets

    asm = "\ts_load_b64 s[30:31], s[28:29], 0xfffffff8\n\ts_load_b256 s[8:15], s[28:29], 0x0\n"
    assert (
        signed_smem_offsets(asm)
        == "\ts_load_b64 s[30:31], s[28:29], -8\n\ts_load_b256 s[8:15], s[28:29], 0x0\n"
    )


def test_generic_address_chooses_the_shared_window_on_integers() -> None:
    """llc-16 lowers a pointer `select` between an LDS-cast and an inttoptr to LDS on both arms."""
    cubin = CubinInfo(params={"k": [(0, 8)]}, shared={"k": 0x500})
    ir = kernel_ir(
        "LDC.64 R2, c[0x0][0x210]\nLD.E.STRONG.GPU R4, desc[UR4][R2.64+0x4]\nSTS [RZ], R4",
        cubin=cubin,
    )
    assert "select i1" in ir and ", i64 " in ir.split("LD.E.STRONG.GPU")[1].split("STS")[0]
    assert "ptr %" not in "".join(line for line in ir.splitlines() if "select" in line)
