"""What differs per LLVM target: fences NVPTX can select, the opt pass list both targets run, and
llc's options for large kernels; the shape of the lifted IR those passes see (one load and store
per register per block, 32-bit carries)."""

from __future__ import annotations

import pytest
from cass.models.lift.module import compile_module
from cass.models.lift.pipeline import lift_sass
from cass.models.lift.targets import AMDGCN, LARGE_KERNEL, LARGE_KERNEL_LLC_ARGS, NVPTX, OPT_FLAGS
from cass.runner.toolchain import has_tool

MEMBARS = ["MEMBAR.SC.CTA", "MEMBAR.SC.GPU", "MEMBAR.SC.SYS", "STG.E desc[UR4][R2.64], R0", "EXIT"]
needs_llvm = pytest.mark.skipif(not has_tool("llc-16"), reason="needs llc-16 (`cass setup`)")


def listing(lines: list[str]) -> str:
    body = "\n".join(f"        /*{16 * i:04x}*/  {t} ;" for i, t in enumerate(lines))
    return f"\tcode for sm_90\n\t\tFunction : k\n{body}\n"


@needs_llvm
def test_membars_become_nvvm_membar_intrinsics_that_llc_selects_for_nvptx() -> None:
    result = lift_sass(listing(MEMBARS), arch="sm_90", target="nvptx")
    assert result.ok, [d.render() for d in result.diagnostics]
    assert "fence" not in result.llvm_ir.split("define", 1)[1]
    assert (
        "membar.cta" in result.assembly
        and "membar.gl" in result.assembly
        and "membar.sys" in result.assembly
    )


@needs_llvm
def test_gfx1100_keeps_scoped_fences() -> None:
    result = lift_sass(listing(MEMBARS), arch="sm_90", target="gfx1100")
    fences = [
        line.strip() for line in result.llvm_ir.splitlines() if line.strip().startswith("fence")
    ]
    assert [f for f in fences if f.endswith("seq_cst")] == [  # CTA, GPU, SYS in order
        'fence syncscope("workgroup") seq_cst',
        'fence syncscope("agent") seq_cst',
        "fence seq_cst",
    ]
    assert "llvm.nvvm" not in result.llvm_ir
    # every scope invalidates the wave's L0; the agent and system scopes the L1 too
    assert (result.assembly.count("buffer_gl0_inv"), result.assembly.count("buffer_gl1_inv")) == (
        3,
        2,
    )


def test_the_fence_rewrite_only_applies_to_nvptx() -> None:
    ir = 'fence syncscope("agent") acquire\nfence seq_cst\n'
    assert AMDGCN.fences(ir) == ir
    rewritten = NVPTX.fences(ir)
    assert (
        "call void @llvm.nvvm.membar.gl()" in rewritten
        and "call void @llvm.nvvm.membar.sys()" in rewritten
    )
    assert rewritten.count("declare void @llvm.nvvm.membar") == 2


def test_opt_runs_mem2reg_before_sroa_and_keeps_convergent_code_in_place() -> None:
    passes = OPT_FLAGS[0]
    assert passes.startswith("-passes=") and passes.index("mem2reg") < passes.index("sroa")
    assert "--simplifycfg-hoist-common=false" in OPT_FLAGS


def test_large_kernels_are_compiled_without_llcs_scev_driven_passes() -> None:
    small, large = AMDGCN.llc_argv(LARGE_KERNEL - 1), AMDGCN.llc_argv(LARGE_KERNEL)
    assert not set(LARGE_KERNEL_LLC_ARGS) & set(small)
    assert set(LARGE_KERNEL_LLC_ARGS) <= set(large) and large[:2] == ["llc-16", "-O3"]
    assert not set(LARGE_KERNEL_LLC_ARGS) & set(NVPTX.llc_argv(LARGE_KERNEL))  # AMDGPU options
    assert "-enable-misched=false" in large and "-enable-misched=false" not in small
    assert "-disable-machine-licm" in large and "-disable-machine-licm" not in small


@needs_llvm
def test_llc_accepts_the_large_kernel_options() -> None:
    result = lift_sass(listing(MEMBARS), arch="sm_90", compile=False)
    assembly = compile_module(result.llvm_ir, AMDGCN, LARGE_KERNEL)
    assert "s_endpgm" in assembly and "buffer_gl1_inv" in assembly


def blocks_of(lines: list[str]) -> dict[str, str]:
    """The lifted kernel's blocks by label (gfx1100, not compiled)."""
    ir = lift_sass(listing(lines), arch="sm_90", compile=False).llvm_ir
    body = ir.split('define amdgpu_kernel void @"k"', 1)[1].split("\n}\n", 1)[0]
    out, label = {}, ""
    for line in body.splitlines():
        if line and not line.startswith(" ") and line.endswith(":"):
            label = line[:-1]
        out[label] = out.get(label, "") + line + "\n"
    return out


CARRIES = ["S2R R0, SR_TID.X", "IADD3 R0, R0, 0x1, RZ", "IADD3 R0, R0, 0x2, RZ",
           "LDC.64 R2, c[0x0][0x210]", "ISETP.GE.AND P0, PT, R0, 0x10, PT", "@P0 EXIT",
           "IADD3 R4, P1, R0, R2, RZ", "IADD3.X R5, RZ, R3, RZ, P1, !PT",
           "STG.E desc[UR4][R4.64], R0", "EXIT"]  # fmt: skip


def test_a_register_is_loaded_at_its_first_read_and_stored_once_per_block() -> None:
    blocks = blocks_of(CARRIES)
    first, second = blocks["a0000"], blocks["a0060"]
    # R0 written three times in the first block: no load of it, one store before the branch
    assert "%r.R0\n" not in first.replace("store i32 %t3, ptr addrspace(5) %r.R0\n", "")
    assert first.count("store i32") == 3 and first.rstrip().splitlines()[-1].startswith("  br i1")
    # the next block reads R0 once (a load), then uses that value for both reads
    assert second.count("load i32, ptr addrspace(5) %r.R0") == 1
    register_stores = [line for line in second.splitlines() if "ptr addrspace(5) %r." in line
                       and line.lstrip().startswith("store")]  # fmt: skip
    assert [line.split()[1] for line in register_stores] == ["i32", "i1", "i32"]
    # the STG: one scalar store to global memory
    assert second.count("store i32 %t10, ptr addrspace(1)") == 1


def test_iadd3_carries_are_32_bit_overflows() -> None:
    second = blocks_of(CARRIES)["a0060"]
    assert "@llvm.uadd.with.overflow.i32" in second
    assert " i64 " not in second.split("; 0080: STG")[0]  # no i64 sum behind the carry


FOLDS = ["IMAD.MOV.U32 R4, RZ, RZ, 0x0", "IMAD.MOV.U32 R5, RZ, RZ, 0x3ff80000",
         "LDC.64 R2, c[0x0][0x210]", "LDG.E.64 R6, desc[UR4][R2.64]", "DMUL R8, R6, R4",
         "FSETP.GT.AND P0, PT, R6, 1, PT", "FSEL R10, R6, 2, P0", "STG.E.64 desc[UR4][R2.64], R8",
         "STG.E desc[UR4][R2.64+0x8], R10", "EXIT"]  # fmt: skip


def test_literal_operands_are_folded_as_they_are_lifted() -> None:
    """An immediate moved through RZ arithmetic, a pair of such words read as a double, a float
    immediate and a compare accumulated with PT reach the IR as literals and plain values."""
    ir = "".join(blocks_of(FOLDS).values())
    assert "mul i32 0, 0" not in ir and "add i32 0," not in ir  # IMAD.MOV.U32 R, RZ, RZ, imm
    assert "fmul double %t" in ir and ", 0x3FF8000000000000" in ir  # {R5:R4} = 1.5
    assert "zext i32 1073217536" not in ir  # no join of two constant words
    assert ", true" not in ir  # `cmp AND PT` is the compare itself; the unused !cmp not emitted
    assert "fcmp ogt float" in ir and "select i1" in ir


@needs_llvm
def test_folded_literals_compute_what_the_instructions_say() -> None:
    """The same listing compiled and its gfx1100 code holding 1.5 (0x3ff80000) as the high word
    of the double multiply's operand."""
    result = lift_sass(listing(FOLDS), arch="sm_90")
    assert result.ok, [d.render() for d in result.diagnostics]
    assert "0x3ff80000" in result.assembly and "v_mul_f64" in result.assembly


def test_shared_memory_accesses_stay_as_the_sass_has_them() -> None:
    """LDS/STS are volatile: a lane's own store is not forwarded to its next load of the same
    address, which another lane of the same instruction may have overwritten."""
    ir = "".join(blocks_of(["S2R R0, SR_TID.X", "STS [R0], R0", "LDS R1, [R0]",
                            "ISETP.NE.AND P0, PT, R1, R0, PT", "@P0 EXIT", "EXIT"]).values())  # fmt: skip
    assert "store volatile i32" in ir and "load volatile i32, ptr addrspace(3)" in ir
