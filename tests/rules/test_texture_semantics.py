"""Texture calls whose HIP headers mean something else: `cudaCreateChannelDesc<uchar4>()` (HIP's
specialization has the signed kind) and `tex2Dgather` on texture objects (HIP numbers components
1 = x .. 0 = w; its pointer form samples a cube map). The port keeps CUDA's meaning: the program's
own host check, written to CUDA's definitions, passes on the emulator, and the port prints what
the original printed on the H200."""

from __future__ import annotations

from pathlib import Path

import pytest
from cass.models.engine import Target
from cass.models.rules.project import translate_text
from cass.server.cli import main

PROGRAM = Path(__file__).with_name("ports") / "texture_semantics.cu"


def _h200(name: str) -> list[str]:
    """What the CUDA program printed on the H200 (nvcc 13, sm_90), recorded beside it."""
    return PROGRAM.with_name(f"{name}.h200.txt").read_text().splitlines()


def _printed(out: str) -> list[str]:
    return [ln for ln in out.splitlines() if not ln.startswith("cass emulator:")]


def _port(text: str) -> str:
    return translate_text(text, "t.cu", Target()).text


def test_channel_descriptors_with_hip_signedness_are_spelled_out():
    text = _port(
        "auto a = cudaCreateChannelDesc<uchar4>();\nauto b = cudaCreateChannelDesc<signed char>();\n"
        "auto c = cudaCreateChannelDesc<float4>();\nauto d = cudaCreateChannelDesc<uchar2>();\n"
    )
    assert "hipCreateChannelDesc(8, 8, 8, 8, hipChannelFormatKindUnsigned)" in text
    assert "hipCreateChannelDesc(8, 0, 0, 0, hipChannelFormatKindSigned)" in text
    assert "hipCreateChannelDesc(8, 8, 0, 0, hipChannelFormatKindUnsigned)" in text
    assert "hipCreateChannelDesc<float4>()" in text  # HIP's float4 specialization agrees


def test_gather_components_follow_hip_numbering():
    text = _port(
        "__global__ void k(cudaTextureObject_t t, float4* o, int c) {\n"
        "  o[0] = tex2Dgather<float4>(t, 1.f, 1.f);\n  o[1] = tex2Dgather<float4>(t, 1.f, 1.f, 3);\n"
        "  o[2] = tex2Dgather<float4>(t, 1.f, 1.f, c);\n  tex2Dgather(&o[3], t, 1.f, 1.f);\n"
        "  tex2Dgather(o + 4, t, 1.f, 1.f, 2);\n}\n"
    )
    assert "tex2Dgather<float4>(t, 1.f, 1.f, 1)" in text
    assert "tex2Dgather<float4>(t, 1.f, 1.f, 0)" in text
    assert "tex2Dgather<float4>(t, 1.f, 1.f, ((c) + 1) & 3)" in text
    assert "(*(&o[3]) = tex2Dgather<std::remove_reference_t<decltype(*(&o[3]))>>(" in text
    assert "(*(o + 4) = tex2Dgather<std::remove_reference_t<decltype(*(o + 4))>>(" in text
    assert text.count("tex2Dgather") == 5


@pytest.mark.toolchain
def test_the_ported_program_keeps_cuda_meaning_on_the_emulator(tmp_path, capsys):
    port = tmp_path / "t.hip"
    assert main(["port", str(PROGRAM), "-o", str(port)]) == 0
    assert main(["run-hip", str(port)]) == 0
    out = capsys.readouterr().out
    assert "case 0: 0.7843 0.3922 0.1961 1.0000" in out  # unsigned normalized, as CUDA reads it
    assert _printed(out) == _h200("texture_semantics")


def test_surface_calls_go_through_helpers_that_move_bits():
    text = _port(
        "__global__ void k(cudaSurfaceObject_t s) {\n  int v; surf2Dread(&v, s, 0, 0);\n"
        "  surf2Dwrite(surf2Dread<int>(s, 4, 0), s, 0, 1);\n  surf2DLayeredwrite(v, s, 0, 0, 1);\n}\n"
    )
    assert "__cass_surf2Dread(&v, s, 0, 0)" in text and "__cass_surf2Dread<int>(s, 4, 0)" in text
    assert "__cass_surf2Dwrite(" in text and "__cass_surf2DLayeredwrite(v, s, 0, 0, 1)" in text
    assert "CASS_SHIM_SURFACES" in text


@pytest.mark.toolchain
def test_integer_and_layered_surfaces_keep_cuda_meaning_on_the_emulator(tmp_path, capsys):
    """HIP 5.2's own surface functions read 0 for a stored 5 and store the bits of 5.0f; its
    layered forms take the layer as a mip level. The emulator runs the a16 image loads and
    stores clang-16 emits for these small coordinates."""
    port = tmp_path / "s.hip"
    assert main(["port", str(PROGRAM.with_name("surface_semantics.cu")), "-o", str(port)]) == 0
    assert main(["run-hip", str(port)]) == 0
    out = capsys.readouterr().out
    assert "read 10 -14 246912 4" in out and "written 51 -69 1234561 21" in out
    assert _printed(out) == _h200("surface_semantics")
