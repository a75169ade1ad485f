"""Texture references (`texture<T, dim, mode>`, removed from CUDA 12) port to HIP's, which it keeps
(deprecated): the binding calls are renamed, and declarations whose element type HIP's
hipCreateChannelDesc<T>() gives the other signedness pass CUDA's descriptor to the constructor."""

from __future__ import annotations

import pytest

CALLS = (
    "texture<float, 1, cudaReadModeElementType> lin;\n"
    "texture<float, cudaTextureType2D> img;\n"
    "void f(float* p, cudaArray* a, cudaChannelFormatDesc d, size_t pitch) {\n"
    "  size_t off;\n"
    "  cudaBindTexture(&off, lin, p, 64);\n"
    "  cudaBindTexture2D(0, img, p, d, 4, 4, pitch);\n"
    "  cudaBindTextureToArray(img, a, d);\n"
    "  const textureReference* r;\n"
    "  cudaGetTextureReference(&r, &lin);\n"
    "  cudaGetTextureAlignmentOffset(&off, &lin);\n"
    "  cudaUnbindTexture(lin);\n"
    "}\n"
)


@pytest.mark.parametrize("hip_version", ["5.2", "6.2", "7.0"])
def test_texture_reference_calls_are_renamed(port_snippet, hip_version):
    out, codes = port_snippet(CALLS, hip_version=hip_version)
    assert codes == {}
    assert "texture<float, 1, hipReadModeElementType> lin;" in out
    assert "texture<float, hipTextureType2D> img;" in out
    for call in ("hipBindTexture(&off", "hipBindTexture2D(0", "hipBindTextureToArray(img",
                 "hipGetTextureReference(&r", "hipGetTextureAlignmentOffset(&off",
                 "hipUnbindTexture(lin)"):  # fmt: skip
        assert call in out
    assert "cuda" not in out


@pytest.mark.parametrize(
    ("element", "desc"),
    [
        ("uchar4", "hipCreateChannelDesc(8, 8, 8, 8, hipChannelFormatKindUnsigned)"),
        ("uchar1", "hipCreateChannelDesc(8, 0, 0, 0, hipChannelFormatKindUnsigned)"),
        ("signed char", "hipCreateChannelDesc(8, 0, 0, 0, hipChannelFormatKindSigned)"),
    ],
)
def test_declaration_gets_cudas_channel_descriptor(port_snippet, element, desc):
    out, codes = port_snippet(f"static texture<{element}, 2, cudaReadModeNormalizedFloat> t;\n")
    assert out.endswith(
        f"static texture<{element}, 2, hipReadModeNormalizedFloat> t(0, hipFilterModePoint, "
        f"hipAddressModeClamp, {desc});\n"
    )
    assert [d.line for d in codes["CASS060"]] == [1] and "signedness" in codes["CASS060"][0].message


def test_each_declarator_gets_the_descriptor(port_snippet):
    out, codes = port_snippet("texture<uchar2> a, b;\n")
    desc = "(0, hipFilterModePoint, hipAddressModeClamp, hipCreateChannelDesc(8, 8, 0, 0, "
    assert out.count(desc) == 2 and len(codes["CASS060"]) == 2


@pytest.mark.parametrize(
    "decl",
    ["texture<float, 1> t;", "texture<unsigned char, 1> t;", "texture<uchar4> t(1);"],
)
def test_declaration_left_as_written(port_snippet, decl):
    out, codes = port_snippet(decl + "\n")
    assert out.endswith(decl + "\n") and codes == {}


def test_surface_references_are_still_reported(port_snippet):
    out, codes = port_snippet("surface<void, 2> s;\n")
    assert [d.line for d in codes["CASS071"]] == [1]
    assert "surface objects" in codes["CASS071"][0].message
