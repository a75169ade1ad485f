"""The assembly level of a CUB program: the user's kernels are lifted from SASS, the kernels the
HIP host port launches through hipCUB (rocPRIM's) are compiled from the port, and both are linked
into one code object (cass.models.bench.mixed) that runs on the emulator against the H200's output;
likewise an NVTX program, whose port includes the emulated roctx header."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from cass.models.bench.harness import RunConfig, evaluate
from cass.models.bench.tasks import TASKS_ROOT, load_task

pytestmark = pytest.mark.toolchain

USER_KERNELS = ("countDegrees", "scatterEdges", "sortRows", "twoHopDegree")


def lift_task(name: str, arch: str, out: Path):
    """`name`'s assembly-level result with the lift engine from `arch` SASS; skips without nvcc
    (the SASS) or llvm-extract-16."""
    from cass.runner.toolchain import has_tool

    if not has_tool("nvcc") or shutil.which("llvm-extract-16") is None:
        pytest.skip("needs nvcc (the SASS) and llvm-extract-16")
    config = RunConfig(engines=("lift",), level="assembly", sass_arch=arch, out_dir=out)
    return evaluate(load_task(TASKS_ROOT / name), "lift", config)


def test_csr_build_cub_runs_lifted_user_kernels_with_rocprim_library_kernels(
    rocm_libs_include: Path, tmp_path: Path
):
    result = lift_task("graph/csr_build_cub", "sm_80", tmp_path)
    assert result.status == "pass", result.message
    lifted = next(n for n in result.notes if n.startswith("kernels lifted from SASS"))
    assert all(k in lifted for k in USER_KERNELS), lifted
    library = next(n for n in result.notes if n.startswith("kernels from the HIP library"))
    assert not library.endswith(": 0"), library
    assert "4 lifted (the user's)" in result.message


def test_an_nvtx_program_lifts_with_the_emulated_roctx_header(tmp_path: Path):
    """The host port includes roctracer/roctx.h, which only cass's emulated roctx provides: the
    device-side compile of the mixed code object finds it as the program's own build does."""
    result = lift_task("statistics/nvtx_streamed_moments", "sm_90", tmp_path)
    assert result.status == "pass", result.message


def test_a_cufft_program_lifts_with_the_emulated_hipfft_kernels_linked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """The user's kernels (a template instantiated on float2 and double2) are lifted; the host
    port's hipFFT calls run cass's emulated hipFFT, whose own kernels join the code object. The
    original needs NVIDIA's cufft.h, which no package here installs: the PyPI wheel
    `nvidia-cufft` holds it (its nvidia/cu13/include folder, named by CASS_CUDA_LIBRARY_INCLUDE)."""
    import os

    include = os.environ.get("CASS_CUDA_LIBRARY_INCLUDE", "")
    if not include or not (Path(include) / "cufft.h").is_file():
        pytest.skip("needs NVIDIA's cufft.h: CASS_CUDA_LIBRARY_INCLUDE naming the include folder "
                    "of the PyPI wheel nvidia-cufft")  # fmt: skip
    monkeypatch.setenv("NVCC_APPEND_FLAGS", f"-I{include}")
    result = lift_task("signal_processing/cufft_2d_r2c_lowpass", "sm_90", tmp_path)
    assert result.status == "pass", result.message
    assert "2 lifted (the user's)" in result.message
    if (Path(include) / "curand_kernel.h").is_file():  # the nvidia-curand wheel's header too
        # a template on cuRAND's device states, run with cuRAND's own generators (lifted)
        result = lift_task("monte_carlo/curand_device_pi", "sm_90", tmp_path)
        assert result.status == "pass", result.message
        assert "3 lifted (the user's)" in result.message


def test_the_loader_merges_the_metadata_notes_of_a_linked_code_object(tmp_path: Path):
    """Two relocatable objects, one kernel each, linked by ld.lld: two NT_AMDGPU_METADATA notes."""
    from cass.runner.emulator import codeobject

    if shutil.which("llvm-mc-16") is None or shutil.which("ld.lld-16") is None:
        pytest.skip("needs llvm-mc-16 and ld.lld-16")
    import subprocess

    objects = []
    for name in ("first", "second"):
        asm = tmp_path / f"{name}.s"
        asm.write_text(_KERNEL.replace("NAME", name))
        obj = tmp_path / f"{name}.o"
        subprocess.run(["llvm-mc-16", "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-filetype=obj", "-o", str(obj),
                        str(asm)], check=True, capture_output=True)  # fmt: skip
        objects.append(str(obj))
    linked = tmp_path / "linked.hsaco"
    subprocess.run(
        ["ld.lld-16", "-shared", "-o", str(linked), *objects], check=True, capture_output=True
    )
    loaded = codeobject.load(linked.read_bytes())
    assert {"first", "second"} <= set(loaded.kernels)


_KERNEL = """\t.text
\t.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
\t.globl NAME
\t.p2align 8
\t.type NAME,@function
NAME:
\ts_endpgm
\t.rodata
\t.p2align 6
\t.amdhsa_kernel NAME
\t\t.amdhsa_next_free_vgpr 1
\t\t.amdhsa_next_free_sgpr 1
\t.end_amdhsa_kernel
\t.text
\t.amdgpu_metadata
---
amdhsa.kernels:
  - .name: NAME
    .symbol: NAME.kd
    .kernarg_segment_size: 0
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .wavefront_size: 32
    .sgpr_count: 1
    .vgpr_count: 1
    .max_flat_workgroup_size: 256
amdhsa.target: amdgcn-amd-amdhsa--gfx1100
amdhsa.version: [1, 2]
...
\t.end_amdgpu_metadata
"""
