"""Image (MIMG) instructions and typed buffer loads: what HIP's texture and surface objects
compile to for gfx1100 (clang-16, ROCm 5.2 device headers and ockl).

Supported forms (others are an `unsupported` fault naming the instruction, never a wrong value):
- `image_sample`, `image_sample_lz`, `image_sample_l` (level 0 only: images have one level),
  `image_gather4_lz`, `image_gather4`: 32-bit float coordinates, dims 1D 2D 3D 1D_ARRAY 2D_ARRAY,
  any dmask; point or bilinear/trilinear filtering, normalized or unnormalized coordinates,
  addressing WRAP, MIRROR, CLAMP_LAST_TEXEL, MIRROR_ONCE_LAST_TEXEL, CLAMP_BORDER (border colour
  transparent black, opaque black or white).
- `image_load`, `image_load_mip` (mip 0), `image_store`: 32-bit integer coordinates, or
  16-bit ones packed two to a VGPR (`a16`, low half first: clang-16 emits it for small
  coordinates), any dmask; out-of-range loads return 0 and out-of-range stores are dropped, as on gfx11.
- `buffer_load_format_{x,xy,xyz,xyzw}` with `idxen`/`offen` (tex1Dfetch of linear memory):
  structured (OOB_SELECT 0) or raw (3) range checking; out-of-range lanes read 0.
Addresses may be consecutive VGPRs or NSA lists (`[v2, v0, v3]`, which clang-16 emits for gfx11).
Not supported: a16 for sampling (16-bit float coordinates), d16 (16-bit data), tfe/lwe, depth compare
(`_c`), derivatives (`_d`), bias (`_b`), offsets (`_o`), mipmapped or tiled images. The descriptor
layouts and formats read are in image_formats.py.

Linear filtering weights: the fraction of each coordinate (in texel space, after the half-texel
shift) is rounded to FILTER_FRACTION_BITS bits, to nearest with ties up. Eight bits is the
sub-texel precision D3D requires (D3D12_SUBTEXEL_FRACTIONAL_BIT_COUNT = 8) and the one CUDA
documents for its 1.8 fixed-point weights; benchmarks/texture_filter_precision.cu measured an H200
at exactly 8 bits rounded to nearest, ties up (257 distinct weights; 1/512 -> 1/256). AMD
publishes no figure for RDNA3: for gfx1100 this is a model, not a measurement.
"""

from __future__ import annotations

import itertools

import numpy as np
from cass.runner.emulator import image_formats as fmt
from cass.runner.emulator.state import U32, U64, Fault, Group

FILTER_FRACTION_BITS = 8
_COORD_LIMIT = float(1 << 30)
_DIMS = {
    "SQ_RSRC_IMG_1D": ("1D", 1),
    "SQ_RSRC_IMG_2D": ("2D", 2),
    "SQ_RSRC_IMG_3D": ("3D", 3),
    "SQ_RSRC_IMG_1D_ARRAY": ("1D_ARRAY", 2),
    "SQ_RSRC_IMG_2D_ARRAY": ("2D_ARRAY", 3),
}
_UNSUPPORTED_MODIFIERS = ("a16", "d16", "tfe", "lwe", "r128")
_SAMPLE_OPS = {
    "image_sample",
    "image_sample_lz",
    "image_sample_l",
    "image_gather4",
    "image_gather4_lz",
}


def compile_image(ins):
    op = ins.op
    if op.startswith("buffer_load_format_") and "d16" not in op:
        return _buffer_load_format(ins)
    if not op.startswith("image_"):
        return None
    a16 = "a16" in ins.modifiers and op in ("image_load", "image_load_mip", "image_store")
    if any(mod in ins.modifiers for mod in _UNSUPPORTED_MODIFIERS if not (a16 and mod == "a16")):
        return None
    dim = _DIMS.get(ins.modifiers.get("dim", ""))
    if dim is None:
        return None
    dmask = int(ins.modifiers.get("dmask", "0x1") or "0x1", 0)
    if op in _SAMPLE_OPS:
        return _sample(ins, dim, dmask, gather=op.startswith("image_gather4"))
    if op in ("image_load", "image_load_mip"):
        return _load(ins, dim, dmask)
    if op == "image_store":
        return _store(ins, dim, dmask)
    return None


# --------------------------------------------------------------------------- descriptors
def _descriptors(m, g: Group, *regs):
    """(words, waves) for each distinct descriptor (the SGPRs of `regs`) among the group's waves."""
    rows = np.stack([m.st.S[op.index + i, g.idx] for op in regs for i in range(op.count)], axis=1)
    if len(rows) == 1 or (rows == rows[0]).all():
        yield tuple(int(x) for x in rows[0]), np.ones(len(rows), bool)
        return
    for row in np.unique(rows, axis=0):
        yield tuple(int(x) for x in row), (rows == row).all(axis=1)


def _bits32(values: np.ndarray) -> np.ndarray:
    return values if values.dtype == U32 else values.view(U32)


def _fault(ins, exc: fmt.DescriptorError) -> Fault:
    return Fault("unsupported", f"{ins.mnemonic}: {exc}")


def _sub_group(g, lanes):
    """The group with only `lanes` active (the memory helpers then touch only those)."""
    sub = Group(g.idx, g.k, g.full)
    sub._exec, sub._all = lanes, False
    return sub


def _texel_addresses(img: fmt.Image, x, y, z) -> np.ndarray:
    """Byte addresses of texels (x, y, z) of a linear image."""
    texel = (z * img.slice_texels + y * img.pitch + x).astype(np.int64)
    return (U64(img.base) + (texel * img.fmt.texel_bytes).astype(U64)).astype(U64)


def _fetch(m, g: Group, img: fmt.Image, x, y, z, lanes) -> list[np.ndarray]:
    """Channel values (lane arrays [k, 32]) of texels (x, y, z) for `lanes`; 0 elsewhere."""
    nbytes = img.fmt.texel_bytes
    addrs = _texel_addresses(img, x, y, z)
    nd = max(nbytes // 4, 1)
    full = [np.zeros(lanes.shape, U32) for _ in range(nd)]
    if lanes.any():
        got = m.access("global", addrs, lanes, nbytes, "load", _sub_group(g, lanes))
        for d, v in enumerate(got):
            if v.size == lanes.size:
                full[d][...] = v.reshape(lanes.shape)
            else:
                full[d][lanes] = v
    return fmt.decode(img.fmt, full)


# --------------------------------------------------------------------------- sampling
def _taps(u: np.ndarray, n: int, mode: int, linear: bool):
    """[(index, weight, inside)] along one dimension for texel-space coordinates `u`."""
    if not linear:
        i, inside = fmt.address(np.floor(u).astype(np.int64), n, mode)
        return [(i, None, inside)]
    shifted = u - 0.5
    i0 = np.floor(shifted)
    scale = float(1 << FILTER_FRACTION_BITS)
    frac = np.floor((shifted - i0) * scale + 0.5) / scale  # to nearest, ties up
    i0 = i0.astype(np.int64)
    a, a_in = fmt.address(i0, n, mode)
    b, b_in = fmt.address(i0 + 1, n, mode)
    return [(a, 1.0 - frac, a_in), (b, frac, b_in)]


def _address_ok(vaddr, count: int) -> bool:
    return vaddr.kind in ("v", "vlist") and vaddr.count >= count


def _address_regs(vaddr, count: int) -> list[int]:
    """The VGPRs of an image address: consecutive, or an NSA list (`[v2, v6, v8]`)."""
    regs = vaddr.regs if vaddr.kind == "vlist" else range(vaddr.index, vaddr.index + count)
    return list(regs)[:count]


def _coords(m, g, vaddr, count: int) -> list[np.ndarray]:
    out = []
    for reg in _address_regs(vaddr, count):
        v = m.st.V[reg, g.idx].view(np.float32).astype(np.float64)
        out.append(np.clip(np.nan_to_num(v), -_COORD_LIMIT, _COORD_LIMIT))
    return out


def _sample_one(m, g, img, smp, coords, lanes, gather_comp):
    sizes = (img.width, img.height, img.slices)
    texel_space = []  # scaled in single precision, as the texture unit receives it
    for d in range(img.dims):
        scale = np.float32(sizes[d] if smp.normalized else 1)
        texel_space.append((coords[d].astype(np.float32) * scale).astype(np.float64))
    layer = None
    if img.arrayed:
        layer = np.clip(np.rint(coords[img.dims]), 0, img.slices - 1).astype(np.int64)
    linear = smp.linear or gather_comp is not None
    if linear and not img.fmt.is_float:
        raise fmt.DescriptorError(f"linear filtering of the integer format {img.fmt.number}")
    per_dim = [
        _taps(texel_space[d], sizes[d], smp.clamp[d], smp.linear_z if d == 2 else linear)
        for d in range(img.dims)
    ]
    if gather_comp is not None:  # the bilinear footprint: (0,1) (1,1) (1,0) (0,0)
        order = [(0, 1), (1, 1), (1, 0), (0, 0)]
        return [
            _bits32(
                _tap_value(m, g, img, smp, [per_dim[0][i], per_dim[1][j]], layer, lanes)[
                    gather_comp
                ]
            )
            for i, j in order
        ]
    total = None
    for combo in itertools.product(*per_dim):
        value = _tap_value(m, g, img, smp, list(combo), layer, lanes)
        weight = None
        for _, w, _ in combo:
            if w is not None:
                weight = w if weight is None else weight * w
        if weight is not None:
            value = [v.astype(np.float64) * weight for v in value]
        total = value if total is None else [t + v for t, v in zip(total, value, strict=True)]
    assert total is not None
    if img.fmt.is_float:
        return [t.astype(np.float32).view(U32) for t in total]
    return [t.astype(U32) for t in total]


def _tap_value(m, g, img, smp, taps, layer, lanes):
    idx = [t[0] for t in taps] + [np.zeros_like(taps[0][0])] * (3 - len(taps))
    inside = lanes.copy()
    for _, _, ok in taps:
        if ok is not None:
            inside &= ok
    z = layer if layer is not None else idx[2]
    channels = fmt.swizzle(img.fmt, _fetch(m, g, img, idx[0], idx[1], z, inside))
    if not img.fmt.is_float:
        return channels
    border = [np.float32(b) for b in smp.border]
    return [np.where(inside | ~lanes, c, b) for c, b in zip(channels, border, strict=True)]


def _sample(ins, dim, dmask: int, gather: bool):
    dst, vaddr, rsrc, ssamp = ins.operands[:4]
    name, ncoords = dim
    comps = [c for c in range(4) if dmask >> c & 1]
    if gather and len(comps) != 1:
        return None
    if rsrc.count != 8 or ssamp.count != 4 or not _address_ok(vaddr, ncoords):
        return None

    def run(m, g):
        mask = m.st.exec_mask(g)
        if not mask.any():
            return
        coords = _coords(m, g, vaddr, ncoords)
        results = None
        for words, waves in _descriptors(m, g, rsrc, ssamp):
            try:
                img = fmt.image(words[:8])
                smp = fmt.sampler(words[8:])
                _check_dim(img, name)
                lanes = mask & waves[:, None]
                got = _sample_one(m, g, img, smp, coords, lanes, comps[0] if gather else None)
            except fmt.DescriptorError as exc:
                raise _fault(ins, exc) from None
            vals = got if gather else [got[c] for c in comps]
            results = (
                vals
                if results is None
                else [np.where(waves[:, None], v, r) for v, r in zip(vals, results, strict=True)]
            )
        assert results is not None
        for d, v in enumerate(results):
            m.st.vwrite(dst.index + d, g, v, mask)

    return run


def _check_dim(img: fmt.Image, name: str) -> None:
    if img.type_name != name:
        raise fmt.DescriptorError(
            f"the instruction's dim {name} does not match the image type {img.type_name}"
        )


# --------------------------------------------------------------------------- load / store
def _int_coords(m, g, img, vaddr, lanes, a16: bool = False):
    """(x, y, z, inside) of integer image coordinates (`a16`: 16-bit, two to a VGPR)."""
    count = img.dims + (1 if img.arrayed else 0)
    if a16:
        words = [m.st.V[reg, g.idx] for reg in _address_regs(vaddr, (count + 1) // 2)]
        halves = [h for w in words for h in (w & U32(0xFFFF), w >> U32(16))]
        c = [h.astype(np.uint16).view(np.int16).astype(np.int64) for h in halves[:count]]
    else:
        c = [m.st.V[reg, g.idx].astype(np.int64) for reg in _address_regs(vaddr, count)]
    limits = [img.width, img.height, img.slices]
    x = c[0]
    y = c[1] if img.dims >= 2 else np.zeros_like(x)
    z = c[img.dims] if img.arrayed else (c[2] if img.dims == 3 else np.zeros_like(x))
    inside = lanes & (x >= 0) & (y >= 0) & (z >= 0)
    inside &= (x < limits[0]) & (y < limits[1]) & (z < limits[2])
    return x, y, z, inside


def _integer_address_ok(ins, dim) -> bool:
    """image_load/store operands the emulator reads: an 8-dword descriptor and the address
    VGPRs of integer coordinates (`unorm` or not), two to a VGPR under `a16`."""
    vaddr, rsrc = ins.operands[1:3]
    count = (dim[1] + 1) // 2 if "a16" in ins.modifiers else dim[1]
    return rsrc.count == 8 and _address_ok(vaddr, count)


def _images(ins, m, g, rsrc, name: str):
    """(image, lanes) for each distinct image descriptor among the group's active lanes; a
    descriptor the emulator cannot read is a located fault."""
    mask = m.st.exec_mask(g)
    if not mask.any():
        return
    for words, waves in _descriptors(m, g, rsrc):
        try:
            img = fmt.image(words)
            _check_dim(img, name)
        except fmt.DescriptorError as exc:
            raise _fault(ins, exc) from None
        yield img, mask & waves[:, None]


def _load(ins, dim, dmask: int):
    dst, vaddr, rsrc = ins.operands[:3]
    comps = [c for c in range(4) if dmask >> c & 1]
    a16 = "a16" in ins.modifiers
    if not _integer_address_ok(ins, dim):
        return None

    def run(m, g):
        for img, lanes in _images(ins, m, g, rsrc, dim[0]):
            x, y, z, inside = _int_coords(m, g, img, vaddr, lanes, a16)
            channels = fmt.swizzle(img.fmt, _fetch(m, g, img, x, y, z, inside))
            for d, c in enumerate(comps):
                value = np.where(inside, _bits32(channels[c]), U32(0))
                m.st.vwrite(dst.index + d, g, value, lanes)

    return run


def _store(ins, dim, dmask: int):
    data, vaddr, rsrc = ins.operands[:3]
    comps = [c for c in range(4) if dmask >> c & 1]
    a16 = "a16" in ins.modifiers
    if not _integer_address_ok(ins, dim):
        return None

    def run(m, g):
        for img, lanes in _images(ins, m, g, rsrc, dim[0]):
            x, y, z, inside = _int_coords(m, g, img, vaddr, lanes, a16)
            if not inside.any():
                continue
            values = [np.zeros((g.k, 32), U32) for _ in range(4)]
            for d, c in enumerate(comps):
                values[c] = m.st.V[data.index + d, g.idx]
            texels = fmt.encode(img.fmt, values)
            addrs = _texel_addresses(img, x, y, z)
            nbytes = img.fmt.texel_bytes
            sub = _sub_group(g, inside)
            m.access("global", addrs, inside, nbytes, "store", sub, [t[inside] for t in texels])

    return run


# --------------------------------------------------------------------------- typed buffers
def _buffer_load_format(ins):
    components = {"x": 1, "xy": 2, "xyz": 3, "xyzw": 4}.get(ins.op.rsplit("_", 1)[-1])
    if components is None or any(mod in ins.modifiers for mod in ("tfe", "lds")):
        return None
    dst, vaddr, rsrc, soffset = ins.operands[:4]
    idxen, offen = "idxen" in ins.modifiers, "offen" in ins.modifiers
    inst_offset = int(ins.modifiers.get("offset", "0") or 0, 0)
    if rsrc.count != 4:
        return None

    def run(m, g):
        mask = m.st.exec_mask(g)
        if not mask.any():
            return
        soff = (
            m.st.sread(soffset, g).astype(np.int64)[:, None]
            if soffset.kind == "s"
            else int(soffset.value or 0)
        )
        index = (
            m.st.V[vaddr.index, g.idx].astype(np.int64) if idxen else np.zeros((g.k, 32), np.int64)
        )
        voff = m.st.V[vaddr.index + (1 if idxen else 0), g.idx].astype(np.int64) if offen else 0
        offset = voff + inst_offset + soff
        for words, waves in _descriptors(m, g, rsrc):
            try:
                buf = fmt.buffer(words)
            except fmt.DescriptorError as exc:
                raise _fault(ins, exc) from None
            lanes = mask & waves[:, None]
            nbytes = buf.fmt.texel_bytes
            if buf.oob_select == 0:
                inside = (
                    lanes & (index < buf.records) & (offset + nbytes <= max(buf.stride, nbytes))
                )
            else:
                inside = lanes & (index * buf.stride + offset + nbytes <= buf.records)
            byte = np.where(inside, index * buf.stride + offset, 0)
            addrs = (U64(buf.base) + byte.astype(U64)).astype(U64)
            nd = max(nbytes // 4, 1)
            full = [np.zeros((g.k, 32), U32) for _ in range(nd)]
            if inside.any():
                got = m.access("global", addrs, inside, nbytes, "load", _sub_group(g, inside))
                for d, v in enumerate(got):
                    full[d][inside] = (
                        v if v.size != inside.size else v.reshape(inside.shape)[inside]
                    )
            channels = fmt.swizzle(buf.fmt, fmt.decode(buf.fmt, full))
            for c in range(components):
                value = _bits32(channels[c])
                m.st.vwrite(dst.index + c, g, np.where(inside, value, U32(0)), lanes)

    return run
