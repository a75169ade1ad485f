"""What differs per LLVM target: triple, data layout, address spaces, kernel calling convention.

The same lifted function body is emitted for gfx1100 (the port) and for NVPTX (the cross-check
against the original cubin on an NVIDIA GPU); only this table and the runtime module differ.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from cass.runner.toolchain import AMDGPU_BACKEND_FIXES, DEFAULT_GFX_ARCH

RUNTIME_DIR = Path(__file__).parent / "runtime"
FENCE = re.compile(r'\bfence(?: syncscope\("([a-z-]+)"\))? (?:seq_cst|acq_rel|acquire|release)\b')
# NVPTX in LLVM 16 selects no `fence`: the membar intrinsics per scope (each a full fence, at
# least as strong as the acquire/release it replaces)
NVVM_MEMBARS = {
    "workgroup": "llvm.nvvm.membar.cta",
    "agent": "llvm.nvvm.membar.gl",
    None: "llvm.nvvm.membar.sys",
}

# What opt-16 runs on a lifted module, in order. The lifted code was optimised once already (by
# ptxas), so it needs cleaning up, not the -O3 pipeline, whose SROA alone took 11 of 15 s on a
# 7,400-instruction kernel (benchmarks/bench_lift_speed.py): mem2reg first turns the register
# allocas into SSA in linear time, SROA then only sees the parameter image and the local stack.
OPT_PASSES = (
    "always-inline",  # the runtime's sass.* helpers
    "function(mem2reg,sroa,early-cse,instcombine,simplifycfg",
    # reassociated byte multiply-adds (IDP.4A) are not matched into v_dot4_u32_u8 by llc, which
    # the emulator does not model (tests/lift/test_int_arith.py)
    "reassociate,instcombine,dce)",
    "globaldce",  # helpers the kernel does not use
)
OPT_FLAGS = (
    "-passes=" + ",".join(OPT_PASSES),
    "--simplifycfg-hoist-common=false",
)  # LLVM 16 hoists convergent collectives otherwise


# A kernel of this many SASS instructions or more is compiled without llc's straight-line scalar
# IR passes (separate-const-offset-from-gep, SLSR, nary-reassociate) and loop strength reduction
# with its freeze canonicalisation. Each asks ScalarEvolution about every integer add of a loop
# body, which in a large unrolled kernel is one long chain (SHA-512's 80 rounds: 10,000
# instructions in one block): 2.4 of llc-16's 4.4 s on crypto_hashing/sha512_chains, super-linear
# in the block's length; sha512_chains runs as many emulated wave instructions without them
# (927,339 -> 927,681). On small kernels they stay: there their effect goes both ways
# (sparse_linear_algebra/cg_poisson_csr_coop ran 7% more emulated wave instructions without the
# scalar passes, image_processing/bilateral_filter 8% fewer, sgemm_tiled 4% fewer).
# Such kernels are not put through the pre-RA machine scheduler either (GCN's occupancy-driven
# scheduler, which may schedule a region again in up to three later stages): the largest single cost left in
# llc-16 on them (0.54 of 1.44 s on sha512_chains, 1.1 of 4.5 s on Rodinia's myocyte). ptxas
# scheduled the SASS already and the lifted order follows it; sha512_chains runs 3% fewer emulated
# wave instructions unscheduled (927,681 -> 897,725, same output). The post-RA scheduler stays.
# opt-16 runs instcombine twice (targets.OPT_PASSES); on such kernels each run makes one sweep
# instead of sweeping again until nothing changes: 0.52 -> 0.39 s of opt-16 on Rodinia's
# heartwall, 0.48 -> 0.31 s on sha512_chains, whose gfx1100 code is the same length (heartwall
# one instruction longer of 20,122).
# Nor through llc's machine loop-invariant code motion before register allocation (its early and
# late runs; the post-RA one stays): in a large kernel it hoists every loop's invariants (a DFMA's
# 64-bit literals are SGPR pairs) out of the loops at once, and the allocator spills them again:
# Rodinia's myocyte's larger kernel had 454 spilled registers and took 2.8 s of llc-16 CPU with
# it, 19 and 2.0 s without; heartwall's and sha512_chains' code is as long either way.
# Nor through the post-RA machine scheduler (its whole pass, about a tenth of llc-16's time on
# myocyte's parts: the order stays ptxas's), nor the s_delay_alu insertion (a stall hint on gfx11:
# no instruction's result depends on it; myocyte's code 39,200 -> 32,100 lines); llc-16 does not
# verify its input again (opt-16 verified the module it wrote). Myocyte's two parts: 2.57 -> 2.33 s
# of opt-16 + llc-16 CPU (best of 4).
LARGE_KERNEL = 4000
LARGE_KERNEL_LLC_ARGS = ("-amdgpu-scalar-ir-passes=false", "-disable-lsr", "-enable-misched=false",
                         "-disable-machine-licm", "-enable-post-misched=false",
                         "-amdgpu-enable-delay-alu=false", "-disable-verify")  # fmt: skip
LARGE_KERNEL_OPT_ARGS = ("--instcombine-max-iterations=1",)


@dataclass(frozen=True)
class LlvmTarget:
    name: str
    triple: str
    datalayout: str
    private_as: int  # address space of allocas (registers, the local-memory stack)
    kernel_cc: str  # calling convention keyword on the kernel definition
    llc_args: tuple[str, ...]
    fence_intrinsics: bool = False  # True: fences become membar intrinsics (NVPTX in LLVM 16)

    def llc_argv(self, largest_kernel: int = 0) -> list[str]:
        """llc-16's command line (reading stdin, writing stdout) for a module whose largest kernel
        has `largest_kernel` SASS instructions."""
        extra = LARGE_KERNEL_LLC_ARGS if self.private_as and largest_kernel >= LARGE_KERNEL else ()
        return ["llc-16", "-O3", *self.llc_args, *extra, "-o", "-", "-"]

    def runtime(self) -> str:
        return (RUNTIME_DIR / f"{self.name}.ll").read_text(encoding="utf-8")

    def ptr(self, space: int) -> str:
        return "ptr" if space == 0 else f"ptr addrspace({space})"

    def fences(self, ir: str) -> str:
        """The module with fences this target's llc can select (MEMBAR, __threadfence)."""
        if not self.fence_intrinsics or not FENCE.search(ir):
            return ir
        used: set[str] = set()

        def membar(m: re.Match) -> str:
            used.add(name := NVVM_MEMBARS.get(m.group(1), NVVM_MEMBARS[None]))
            return f"call void @{name}()"

        ir = FENCE.sub(membar, ir)
        return ir + "".join(f"declare void @{name}()\n" for name in sorted(used))


AMDGCN = LlvmTarget(
    "amdgcn",
    "amdgcn-amd-amdhsa",
    "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-i64:64-v16:16-v24:32-v32:32-"
    "v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7",
    5,
    "amdgpu_kernel",
    # the same LLVM 16 backend defects the emulator's builds avoid (the exec-mask fold that skips
    # an inner loop from a loop's second trip: numerical_methods/gauss_legendre_newton)
    # the LLVM 16 backend defects every HIP build avoids too (toolchain.AMDGPU_BACKEND_FIXES)
    ("-mtriple=amdgcn-amd-amdhsa", f"-mcpu={DEFAULT_GFX_ARCH}", *AMDGPU_BACKEND_FIXES),
)

NVPTX = LlvmTarget(
    "nvptx",
    "nvptx64-nvidia-cuda",
    "e-i64:64-i128:128-v16:16-v32:32-n16:32:64",
    0,
    "",  # kernels are marked by !nvvm.annotations in LLVM 16
    ("-mtriple=nvptx64-nvidia-cuda", "-mcpu=sm_90", "-mattr=+ptx78"),
    fence_intrinsics=True,
)

TARGETS = {DEFAULT_GFX_ARCH: AMDGCN, "amdgcn": AMDGCN, "nvptx": NVPTX, "sm_90": NVPTX}
