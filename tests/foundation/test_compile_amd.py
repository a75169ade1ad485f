"""The AMD stack with the real clang-16, llvm-mc and ld.lld: HIP and RDNA3 assembly."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from cass.runner import toolchain
from cass.runner.compile import compile_file, side_by_side
from cass.runner.compile_amd import kernel_asm, parse_kernel_notes, rdna3_instructions
from cass.runner.diagnostics import CassError, Severity, WorkError

pytestmark = pytest.mark.toolchain
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

GOOD_ASM = """\
\t.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
\t.text
\t.globl\tstore_seven
\t.p2align\t8
\t.type\tstore_seven,@function
store_seven:
\ts_load_b64 s[0:1], s[0:1], 0x0
\tv_mov_b32_e32 v0, 0
\tv_mov_b32_e32 v1, 7
\ts_waitcnt lgkmcnt(0)
\tglobal_store_b32 v0, v1, s[0:1]
\ts_endpgm
.Lfunc_end0:
\t.size\tstore_seven, .Lfunc_end0-store_seven
\t.rodata
\t.p2align\t6
\t.amdhsa_kernel store_seven
\t\t.amdhsa_user_sgpr_kernarg_segment_ptr 1
\t\t.amdhsa_next_free_vgpr 2
\t\t.amdhsa_next_free_sgpr 2
\t.end_amdhsa_kernel
\t.amdgpu_metadata
---
amdhsa.kernels:
  - .args:
      - .address_space:  global
        .name:           out
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 8
    .max_flat_workgroup_size: 256
    .name:           store_seven
    .private_segment_fixed_size: 0
    .sgpr_count:     2
    .symbol:         store_seven.kd
    .vgpr_count:     2
    .wavefront_size: 32
amdhsa.target:   amdgcn-amd-amdhsa--gfx1100
amdhsa.version:
  - 1
  - 2
...
\t.end_amdgpu_metadata
"""


def readelf(*args: str) -> str:
    tool = str(toolchain.require_tool("llvm-readelf-16"))
    return subprocess.run(
        [tool, *args], capture_output=True, text=True, timeout=60, check=True
    ).stdout


def test_hip_device_assembly_has_the_kernel_descriptor(hip_builds):
    asm = hip_builds["vector_add"].texts["rdna3"]
    assert ".amdhsa_kernel _Z10vector_addPKfS0_Pfi" in asm
    assert "amdgcn-amd-amdhsa--gfx1100" in asm
    (kernel,) = hip_builds["vector_add"].kernels
    assert kernel.demangled == "vector_add(float const*, float const*, float*, int)"
    assert rdna3_instructions(kernel.asm)[-1] == "s_endpgm"
    assert any(i.startswith("v_add_f32") for i in rdna3_instructions(kernel.asm))


def test_code_object_is_an_elf_that_readelf_notes_read(hip_builds):
    code_object = hip_builds["vector_add"].artifacts["code-object"]
    assert code_object.read_bytes()[:4] == b"\x7fELF"
    notes = readelf("--notes", str(code_object))
    assert "NT_AMDGPU_METADATA" in notes and "_Z10vector_addPKfS0_Pfi" in notes


def test_reduction_reports_its_lds_bytes(hip_builds):
    (kernel,) = hip_builds["reduce_shared"].kernels
    assert kernel.shared_bytes == 1024 and kernel.spills == 0
    assert kernel.registers > 0 and kernel.scalar_registers > 0
    assert any(i.startswith("s_barrier") for i in rdna3_instructions(kernel.asm))


def test_templated_and_two_kernel_files_list_every_kernel(hip_builds):
    templated = sorted(k.demangled for k in hip_builds["templated_scale"].kernels)
    assert templated == [
        "void scale_offset<float>(float const*, float*, float, float, int)",
        "void scale_offset<int>(int const*, int*, int, int, int)",
    ]
    two = {k.demangled.split("(")[0]: k for k in hip_builds["two_kernels"].kernels}
    assert set(two) == {"fill_index", "square_in_place"}
    assert "square_in_place" not in two["fill_index"].asm


def test_constant_memory_becomes_a_device_global(hip_builds):
    assert "coeffs" in hip_builds["constant_poly"].texts["rdna3"]


def test_host_assembly_and_host_object(tmp_path):
    result = compile_file(
        EXAMPLES / "vector_add.hip", ["host-asm", "host-object"], out_dir=tmp_path
    )
    host = result.texts["host-asm"]
    assert "main:" in host and ".amdhsa_kernel" not in host and "s_endpgm" not in host
    symbols = readelf("-s", "-W", str(result.artifacts["host-object"]))
    for name in ("__hipRegisterFatBinary", "__hipRegisterFunction", "hipMalloc"):
        assert name in symbols


@pytest.mark.parametrize("arch, wave", [("gfx1101", "32"), ("gfx90a", "64")])
def test_other_amd_targets(tmp_path, monkeypatch, arch, wave):
    result = compile_file(
        EXAMPLES / "vector_add.hip", ["code-object"], arch=arch, out_dir=tmp_path, kernels=False
    )
    notes = readelf("--notes", str(result.artifacts["code-object"]))
    assert f"amdgcn-amd-amdhsa--{arch}" in notes and f".wavefront_size: {wave}" in notes


def test_unsupported_amd_target_is_a_clear_error():
    with pytest.raises(CassError, match="gfx942 is not supported by clang-16") as info:
        compile_file(EXAMPLES / "vector_add.hip", ["rdna3"], arch="gfx942")
    assert not isinstance(info.value, WorkError)


def test_hip_syntax_error_is_located(tmp_path):
    src = tmp_path / "broken.hip"
    src.write_text("#include <hip/hip_runtime.h>\n__global__ void k(int* a) {\n  a[0] = 1\n}\n")
    with pytest.raises(CassError) as info:
        compile_file(src, ["rdna3"])
    (error,) = [d for d in info.value.diagnostics if d.severity is Severity.ERROR]
    assert error.render().startswith(f"{src}:3:11: error: expected ';'")
    assert isinstance(info.value, WorkError)


def test_rdna3_assembly_to_code_object(tmp_path):
    src = tmp_path / "store_seven.s"
    src.write_text(GOOD_ASM)
    result = compile_file(src, ["code-object"], out_dir=tmp_path, kernels=True)
    assert result.artifacts["code-object"] == tmp_path / "store_seven.gfx1100.hsaco"
    assert "store_seven" in readelf("--notes", str(result.artifacts["code-object"]))
    (kernel,) = result.kernels
    assert (kernel.name, kernel.registers, kernel.scalar_registers) == ("store_seven", 2, 2)
    assert rdna3_instructions(kernel.asm)[-1] == "s_endpgm"


def test_invalid_rdna3_instruction_maps_to_file_line(tmp_path):
    src = tmp_path / "bad.s"
    src.write_text(
        GOOD_ASM.replace("\tv_mov_b32_e32 v1, 7\n", "\tv_mov_b32_e32 v1, 7\n\tv_bogus_op v1, v2\n")
    )
    with pytest.raises(CassError) as info:
        compile_file(src, ["code-object"])
    (error,) = [d for d in info.value.diagnostics if d.severity is Severity.ERROR]
    assert (error.path, error.line, error.column) == (str(src), 10, 2)
    assert "invalid instruction" in error.message
    assert isinstance(info.value, WorkError)


def test_kernel_notes_parser_ignores_argument_names():
    entries = parse_kernel_notes(GOOD_ASM.split("---\n", 1)[1])
    assert entries == [entries[0]] and entries[0][".name"] == "store_seven"
    assert entries[0][".vgpr_count"] == "2"


def test_kernel_asm_takes_one_kernel_only():
    text = kernel_asm(GOOD_ASM, "store_seven")
    assert text.startswith("\t.globl\tstore_seven") and text.rstrip().endswith(".end_amdhsa_kernel")
    assert kernel_asm(GOOD_ASM, "other") == ""


def test_side_by_side_pairs_kernels_by_name():
    pairs = side_by_side(EXAMPLES / "two_kernels.cu", EXAMPLES / "two_kernels.hip", arch="sm_80")
    assert sorted(p.name for p in pairs) == ["fill_index(int*, int)", "square_in_place(int*, int)"]
    for pair in pairs:
        assert pair.sass[-1] == "EXIT" and pair.rdna3[-1] == "s_endpgm"
        assert (pair.cuda_arch, pair.hip_arch) == ("sm_80", "gfx1100")
