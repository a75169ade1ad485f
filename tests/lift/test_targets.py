"""What differs per LLVM target: fences NVPTX can select, and the opt pass list both targets run."""

from __future__ import annotations

import pytest
from cass.models.lift.pipeline import lift_sass
from cass.models.lift.targets import AMDGCN, NVPTX, OPT_FLAGS
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
