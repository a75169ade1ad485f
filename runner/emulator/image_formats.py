"""gfx11 image, buffer and sampler descriptors (V#, S#) as the emulator reads them from SGPRs, and
the texel formats and addressing modes they name.

Field layout: ROCm's gfx11 register definitions (ROCR-Runtime src/image/resource_gfx11.h); format
numbers: gfx11's unified formats, as llvm-mc-16 names them (`tbuffer_load_format_x ...
format:N`). Images are read as linear (SW_MODE 0), the layout the cass runtime
(native/runtime_texture.cpp) creates: rows of `pitch` texels; for 3D images and arrays, whose
descriptor has no pitch field, the pitch is the width rounded up to 256 bytes, as the runtime
allocates them. A descriptor outside what is interpreted here raises `DescriptorError`, which
the instruction handlers turn into a located fault.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

U32 = np.uint32
ROW_ALIGN = 256
# format -> (kind, bits per channel, channels)
FORMATS: dict[int, tuple[str, int, int]] = {
    1: ("unorm", 8, 1), 2: ("snorm", 8, 1), 5: ("uint", 8, 1), 6: ("sint", 8, 1),
    7: ("unorm", 16, 1), 8: ("snorm", 16, 1), 11: ("uint", 16, 1), 12: ("sint", 16, 1),
    13: ("float", 16, 1), 14: ("unorm", 8, 2), 15: ("snorm", 8, 2), 18: ("uint", 8, 2),
    19: ("sint", 8, 2), 20: ("uint", 32, 1), 21: ("sint", 32, 1), 22: ("float", 32, 1),
    23: ("unorm", 16, 2), 24: ("snorm", 16, 2), 27: ("uint", 16, 2), 28: ("sint", 16, 2),
    29: ("float", 16, 2), 42: ("unorm", 8, 4), 43: ("snorm", 8, 4), 46: ("uint", 8, 4),
    47: ("sint", 8, 4), 48: ("uint", 32, 2), 49: ("sint", 32, 2), 50: ("float", 32, 2),
    51: ("unorm", 16, 4), 52: ("snorm", 16, 4), 55: ("uint", 16, 4), 56: ("sint", 16, 4),
    57: ("float", 16, 4), 61: ("uint", 32, 4), 62: ("sint", 32, 4), 63: ("float", 32, 4),
}  # fmt: skip
# SQ_RSRC_IMG_* -> (name, spatial dimensions, arrayed)
IMAGE_TYPES = {
    8: ("1D", 1, False),
    9: ("2D", 2, False),
    10: ("3D", 3, False),
    12: ("1D_ARRAY", 1, True),
    13: ("2D_ARRAY", 2, True),
}
CLAMP_NAMES = {4: "CLAMP_HALF_BORDER", 5: "MIRROR_ONCE_HALF_BORDER", 7: "MIRROR_ONCE_BORDER"}
BORDERS = {0: (0.0, 0.0, 0.0, 0.0), 1: (0.0, 0.0, 0.0, 1.0), 2: (1.0, 1.0, 1.0, 1.0)}


class DescriptorError(Exception):
    """A descriptor (or an instruction/descriptor pairing) the emulator cannot interpret."""


def _bits(word: int, lo: int, width: int) -> int:
    return (word >> lo) & ((1 << width) - 1)


@dataclass(frozen=True)
class Format:
    number: int
    kind: str  # unorm snorm uint sint float
    bits: int
    channels: int
    dst_sel: tuple[int, int, int, int]

    @property
    def texel_bytes(self) -> int:
        return self.bits * self.channels // 8

    @property
    def is_float(self) -> bool:
        return self.kind in ("unorm", "snorm", "float")


def _format(number: int, sel_word: int) -> Format:
    if number not in FORMATS:
        raise DescriptorError(f"format {number} is not a format the emulator reads")
    kind, bits, channels = FORMATS[number]
    sel = tuple(_bits(sel_word, 3 * i, 3) for i in range(4))
    if any(s in (2, 3) for s in sel):
        raise DescriptorError(f"destination select {sel} is reserved")
    return Format(number, kind, bits, channels, sel)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Image:
    base: int
    fmt: Format
    type_name: str
    dims: int
    arrayed: bool
    width: int
    height: int
    slices: int  # depth of a 3D image, layers of an array, else 1
    pitch: int  # texels per row

    @property
    def slice_texels(self) -> int:
        return self.pitch * self.height


def image(words: tuple[int, ...]) -> Image:
    """The image resource of an 8-dword V#."""
    w = words
    type_code = _bits(w[3], 28, 4)
    if type_code not in IMAGE_TYPES:
        kind = "a buffer descriptor" if type_code == 0 else f"type {type_code}"
        raise DescriptorError(f"the resource is {kind}, not an image the emulator reads")
    name, dims, arrayed = IMAGE_TYPES[type_code]
    if _bits(w[3], 20, 5):
        raise DescriptorError(f"swizzle mode {_bits(w[3], 20, 5)}: only linear images are read")
    if _bits(w[3], 12, 4) or _bits(w[3], 16, 4) or _bits(w[4], 16, 13):
        raise DescriptorError("mip levels or a base array slice other than 0 are not read")
    fmt = _format(_bits(w[1], 20, 8), w[3])
    base = (w[0] << 8) | (_bits(w[1], 0, 8) << 40)
    width = ((_bits(w[2], 0, 12) << 2) | _bits(w[1], 30, 2)) + 1
    height = _bits(w[2], 14, 14) + 1 if dims >= 2 else 1
    if base == 0:
        raise DescriptorError("the image's base address is 0")
    if dims == 3 or arrayed:
        slices = _bits(w[4], 0, 13) + 1
        row = -(-width * fmt.texel_bytes // ROW_ALIGN) * ROW_ALIGN
        pitch = row // fmt.texel_bytes
    else:
        slices, pitch = 1, _bits(w[4], 0, 14) + 1
        if pitch < width:
            raise DescriptorError(f"pitch {pitch} is less than the width {width}")
    return Image(base, fmt, name, dims, arrayed, width, height, slices, pitch)


@dataclass(frozen=True)
class Buffer:
    base: int
    stride: int
    records: int
    fmt: Format
    oob_select: int


def buffer(words: tuple[int, ...]) -> Buffer:
    """The typed buffer of a 4-dword V#."""
    w = words
    if _bits(w[3], 30, 2):
        raise DescriptorError("the resource is an image descriptor, not a buffer")
    oob = _bits(w[3], 28, 2)
    if oob not in (0, 3):
        raise DescriptorError(f"buffer range checking OOB_SELECT={oob} is not read")
    fmt = _format(_bits(w[3], 12, 6), w[3])
    return Buffer(w[0] | (_bits(w[1], 0, 16) << 32), _bits(w[1], 16, 14), w[2], fmt, oob)


@dataclass(frozen=True)
class Sampler:
    clamp: tuple[int, int, int]
    normalized: bool
    linear: bool
    linear_z: bool
    border: tuple[float, float, float, float]


def sampler(words: tuple[int, ...]) -> Sampler:
    w = words
    clamp = (_bits(w[0], 0, 3), _bits(w[0], 3, 3), _bits(w[0], 6, 3))
    for mode in clamp:
        if mode in CLAMP_NAMES:
            raise DescriptorError(f"addressing mode SQ_TEX_{CLAMP_NAMES[mode]} is not read")
    border_type = _bits(w[3], 30, 2)
    if border_type not in BORDERS:
        raise DescriptorError("border colour from a register (BORDER_COLOR_TYPE 3) is not read")
    linear = bool(_bits(w[2], 20, 2) & 1)
    z_filter = _bits(w[2], 24, 2)
    return Sampler(
        clamp,  # type: ignore[arg-type]
        not _bits(w[0], 15, 1),
        linear,
        linear if z_filter == 0 else z_filter == 2,
        BORDERS[border_type],
    )


# --------------------------------------------------------------------------- texels
def decode(fmt: Format, dwords: list[np.ndarray]) -> list[np.ndarray]:
    """Texel dwords -> channel values: float32 for float/normalized formats, uint32 bit patterns
    (sign-extended for sint) otherwise."""
    out = []
    mask = (1 << fmt.bits) - 1 if fmt.bits < 32 else None
    for c in range(fmt.channels):
        bit = c * fmt.bits
        raw = dwords[bit // 32].astype(U32)
        if mask is not None:
            raw = (raw >> U32(bit % 32)) & U32(mask)
        out.append(_convert(fmt, raw))
    return out


def _convert(fmt: Format, raw: np.ndarray) -> np.ndarray:
    bits = fmt.bits
    if fmt.kind == "float":
        return (
            raw.astype(np.uint16).view(np.float16).astype(np.float32)
            if bits == 16
            else raw.view(np.float32)
        )
    if fmt.kind in ("snorm", "sint") and bits < 32:
        signed = raw.astype(np.int64) - ((raw >> U32(bits - 1)) & U32(1)).astype(np.int64) * (
            1 << bits
        )
    else:
        signed = raw.astype(np.int64)
    if fmt.kind == "unorm":
        return (signed / float((1 << bits) - 1)).astype(np.float32)
    if fmt.kind == "snorm":
        return np.maximum(signed / float((1 << (bits - 1)) - 1), -1.0).astype(np.float32)
    return signed.astype(np.int64).astype(np.uint64).astype(U32) if fmt.kind == "sint" else raw


def encode(fmt: Format, values: list[np.ndarray]) -> list[np.ndarray]:
    """Channel data (VGPR bit patterns) -> texel dwords for a store."""
    nd = max(fmt.texel_bytes // 4, 1)
    out = [np.zeros(values[0].shape, U32) for _ in range(nd)]
    for c in range(fmt.channels):
        raw = _pack(fmt, values[c] if c < len(values) else np.zeros_like(values[0]))
        bit = c * fmt.bits
        out[bit // 32] |= raw << U32(bit % 32)
    return out


def _pack(fmt: Format, v: np.ndarray) -> np.ndarray:
    bits = fmt.bits
    mask = U32((1 << bits) - 1) if bits < 32 else U32(0xFFFFFFFF)
    f = v.view(np.float32)
    if fmt.kind == "float":
        return f.astype(np.float16).view(np.uint16).astype(U32) if bits == 16 else v
    if fmt.kind == "unorm":
        return np.rint(np.clip(np.nan_to_num(f), 0, 1) * ((1 << bits) - 1)).astype(U32)
    if fmt.kind == "snorm":
        scaled = np.rint(np.clip(np.nan_to_num(f), -1, 1) * ((1 << (bits - 1)) - 1))
        return scaled.astype(np.int64).astype(np.uint64).astype(U32) & mask
    return v & mask


def swizzle(fmt: Format, channels: list[np.ndarray]) -> list[np.ndarray]:
    """The four components after the descriptor's destination selects (0, 1, X, Y, Z, W)."""
    like = channels[0]
    one = np.float32(1.0) if fmt.is_float else U32(1)
    out = []
    for s in fmt.dst_sel:
        if s == 0:
            out.append(np.zeros_like(like))
        elif s == 1:
            out.append(np.full_like(like, one))
        else:
            idx = s - 4
            out.append(channels[idx] if idx < len(channels) else np.zeros_like(like))
    return out


# --------------------------------------------------------------------------- addressing
def address(i: np.ndarray, n: int, mode: int) -> tuple[np.ndarray, np.ndarray | None]:
    """(texel index, inside-mask or None) of integer texel coordinates `i` under SQ_TEX_CLAMP
    `mode` for a dimension of `n` texels; lanes outside a border mode read the border colour."""
    if mode == 0:  # WRAP
        return i % n, None
    if mode == 1:  # MIRROR
        j = i % (2 * n)
        return np.where(j < n, j, 2 * n - 1 - j), None
    if mode == 2:  # CLAMP_LAST_TEXEL
        return np.clip(i, 0, n - 1), None
    if mode == 3:  # MIRROR_ONCE_LAST_TEXEL
        return np.minimum(np.where(i < 0, -1 - i, i), n - 1), None
    inside = (i >= 0) & (i < n)  # CLAMP_BORDER
    return np.clip(i, 0, n - 1), inside
