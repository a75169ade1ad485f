"""What differs per LLVM target: triple, data layout, address spaces, kernel calling convention.

The same lifted function body is emitted for gfx1100 (the port) and for NVPTX (the cross-check
against the original cubin on an NVIDIA GPU); only this table and the runtime module differ.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

RUNTIME_DIR = Path(__file__).parent / "runtime"


@dataclass(frozen=True)
class LlvmTarget:
    name: str
    triple: str
    datalayout: str
    private_as: int  # address space of allocas (registers, the local-memory stack)
    kernel_cc: str  # calling convention keyword on the kernel definition
    llc_args: tuple[str, ...]

    def runtime(self) -> str:
        return (RUNTIME_DIR / f"{self.name}.ll").read_text(encoding="utf-8")

    def ptr(self, space: int) -> str:
        return "ptr" if space == 0 else f"ptr addrspace({space})"


AMDGCN = LlvmTarget(
    "amdgcn",
    "amdgcn-amd-amdhsa",
    "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-i64:64-v16:16-v24:32-v32:32-"
    "v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7",
    5,
    "amdgpu_kernel",
    ("-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx1100"),
)

NVPTX = LlvmTarget(
    "nvptx",
    "nvptx64-nvidia-cuda",
    "e-i64:64-i128:128-v16:16-v32:32-n16:32:64",
    0,
    "",  # kernels are marked by !nvvm.annotations in LLVM 16
    ("-mtriple=nvptx64-nvidia-cuda", "-mcpu=sm_90", "-mattr=+ptx78"),
)

TARGETS = {"gfx1100": AMDGCN, "amdgcn": AMDGCN, "nvptx": NVPTX, "sm_90": NVPTX}
