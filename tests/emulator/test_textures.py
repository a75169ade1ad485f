"""Texture and surface objects on the emulator: a HIP program (programs/textures.hip) compiled by
clang-16 for gfx1100 samples arrays, layered and 3D arrays and linear memory through the cass
runtime's gfx11 descriptors; every result is checked against a scalar numpy model of the
sampling written from CUDA's description of texture fetching (point: floor; linear: taps at
floor(x - 0.5) with 8-bit fractional weights; wrap, mirror, clamp, border addressing)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from cass.runner.emulator import FAULT_EXIT_CODE, build_hip_program, run_program
from cass.runner.emulator.decode import parse_text

pytestmark = pytest.mark.toolchain

W, H, D = 5, 4, 3
FRACTION = 256.0  # 8 fractional bits in the linear-filter weights
PROGRAMS = Path(__file__).parent / "programs"


def texel(x: int, y: int, z: int, c: int) -> float:
    return ((x * 7 + y * 13 + z * 29 + c * 3) % 23) * 0.5 - 3.0


def texel8(x: int, y: int, c: int) -> float:
    return float(np.float32(((x * 37 + y * 11 + c * 61) & 255) / np.float32(255)))


def addressed(i: int, n: int, mode: str) -> int | None:
    """Texel index of integer coordinate i, or None for the (zero) border."""
    if mode == "wrap":
        return i % n
    if mode == "mirror":
        j = i % (2 * n)
        return j if j < n else 2 * n - 1 - j
    if mode == "border":
        return i if 0 <= i < n else None
    return min(max(i, 0), n - 1)


def taps(u: float, n: int, mode: str, linear: bool) -> list[tuple[int | None, float]]:
    if not linear:
        return [(addressed(math.floor(u), n, mode), 1.0)]
    base = math.floor(u - 0.5)
    alpha = math.floor((u - 0.5 - base) * FRACTION + 0.5) / FRACTION  # to nearest, ties up
    return [(addressed(base, n, mode), 1.0 - alpha), (addressed(base + 1, n, mode), alpha)]


def model(fetch, coords, sizes, mode, linear, normalized):
    """Filtered value of `fetch(indices)` at `coords` (one entry per dimension)."""
    # the texture unit receives single-precision coordinates and scales them in single precision
    scale = [np.float32(n if normalized else 1) for n in sizes]
    texel_space = [float(np.float32(c) * k) for c, k in zip(coords, scale, strict=True)]
    per_dim = [taps(u, n, mode, linear) for u, n in zip(texel_space, sizes, strict=True)]
    total = 0.0
    for combo in np.ndindex(*[len(t) for t in per_dim]):
        picked = [per_dim[d][k] for d, k in enumerate(combo)]
        weight = math.prod(w for _, w in picked)
        idx = [i for i, _ in picked]
        if weight and None not in idx:
            total += weight * fetch(*idx)
    return total


@pytest.fixture(scope="module")
def cases(tmp_path_factory) -> dict[str, list[tuple[list[float], list[float]]]]:
    out = tmp_path_factory.mktemp("textures")
    exe = build_hip_program(PROGRAMS / "textures.hip", out / "textures")
    run = run_program(exe, timeout_s=240)
    assert run.exit_code == 0, run.stdout[-2000:] + run.stderr[-2000:]
    assert "surface: PASS" in run.stdout and "textures: done" in run.stdout
    assert "surface3d: PASS" in run.stdout  # its store's address is an NSA register list
    parsed: dict[str, list] = {}
    current: list = []
    for line in run.stdout.splitlines():
        if line.startswith("case "):
            current = parsed.setdefault(line[5:], [])
        elif "|" in line:
            left, right = line.split("|")
            current.append((_numbers(left), _numbers(right)))
    return parsed


def _numbers(text: str) -> list[float]:
    return [float.fromhex(t) if "0x" in t else float(t) for t in text.split()]


SAMPLED_2D = [
    ("pitch2d_linear_mirror_norm", "mirror", True, True),
    ("2d_linear_clamp_norm", "clamp", True, True),
    ("2d_point_wrap_norm", "wrap", False, True),
    ("2d_linear_wrap_norm", "wrap", True, True),
    ("2d_linear_mirror_norm", "mirror", True, True),
    ("2d_linear_border_unnorm", "border", True, False),
    ("2d_point_border_unnorm", "border", False, False),
]


@pytest.mark.parametrize("name,mode,linear,normalized", SAMPLED_2D, ids=[c[0] for c in SAMPLED_2D])
def test_2d_float_sampling_matches_the_model(cases, name, mode, linear, normalized):
    rows = cases[name]
    assert len(rows) == 48
    for (x, y, *_), (got,) in rows:
        want = model(lambda i, j: texel(i, j, 0, 0), [x, y], [W, H], mode, linear, normalized)
        assert got == pytest.approx(want, abs=2e-6), (name, x, y)


def test_weights_have_eight_fractional_bits(cases):
    """The recorded results agree with 8-bit weights and not with exact ones somewhere."""
    exact_differs = 0
    for (x, y, *_), (got,) in cases["2d_linear_clamp_norm"]:
        global FRACTION
        saved, FRACTION = FRACTION, float(1 << 24)
        try:
            exact = model(lambda i, j: texel(i, j, 0, 0), [x, y], [W, H], "clamp", True, True)
        finally:
            FRACTION = saved
        exact_differs += abs(got - exact) > 1e-4
    assert exact_differs > 5


def test_two_channel_1d_3d_and_layered_sampling(cases):
    for (x, y, *_), got in cases["2d_point_wrap_norm_float4"]:
        want = [
            model(lambda i, j, c=c: texel(i, j, 0, c), [x, y], [W, H], "wrap", False, True)
            for c in range(4)
        ]
        assert got == want
    for (x, y, *_), got in cases["2d_linear_clamp_norm_float2"]:
        for c in range(2):
            want = model(lambda i, j, c=c: texel(i, j, 0, c), [x, y], [W, H], "clamp", True, True)
            assert got[c] == pytest.approx(want, abs=2e-6)
    for (x, *_), (got,) in cases["1d_linear_clamp_norm"]:
        assert got == pytest.approx(
            model(lambda i: texel(i, 0, 0, 0), [x], [W], "clamp", True, True), abs=2e-6
        )
    for (x, y, z, _), (got,) in cases["3d_linear_clamp_norm"]:
        want = model(lambda i, j, k: texel(i, j, k, 0), [x, y, z], [W, H, D], "clamp", True, True)
        assert got == pytest.approx(want, abs=2e-6)
    for (x, y, _, layer), (got,) in cases["layered_linear_clamp_norm"]:
        want = model(
            lambda i, j, k=int(layer): texel(i, j, k, 0),
            [x, y],
            [W, H],
            "clamp",
            True,
            True,
        )
        assert got == pytest.approx(want, abs=2e-6)


def test_gather_returns_the_bilinear_footprint(cases):
    """tex2Dgather(.., 1) gathers red; HIP 5.2's headers send component 0 to alpha (1 here)."""
    assert all(got == [1.0] * 4 for _, got in cases["gather_comp0_clamp_norm"])
    for (x, y, *_), got in cases["gather_clamp_norm"]:
        i0, j0 = math.floor(x * W - 0.5), math.floor(y * H - 0.5)
        corners = [(i0, j0 + 1), (i0 + 1, j0 + 1), (i0 + 1, j0), (i0, j0)]
        want = [texel(min(max(i, 0), W - 1), min(max(j, 0), H - 1), 0, 0) for i, j in corners]
        assert got == want


def test_normalized_ushort2(cases):
    def unorm16(i, j, c):
        raw = (((i * 37 + j * 11 + c * 61) & 255) * 257 + c * 1000) & 0xFFFF  # as the ushort wraps
        return float(np.float32(raw / np.float32(65535)))

    for (x, y, *_), got in cases["2d_linear_clamp_norm_ushort2"]:
        for c in range(2):
            want = model(lambda i, j, c=c: unorm16(i, j, c), [x, y], [W, H], "clamp", True, True)
            assert got[c] == pytest.approx(want, abs=2e-6)


def test_half_texels_are_filtered_as_floats(cases):
    def half(i, j):
        return float(np.float16(np.float32(texel(i, j, 0, 0)) / np.float32(3)))

    for (x, y, *_), (got,) in cases["2d_linear_clamp_norm_half"]:
        assert got == pytest.approx(model(half, [x, y], [W, H], "clamp", True, True), abs=2e-6)


def test_normalized_uchar4_and_integer_elements(cases):
    for (x, y, *_), got in cases["2d_linear_wrap_norm_uchar4"]:
        for c in range(4):
            want = model(lambda i, j, c=c: texel8(i, j, c), [x, y], [W, H], "wrap", True, True)
            assert got[c] == pytest.approx(want, abs=2e-6)
    for (x, y, *_), (got,) in cases["2d_point_clamp_unnorm_int"]:
        i, j = min(max(math.floor(x), 0), W - 1), min(max(math.floor(y), 0), H - 1)
        assert got == int(texel(i, j, 0, 0) * 4) - 1000


def test_linear_memory_fetch_reads_zero_outside(cases):
    linear = [texel(i % 11, i // 11, 1, 0) for i in range(160)]
    for (index, *_), (got,) in cases["fetch_float"]:
        assert got == (linear[int(index)] if 0 <= index < 40 else 0.0)
    for (index, *_), got in cases["fetch_float4"]:
        k = int(index)
        assert got == (linear[4 * k : 4 * k + 4] if 0 <= k < 10 else [0.0] * 4)


def test_uninterpretable_descriptor_is_a_located_fault(tmp_path):
    src = tmp_path / "bad_texture.hip"
    src.write_text(
        "#include <hip/hip_runtime.h>\n#include <cstdio>\n"
        "__global__ void look(hipTextureObject_t t, float* o) { o[threadIdx.x] = tex2D<float>(t, 0.5f, 0.5f); }\n"
        "int main() { void* zeros; hipMalloc(&zeros, 128); float* o; hipMalloc(&o, 128);\n"
        "  look<<<1, 32>>>((hipTextureObject_t)zeros, o); hipDeviceSynchronize();\n"
        '  printf("not reached\\n"); return 0; }\n'
    )
    run = run_program(build_hip_program(src, tmp_path / "bad_texture"), timeout_s=120)
    assert run.exit_code == FAULT_EXIT_CODE and "not reached" not in run.stdout
    (report,) = run.fault_reports
    assert report["kind"] == "unsupported" and report["kernel"] == "_Z4lookP13__hip_texturePf"
    assert report["instruction"].startswith("image_sample")
    assert "buffer descriptor, not an image" in report["message"]


def test_nsa_address_lists_decode_to_their_registers():
    ins = parse_text("image_store v[1:4], [v2, v0, v3], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_3D unorm")
    data, address, rsrc = ins.operands
    assert (data.kind, data.index, data.count) == ("v", 1, 4)
    assert (address.kind, address.regs, address.count) == ("vlist", (2, 0, 3), 3)
    assert rsrc.count == 8 and ins.modifiers == {
        "dmask": "0xf",
        "dim": "SQ_RSRC_IMG_3D",
        "unorm": "",
    }


def test_a_format_gfx11_lacks_is_refused_with_a_reason(tmp_path):
    src = tmp_path / "float3.hip"
    src.write_text(
        "#include <hip/hip_runtime.h>\n#include <cstdio>\n"
        "int main() { hipChannelFormatDesc d = hipCreateChannelDesc<float3>(); hipArray_t a;\n"
        "  hipError_t e = hipMallocArray(&a, &d, 8, 8);\n"
        '  printf("%s\\n", hipGetErrorName(e)); return 0; }\n'
    )
    run = run_program(build_hip_program(src, tmp_path / "float3"), timeout_s=60)
    assert run.exit_code == 0 and run.stdout.strip() == "hipErrorInvalidValue"
    assert (
        "cass HIP runtime: hipMallocArray: the channel format has no gfx11 image format"
        in run.stderr
    )
