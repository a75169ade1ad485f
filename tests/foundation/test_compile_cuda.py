"""The NVIDIA stack with the real nvcc and cuobjdump: every example, every emit, errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from cass.runner.compile import compile_file
from cass.runner.compile_cuda import (
    parse_ptxas_report,
    sass_instructions,
    split_sass,
    strip_device_blob,
)
from cass.runner.diagnostics import CassError, Severity, WorkError

pytestmark = pytest.mark.toolchain
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_vector_add_sass_names_the_kernel(cuda_builds):
    result = cuda_builds["vector_add"]
    assert "Function : _Z10vector_addPKfS0_Pfi" in result.texts["sass"]
    assert "code for sm_80" in result.texts["sass"]
    (kernel,) = result.kernels
    assert kernel.demangled == "vector_add(float const*, float const*, float*, int)"
    assert kernel.registers > 0 and kernel.spills == 0 and kernel.shared_bytes == 0
    assert any(i.startswith("FADD") for i in sass_instructions(kernel.asm))


def test_shared_memory_reduction_reports_its_shared_bytes(cuda_builds):
    (kernel,) = cuda_builds["reduce_shared"].kernels
    assert kernel.shared_bytes == 256 * 4
    assert any(i.startswith("BAR.SYNC") for i in sass_instructions(kernel.asm))
    assert any(i.startswith("STS") for i in sass_instructions(kernel.asm))


def test_templated_kernel_yields_one_kernel_per_instantiation(cuda_builds):
    names = sorted(k.demangled for k in cuda_builds["templated_scale"].kernels)
    assert names == [
        "void scale_offset<float>(float const*, float*, float, float, int)",
        "void scale_offset<int>(int const*, int*, int, int, int)",
    ]
    by_type = {
        k.demangled.split("<")[1][:3]: sass_instructions(k.asm)
        for k in cuda_builds["templated_scale"].kernels
    }
    assert any("FFMA" in i for i in by_type["flo"]) and not any("FFMA" in i for i in by_type["int"])


def test_two_kernels_in_one_file_are_split_apart(cuda_builds):
    kernels = {k.demangled.split("(")[0]: k for k in cuda_builds["two_kernels"].kernels}
    assert set(kernels) == {"fill_index", "square_in_place"}
    assert "square_in_place" not in kernels["fill_index"].asm
    assert any(i.startswith("IMAD") for i in sass_instructions(kernels["square_in_place"].asm))


def test_constant_memory_is_read_from_constant_bank_3(cuda_builds):
    (kernel,) = cuda_builds["constant_poly"].kernels
    assert "c[0x3]" in kernel.asm


@pytest.mark.parametrize("arch", ["sm_86", "sm_89", "sm_90"])
def test_other_archs(tmp_path, arch):
    result = compile_file(EXAMPLES / "vector_add.cu", ["sass"], arch=arch, out_dir=tmp_path)
    assert f"code for {arch}" in result.texts["sass"]
    assert result.artifacts["sass"] == tmp_path / f"vector_add.{arch}.sass"


def test_ptx_cubin_host_asm_and_executable(tmp_path):
    emits = ["ptx", "cubin", "host-asm", "exe"]
    result = compile_file(EXAMPLES / "two_kernels.cu", emits, arch="sm_80", out_dir=tmp_path)
    assert ".entry _Z10fill_indexPii" in result.texts["ptx"]
    assert result.artifacts["cubin"].read_bytes()[:4] == b"\x7fELF"
    exe = result.artifacts["exe"]
    assert exe.read_bytes()[:4] == b"\x7fELF" and exe.stat().st_mode & 0o111
    host = result.texts["host-asm"]
    assert "main:" in host and "fatbinData:" not in host and ".nv_fatbin" not in host
    assert "NVIDIA device fatbin" in host


def test_strip_device_blob_keeps_everything_else():
    asm = (
        '\t.text\n#APP\n\t.section .nv_fatbin, "a"\n.align 8\nfatbinData:\n'
        ".quad 0x1,0x2\n.quad 0x3\n.text\n\n#NO_APP\nmain:\n\tret\n"
    )
    out = strip_device_blob(asm)
    assert "fatbinData" not in out and "0x3" not in out
    assert "# cass: NVIDIA device fatbin (24 bytes) removed" in out
    assert out.endswith(".text\n\n#NO_APP\nmain:\n\tret\n")


def test_syntax_error_is_a_located_diagnostic(tmp_path):
    src = tmp_path / "broken.cu"
    src.write_text("__global__ void k(float* a) {\n  int i = threadIdx.x\n  a[i] = 1.0f;\n}\n")
    with pytest.raises(CassError) as info:
        compile_file(src, ["sass"], arch="sm_80")
    assert isinstance(info.value, WorkError)
    errors = [d for d in info.value.diagnostics if d.severity is Severity.ERROR]
    assert errors[0].path == str(src) and (errors[0].line, errors[0].column) == (3, 3)
    assert errors[0].render().startswith(f'{src}:3:3: error: expected a ";"')


def test_undefined_identifier_points_at_its_column(tmp_path):
    src = tmp_path / "undef.cu"
    src.write_text("__global__ void k(float* a) {\n    a[0] = missing_value;\n}\n")
    with pytest.raises(CassError) as info:
        compile_file(src, ["ptx"], arch="sm_80")
    (error,) = [d for d in info.value.diagnostics if d.severity is Severity.ERROR]
    assert (error.line, error.column) == (2, 12) and "missing_value" in error.message


def test_ptxas_report_parser():
    report = (
        "ptxas info    : Compiling entry function '_Z1kPf' for 'sm_80'\n"
        "ptxas info    : Function properties for _Z1kPf\n"
        "    0 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads\n"
        "ptxas info    : Used 40 registers, used 1 barriers, 2048 bytes smem, 360 bytes cmem[0]\n"
    )
    stats = parse_ptxas_report(report)["_Z1kPf"]
    assert (stats.registers, stats.shared_bytes, stats.spill_bytes) == (40, 2048, 8)


def test_split_sass_blocks():
    sass = "\tcode for sm_80\n\t\tFunction : _Z1av\n  A1\n\t\t..........\n\n\t\tFunction : _Z1bv\n  B1\n"
    blocks = split_sass(sass)
    assert list(blocks) == ["_Z1av", "_Z1bv"] and "B1" not in blocks["_Z1av"]
