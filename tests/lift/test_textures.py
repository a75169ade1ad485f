"""Texture and surface objects through the lifter (data/texture_kernels.cu): tex1Dfetch on linear
memory (float, int4, float2), tex2D point and bilinear (normalized coordinates), tex3D,
tex2DLayered, tex2Dgather, tex2DLod, surface reads and writes (float, float4, uchar4 with clamp and zero
boundaries, 1D). Lifted from nvcc's sm_80 and sm_90 SASS to gfx1100 (ockl's image functions, as
HIP's headers call them), linked with the rules engine's port of the host code and run on the RDNA3
emulator; the output is checked against a Python model of the CUDA semantics, which is what the
H200 printed for the original program (data/texture_kernels.h200.txt). Texture handles
that do not come from a kernel parameter, queries ptxas answers from driver tables and surface
atomics are located errors; size queries (TXQ) run on the emulator."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from cass.models.lift.module import optimize
from cass.models.lift.pipeline import lift_sass
from cass.models.lift.targets import AMDGCN, RUNTIME_DIR

DATA = Path(__file__).parent / "data"
W, H, D, L, N = 16, 8, 4, 3, 256
LIN = [float(i * 7 % 23 - 5) for i in range(N)]


def g(x: int, y: int) -> float:
    return x * 10.0 + y


def expected() -> dict[str, list[float]]:
    rows = [(x, y) for y in range(H) for x in range(W)]
    linear = []
    for x, y in rows:
        u = x + 0.25 if x < W - 1 else float(W - 1)  # bilinear at x + 0.25, clamped at the edge
        linear += [u, y, u + y, u * y]
    gather = []
    for y in range(H - 1):
        for x in range(W - 1):
            gather += [g(x, y + 1), g(x + 1, y + 1), g(x + 1, y), g(x, y)]
    uchar = []
    for x, y in rows:
        source = min(x + 1, W - 1)  # cudaBoundaryModeClamp
        b = [(source * 4 + y * 7 + c * 50) & 0xFF for c in range(4)]
        uchar += [(b[0] + 1) & 0xFF, b[1], b[2], b[1]]
    return {
        "fetch_float": [v * 2 for v in LIN],
        "fetch_int4": [float(i * 3 - 100) for i in range(256)],
        "fetch_float2": LIN,
        "point2d": [g(x, y) for x, y in rows],
        "gather2d": gather,
        "lod2d": [g(x, y) for x, y in rows],
        "linear2d": linear,
        "point3d": [g(x, y) + 100 * z for z in range(D) for x, y in rows],
        "layered2d": [g(x, y) + 2000 for x, y in rows],
        "surface_float": [g(x, y) * 3 + 1 for x, y in rows],
        "surface_1d": LIN,
        "surface_float4": [v for x, y in rows for v in (x * y, x + y, y, x + 0.5)],
        "surface_uchar4": [float(v) for v in uchar],
    }


def parse_output(text: str) -> dict[str, list[float]]:
    return {
        name: [float(v) for v in values]
        for name, *values in (line.split() for line in text.splitlines() if line.strip())
    }


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_texture_and_surface_kernels_run_on_the_emulator(
    arch: str, tmp_path: Path, build_lifted
) -> None:
    from cass.models.lift.inputs import disassemble
    from cass.runner.emulator import run_program

    program = build_lifted(DATA / "texture_kernels.cu", arch, tmp_path)
    sass = disassemble(tmp_path / "texture_kernels.cubin", None)
    for form in ("TLD.", "TLD4.", "TEX.", ".LZ", ".LL", "ARRAY_2D", "3D", "SULD.D.BA.2D.128",
                 "SULD.D.BA.1D", "SUST.D.BA.2D", ".IGN"):  # fmt: skip
        assert form in sass, form
    run = run_program(program, timeout_s=240)
    assert run.exit_code == 0, run.stderr
    assert parse_output(run.stdout) == expected()
    # the model is what the H200 printed for the original program (nvcc -arch=sm_90, CUDA 13)
    assert parse_output((DATA / "texture_kernels.h200.txt").read_text()) == expected()


def _optimized(sass: str, arch: str) -> str:
    """A hand-written kernel lifted for gfx1100 and optimized, ockl's functions left as calls."""
    result = lift_sass(sass, path="k.sass", arch=arch, compile=False)
    assert result.ok, [d.render() for d in result.diagnostics]
    return optimize(result.llvm_ir + (RUNTIME_DIR / "images.ll").read_text(), AMDGCN)


def _kernel(body: list[str]) -> str:
    lines = [f"        /*{16 * k:04x}*/ {text} ;" for k, text in enumerate([*body, "EXIT"])]
    return "\t\tFunction : k\n" + "\n".join(lines) + "\n"


SETUP = ["MOV R4, 0x3f800000", "MOV R5, 0x40000000", "MOV R6, 0x40400000", "MOV R7, 0xc2000000",
         "MOV R10, 0x3", "MOV R11, 0x3f800000", "MOV R12, 0x40800000"]  # fmt: skip


@pytest.mark.parametrize(
    ("arch", "tex", "function", "values"),
    [
        # sm_90, 3D, implicit LOD (-32.0): Ra = (x, y, z), Rb = lod -> HIP's tex3D
        ("sm_90", "TEX.LL RZ, R9, R4, R7, UR4, 0x0, 3D, 0x1", "sample_3D", [1, 2, 3, 0]),
        # sm_80, 3D, the constant-bank form: Ra = (x, y), Rb = (z, lod)
        ("sm_80", "TEX.SCR.LL RZ, R9, R4, R6, 0x0, 0x58, 3D, 0x1", "sample_3D", [1, 2, 3, 0]),
        # sm_80, 2D at level 0 split over Ra and Rb -> HIP's tex2DLod(.., 0)
        ("sm_80", "TEX.SCR.LZ RZ, R9, R4, R5, 0x0, 0x58, 2D, 0x1", "sample_lod_2D", [1, 2, 0]),
        # sm_80 layered: Ra = (layer, x), Rb = (y, lod 2.0); HIP takes (x, y, float layer), lod
        ("sm_80", "TEX.SCR.LL RZ, R9, R10, R4, 0x0, 0x58, ARRAY_2D, 0x1", "sample_lod_2Da",
         [1, 1, 3, 0, 2]),
        # sm_90 layered: Ra = (layer, x, y), Rb = lod
        ("sm_90", "TEX.LL RZ, R9, R10, R5, UR4, 0x0, ARRAY_2D, 0x1", "sample_lod_2Da",
         [1, 4, 3, 0, 2]),
    ],
)  # fmt: skip
def test_texture_operand_layout(arch: str, tex: str, function: str, values: list[float]) -> None:
    store = ("LDC.64 R2, c[0x0][0x218]" if arch == "sm_90" else "MOV R2, c[0x0][0x168]",
             "ULDC.64 UR4, c[0x0][0x208]" if arch == "sm_90" else "MOV R3, c[0x0][0x16c]",
             "STG.E desc[UR4][R2.64], R9" if arch == "sm_90" else "STG.E [R2.64], R9")  # fmt: skip
    handle = ["ULDC.64 UR4, c[0x0][0x210]"] if arch == "sm_90" else []
    ir = _optimized(_kernel([*SETUP, *handle, tex, *store]), arch)
    calls = [
        line for line in ir.splitlines() if f"call <4 x float> @__ockl_image_{function}(" in line
    ]
    assert len(calls) == 1, ir  # (a 2D access also holds the 1D-image branch)
    found = re.findall(r"float (-?[0-9.]+e[+-][0-9]+)", calls[0])
    assert [float(v) for v in found] == values, calls[0]


def test_sm80_handle_is_the_parameter_word() -> None:
    """`0x0, 0x58`: constant bank 0, word 0x58 = byte 0x160, the first sm_80 parameter."""
    body = ["TLD.SCR.LZ RZ, R4, R0, 0x0, 0x58, 1D, 0x1", "MOV R2, c[0x0][0x168]",
            "MOV R3, c[0x0][0x16c]", "STG.E [R2.64], R4"]  # fmt: skip
    sass = _kernel(body).replace(
        "Function : k", "Function : _Z1kyPf"
    )  # k(unsigned long long, float*)
    ir = _optimized(sass, "sm_80")
    assert "define amdgpu_kernel void @_Z1kyPf(i64 %p0, i64 %p1)" in ir
    handle = re.search(r"(%\w+) = inttoptr i64 %p0 to ptr addrspace\(4\)", ir)
    assert handle, ir  # tex1Dfetch: HIP's buffer-texture load through the parameter's pointer
    assert f"call <4 x float> @__ockl_image_load_1Db(ptr addrspace(4) {handle.group(1)}, i32 " in ir


def test_unsupported_texture_forms_are_located_errors(tmp_path: Path, build_lifted) -> None:
    from cass.models.lift.elfinfo import read_cubin
    from cass.models.lift.inputs import disassemble
    from cass.runner.toolchain import find_tool

    for arch in ("sm_80", "sm_90"):
        cubin = tmp_path / f"{arch}.cubin"
        subprocess.run([str(find_tool("nvcc").path), "-cubin", "-O3", f"-arch={arch}", "-o", str(cubin),
                        str(DATA / "texture_unsupported.cu")], check=True, capture_output=True, timeout=300)  # fmt: skip
        result = lift_sass(disassemble(cubin, None), path="k.sass", arch=arch,
                           cubin=read_cubin(cubin.read_bytes()), compile=False)  # fmt: skip
        found = {d.message.split(" at ")[0]: d.message for d in result.diagnostics}
        assert "pass the object as a kernel parameter" in found["from_memory"]
        assert "is a driver constant the lifter does not model" in found["query"]
        assert "surface atomics" in found["surface_add"]
        assert all(d.line > 1 for d in result.diagnostics)


def test_texture_parameters_give_the_hip_kernel_name() -> None:
    """A C++ kernel taking texture objects: CUDA mangles `unsigned long long` (y), HIP's host port
    registers `__hip_texture*`; the lifted kernel carries the HIP name too."""
    from cass.models.lift.aliases import hip_aliases
    from cass.models.lift.params import infer_layout
    from cass.models.lift.parse import parse_listing
    from cass.models.lift.textures import handle_params

    name = "_Z4warpyy4WarpPf"  # warp(cudaTextureObject_t, cudaTextureObject_t, Warp, float*)
    sass = _kernel(["ULDC UR4, c[0x0][0x218]", "TLD.LZ RZ, R5, R7, UR4, 0x0, 1D, 0x1",
                    "ULDC UR4, c[0x0][0x210]", "TEX.LL RZ, R4, R2, R8, UR4, 0x0, 2D, 0x1"])  # fmt: skip
    fn = parse_listing(sass.replace("Function : k", f"Function : {name}"), "k.sass").functions[0]
    handles = handle_params(fn, infer_layout(fn, "sm_90"))
    assert handles == {0: "hipTextureObject_t", 1: "hipTextureObject_t"}
    assert hip_aliases([name], {name: handles}) == {name: "_Z4warpP13__hip_textureS0_4WarpPf"}
    surface = {name: {0: "hipSurfaceObject_t"}}
    assert hip_aliases([name], surface) == {name: "_Z4warpP13__hip_surfacey4WarpPf"}


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_size_queries_run_on_the_emulator(arch: str, tmp_path: Path, build_lifted) -> None:
    """txq/suq width, height and depth (TXQ TEX_HEADER_DIMENSION) of a 24x10 texture, a 20x6x3
    texture and a 12x5 surface."""
    from cass.models.lift.inputs import disassemble
    from cass.runner.emulator import run_program

    host = DATA / "texture_query_host.hip"
    program = build_lifted(DATA / "texture_query.cu", arch, tmp_path, host=host)
    assert "TXQ" in disassemble(tmp_path / "texture_query.cubin", None)
    run = run_program(program, timeout_s=120)
    assert run.exit_code == 0, run.stderr
    assert run.stdout.split() == ["query", "24", "10", "3", "20", "6", "12", "5", "0"]


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_one_dimensional_textures_run_on_the_emulator(
    arch: str, tmp_path: Path, build_lifted
) -> None:
    """tex1D and tex1DLod arrive as 2D accesses at y = 0 and take HIP's 1D path when the image is
    1D; tex1DLayered is ARRAY_1D. (tex1DGrad lifts too; the emulator has no image_sample_d.)"""
    from cass.runner.emulator import run_program

    host = DATA / "texture_1d_host.hip"
    program = build_lifted(DATA / "texture_1d.cu", arch, tmp_path, host=host)
    run = run_program(program, timeout_s=120)
    assert run.exit_code == 0, run.stderr
    line = [i * 1.5 for i in range(32)]
    assert parse_output(run.stdout) == {
        "sample1d": line,
        "lod1d": line,
        "layered1d": [v + 200 for v in line],
    }


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_surface_element_sizes_run_on_the_emulator(arch: str, tmp_path: Path, build_lifted) -> None:
    """1-, 2- and 8-byte surface elements (SULD/SUST .U8, .U16, .64) read and written in place."""
    from cass.models.lift.inputs import disassemble
    from cass.runner.emulator import run_program

    host = DATA / "surface_sizes_host.hip"
    program = build_lifted(DATA / "surface_sizes.cu", arch, tmp_path, host=host)
    sass = disassemble(tmp_path / "surface_sizes.cubin", None)
    assert all(f"SUST.D.BA.2D.{size}" in sass for size in ("U8", "U16", "64"))
    run = run_program(program, timeout_s=120)
    assert run.exit_code == 0, run.stderr
    cells = [(x, y) for y in range(4) for x in range(16)]
    shorts = [-(x * 100 - y * 1000 - 500) - 3 for x, y in cells]
    pairs = [v for x, y in cells for v in (-y, (x + 0.5) * 2)]
    assert parse_output(run.stdout) == {
        "bytes": [((x * 3 + y * 40) * 2 + 1) & 0xFF for x, y in cells],
        "shorts": [float((v + 0x8000) % 0x10000 - 0x8000) for v in shorts],
        "pairs": [float(v) for v in pairs],
    }
