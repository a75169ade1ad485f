"""Texture instructions (TEX, TLD, TLD4, TXD) against HIP texture objects.

A CUDA kernel names a texture object by its 64-bit kernel parameter; ptxas hands the instruction
only the low 32 bits, as `0x0, 0x58` on sm_80 (constant bank 0, word 0x58 = byte 0x160: the
parameter) and as a uniform register on sm_90 (`ULDC UR4, c[0x0][0x210]` before it). The rules
engine's host port passes a hipTextureObject_t in the same parameter: a pointer to the image
descriptor (8 dwords) followed at dword 12 by the sampler (4 dwords). The lift reads that pointer
from the parameter and calls the ockl image functions HIP's own headers call
(texture_indirect_functions.h), so the lifted kernel samples exactly as a HIP-compiled one.

A bound texture reference (`texture<T, dim, mode>`, CUDA 11 and older) has no parameter: ptxas
reads its handle from a c[0x0] word after the parameters that the loader patches (a relocation to
the texture's symbol, elfinfo.texture_slots), in the same two forms. The lift reads the image
descriptor from the HIP textureReference global of the same name instead, which the host port's
hipBindTexture* fills (constants.module_globals defines it).

Operands, read off ptxas 13.0 for sm_80 and sm_90 (tests/lift/data/textures.cu):

    TEX[.SCR].{LL|LZ} Rd_hi, Rd_lo, Ra[, Rb], handle, dim[, mask]
    TLD[.SCR].{LL|LZ} ...  (integer coordinates)   TLD4[.SCR].{R|G|B|A} ...  (gather, 4 texels)
    TXD Rd_hi, Rd_lo, Ra, Rb, handle, dim, mask    (Ra: coordinates, Rb: ddx.x, ddy.x, ddx.y, ...)

The source values are [array layer] + coordinates + [LOD for .LL]; with one register operand it
holds them all. With two, the `.SCR` form (sm_80's constant-bank handle) puts the first half
(rounded up) in Ra: `TEX.SCR.LZ 2D Ra=x, Rb=y`, `TEX.SCR.LL 3D Ra=(x, y), Rb=(z, lod)`; the
uniform-register form (sm_90) puts the layer and coordinates in Ra and the LOD in Rb:
`TEX.LL 3D Ra=(x, y, z), Rb=lod`. Results: the components the
mask enables (default all four), in order, fill Rd_lo, Rd_lo+1, then Rd_hi, Rd_hi+1. ptxas
writes an implicit-LOD `tex2D` as `.LL` with LOD -32.0; that value becomes HIP's `tex2D`
(`__ockl_image_sample_2D`), any other LOD HIP's `tex2DLod`.
"""

from __future__ import annotations

from cass.models.lift.constants import TEXTURE_OBJECT_OFFSET
from cass.models.lift.emit import Emitter
from cass.models.lift.ir import CBank, Function, Imm, Instruction, Reg
from cass.models.lift.params import ParamLayout

COORDS = {"1D": 1, "2D": 2, "3D": 3, "CUBE": 3, "ARRAY_1D": 1, "ARRAY_2D": 2}  # SASS's dimensions
OCKL_DIM = {"1D": "1D", "2D": "2D", "3D": "3D", "CUBE": "CM", "ARRAY_1D": "1Da", "ARRAY_2D": "2Da"}
KNOWN_MODS = {"SCR", "LL", "LZ", "NODEP", "R", "G", "B", "A", *COORDS}
GATHER = {"R": "r", "G": "g", "B": "b", "A": "a"}
IMPLICIT_LOD = "0xC040000000000000"  # -32.0, what ptxas passes for an implicit LOD
HANDLE_SOURCES = frozenset({"LDC", "ULDC", "MOV", "UMOV", "R2UR"})  # what track() follows
SAMPLER_DWORD = 12  # HIP_SAMPLER_OBJECT_OFFSET_DWORD
IMAGE_TYPE_1D, IMAGE_TYPE_3D = 8, 10  # the TYPE field of a gfx10+ image descriptor (dword 3)


def texture(e: Emitter, ins: Instruction) -> None:
    """TEX (float coordinates), TLD (integer texel fetch), TLD4 (gather), TXD (gradients)."""
    dim = _dimension(e, ins)
    image = descriptor(e, ins)
    dest_hi, dest_lo, regs, mask = _split(e, ins)
    if ins.opcode == "TXD":
        result = _gradient(e, ins, image, dim, regs)
    else:
        values = _source_values(e, ins, dim, regs)
        result = {"TEX": _sample, "TLD": _fetch, "TLD4": _gather}[ins.opcode](
            e, ins, image, dim, values
        )
    words = e.op(f"bitcast <4 x float> {result} to <4 x i32>")
    targets = [dest_lo, dest_lo.offset(1), dest_hi, dest_hi.offset(1)]
    enabled = [c for c in range(4) if mask >> c & 1]
    for target, component in zip(targets, enabled, strict=False):
        if not target.is_zero:
            e.write(target, e.op(f"extractelement <4 x i32> {words}, i32 {component}"))


def _dimension(e: Emitter, ins: Instruction) -> str:
    if not e.target.private_as:
        raise e.fail(f"{ins.full}: texture instructions are lifted for AMD GPUs only")
    unknown = [m for m in ins.mods if m not in KNOWN_MODS]
    if unknown:
        raise e.fail(f"{ins.full}: texture modifier .{'.'.join(unknown)} is not supported")
    dims = [m for m in ins.mods if m in COORDS]
    if (
        "CUBE" in dims
    ):  # ockl's cube functions take the direction as HIP's texCubemap does: unverified
        raise e.fail(f"{ins.full}: cubemap textures are not supported")
    if len(dims) != 1:
        raise e.fail(
            f"{ins.full}: no texture dimension the lifter knows (1D, 2D, 3D, CUBE, ARRAY_1D, ARRAY_2D)"
        )
    return dims[0]


def descriptor(e: Emitter, ins: Instruction) -> str:
    """`ptr addrspace(4)` to the HIP image descriptor: the 64-bit kernel parameter the handle
    operand came from (sm_80: `bank, word`; sm_90: a uniform register loaded from c[0x0])."""
    ops = ins.operands
    uniform = next((o for o in ops if isinstance(o, Reg) and o.kind == "UR"), None)
    if uniform is not None:
        offset = e.handle_regs.get(uniform.name)
        if offset is None:
            raise e.fail(f"{ins.full}: the texture/surface handle in {uniform.name} was not loaded "
                         "from a kernel parameter; pass the object as a kernel parameter")  # fmt: skip
    else:
        imms = [o.value for o in ops if isinstance(o, Imm)]
        if len(imms) < 2 or imms[0] != 0:  # the bindless form (.B): a handle register
            raise e.fail(f"{ins.full}: a texture/surface handle read from memory (bindless form): "
                         "only the low 32 bits of the 64-bit object reach the instruction; pass "
                         "the object as a kernel parameter")  # fmt: skip
        offset = imms[1] * 4
    texref = getattr(e.constants, "texrefs", {}).get(offset)
    if texref is not None:
        return reference_descriptor(e, texref)
    surfref = getattr(e.constants, "surfrefs", {}).get(offset)
    if surfref is not None:
        raise e.fail(f"{ins.full}: '{surfref}' is a surface reference (surface<>), which HIP does "
                     "not have; use a surface object (cudaSurfaceObject_t) kernel parameter")  # fmt: skip
    if offset < e.layout.base or offset + 8 > e.layout.base + max(e.layout.size, 8):
        if offset >= e.layout.base + e.layout.size:
            raise e.fail(f"{ins.full}: the handle c[0x0][{offset:#x}] lies after the parameters: a "
                         "bound texture or surface reference (texture<>, surface<>), known only from "
                         "the cubin; lift the cubin, not its SASS text")  # fmt: skip
        raise e.fail(f"{ins.full}: the handle c[0x0][{offset:#x}] is not a kernel parameter")
    value = e.cbank(CBank(0, offset), 8)
    return e.op(f"inttoptr i64 {value} to ptr addrspace(4)")


def reference_descriptor(e: Emitter, name: str) -> str:
    """The image descriptor of a bound texture reference: the `textureObject` field of the HIP
    textureReference global of the texture's name, which hipBindTexture* fills on the host."""
    field = e.op(f'getelementptr i8, ptr addrspace(1) @"{name}", i64 {TEXTURE_OBJECT_OFFSET}')
    value = e.op(f"load i64, ptr addrspace(1) {field}, align 8")
    return e.op(f"inttoptr i64 {value} to ptr addrspace(4)")


def _split(e: Emitter, ins: Instruction) -> tuple[Reg, Reg, list[Reg], int]:
    """Destinations, source registers (Ra[, Rb]) and the component mask."""
    ops = ins.operands
    dest_hi, dest_lo = ops[0], ops[1]
    if not isinstance(dest_hi, Reg) or not isinstance(dest_lo, Reg):
        raise e.fail(f"{ins.full}: expected two destination registers")
    regs = [o for o in ops[2:] if isinstance(o, Reg) and o.kind == "R"]
    imms = [o.value for o in ops[2:] if isinstance(o, Imm)]
    has_uniform = any(isinstance(o, Reg) and o.kind == "UR" for o in ops[2:])
    handle_imms = 1 if has_uniform else 2
    mask = imms[handle_imms] if len(imms) > handle_imms else 0xF
    if not 1 <= len(regs) <= 2:
        raise e.fail(f"{ins.full}: expected one or two source registers")
    return dest_hi, dest_lo, regs, mask


def _source_values(e: Emitter, ins: Instruction, dim: str, regs: list[Reg]) -> list[str]:
    """The i32 source values in order: [layer] + coordinates + [LOD]."""
    count = COORDS[dim] + dim.startswith("ARRAY") + ins.has("LL")
    if count > 4:
        raise e.fail(f"{ins.full}: {count} source values: operand layout not verified")
    if len(regs) == 1:
        names = [regs[0].offset(k) for k in range(count)]
    else:
        first = (count + 1) // 2 if ins.has("SCR") else count - ins.has("LL")
        if first == count:  # a second register with nothing left for it: a form not seen
            raise e.fail(f"{ins.full}: operand layout not understood")
        names = [regs[0].offset(k) for k in range(first)]
        names += [regs[1].offset(k) for k in range(count - first)]
    if len(names) != count or count == 0:
        raise e.fail(f"{ins.full}: operand layout not understood")
    return [e.i32(r) for r in names]


def _floats(e: Emitter, values: list[str]) -> list[str]:
    return [e.op(f"bitcast i32 {v} to float") for v in values]


def _vector(e: Emitter, values: list[str], ty: str) -> tuple[str, str]:
    """HIP's coordinate argument: a scalar, a 2-vector, or a 4-vector padded with zeros."""
    if len(values) == 1:
        return ty, values[0]
    width = 2 if len(values) == 2 else 4
    vec = "undef"
    padded = values + ["0" if ty == "i32" else "0.0"] * (width - len(values))
    for k, v in enumerate(padded):
        vec = e.op(f"insertelement <{width} x {ty}> {vec}, {ty} {v}, i32 {k}")
    return f"<{width} x {ty}>", vec


def _hip_order(dim: str, values: list[str], lod: bool) -> tuple[list[str], str | None]:
    """SASS order [layer, coords..., lod] -> HIP's (coords..., layer), lod."""
    level = values[-1] if lod else None
    values = values[:-1] if lod else values
    if dim.startswith("ARRAY"):
        values = values[1:] + values[:1]
    return values, level


def _one_dimensional(e: Emitter, image: str, dim: str, lift) -> str:
    """ptxas writes tex1D/tex1DLod/tex1DGrad as 2D accesses at y = 0, but HIP's 1D images need the
    1D functions (gfx11 checks the dimension): a 2D access branches on the image type in the
    descriptor (dword 3, bits 28-31). `lift(name)` lifts the access as ockl dimension `name`
    without opening blocks."""
    if dim != "2D":
        return lift(OCKL_DIM[dim])
    word3 = e.op(
        f"load i32, ptr addrspace(4) {e.op(f'getelementptr i32, ptr addrspace(4) {image}, i32 3')}"
    )
    is1d = e.op(f"icmp eq i32 {e.op(f'lshr i32 {word3}, 28')}, {IMAGE_TYPE_1D}")
    one, two, join = (e.fresh_block(f"tex.{k}") for k in ("1d", "2d", "join"))
    e.branch(is1d, one, two)
    e.label(one)
    flat = lift("1D")
    e.jump(join)
    e.label(two)
    full = lift("2D")
    e.jump(join)
    e.label(join)
    return e.op(f"phi <4 x float> [{flat}, %{one}], [{full}, %{two}]")


def _sample(e: Emitter, ins: Instruction, image: str, dim: str, values: list[str]) -> str:
    return _one_dimensional(
        e, image, dim, lambda name: _sample_as(e, ins, image, dim, name, values)
    )


def _sample_as(
    e: Emitter, ins: Instruction, image: str, dim: str, name: str, values: list[str]
) -> str:
    coords, level = _hip_order(dim, values, ins.has("LL"))
    if dim == "2D" and name == "1D":
        coords = coords[:1]  # a 1D image written as 2D: y is 0
    fcoords = _floats(e, coords)
    if dim.startswith("ARRAY"):  # the layer is an integer in SASS, a float in HIP's call
        fcoords[-1] = e.op(f"uitofp i32 {coords[-1]} to float")
    ty, vec = _vector(e, fcoords, "float")
    sampler = e.op(f"getelementptr i32, ptr addrspace(4) {image}, i32 {SAMPLER_DWORD}")
    args = f"ptr addrspace(4) {image}, ptr addrspace(4) {sampler}, {ty} {vec}"
    if level is None:  # .LZ: HIP's texXDLod(..., 0)
        return _ockl(e, f"sample_lod_{name}", f"{args}, float 0.0")
    lod = e.op(f"bitcast i32 {level} to float")
    explicit = _ockl(e, f"sample_lod_{name}", f"{args}, float {lod}")
    if name == "CM":
        return explicit
    implicit = _ockl(e, f"sample_{name}", args)
    chosen = e.op(f"fcmp oeq float {lod}, {IMPLICIT_LOD}")
    return e.op(f"select i1 {chosen}, <4 x float> {implicit}, <4 x float> {explicit}")


def _fetch(e: Emitter, ins: Instruction, image: str, dim: str, values: list[str]) -> str:
    coords, level = _hip_order(dim, values, ins.has("LL"))
    ty, vec = _vector(e, coords, "i32")
    name = OCKL_DIM[dim]
    if dim == "1D" and level is None:  # tex1Dfetch: a linear-memory (buffer) texture
        return _ockl(e, "load_1Db", f"ptr addrspace(4) {image}, i32 {vec}")
    if level is None:
        return _ockl(e, f"load_{name}", f"ptr addrspace(4) {image}, {ty} {vec}")
    return _ockl(e, f"load_lod_{name}", f"ptr addrspace(4) {image}, {ty} {vec}, i32 {level}")


def _gather(e: Emitter, ins: Instruction, image: str, dim: str, values: list[str]) -> str:
    if dim != "2D":
        raise e.fail(f"{ins.full}: gather is supported for 2D textures (as in HIP)")
    component = next((GATHER[m] for m in ins.mods if m in GATHER), "r")
    ty, vec = _vector(e, _floats(e, values), "float")
    sampler = e.op(f"getelementptr i32, ptr addrspace(4) {image}, i32 {SAMPLER_DWORD}")
    return _ockl(e, f"gather4{component}_2D",
                 f"ptr addrspace(4) {image}, ptr addrspace(4) {sampler}, {ty} {vec}")  # fmt: skip


def _gradient(e: Emitter, ins: Instruction, image: str, dim: str, regs: list[Reg]) -> str:
    if dim not in ("1D", "2D", "3D") or len(regs) != 2:
        raise e.fail(f"{ins.full}: gradients are supported for 1D, 2D and 3D textures")
    return _one_dimensional(e, image, dim, lambda name: _gradient_as(e, image, name, regs))


def _gradient_as(e: Emitter, image: str, dim: str, regs: list[Reg]) -> str:
    n = COORDS[dim]
    coords = _floats(e, [e.i32(regs[0].offset(k)) for k in range(n)])
    grads = _floats(e, [e.i32(regs[1].offset(k)) for k in range(2 * n)])
    ty, vec = _vector(e, coords, "float")
    _, dx = _vector(e, grads[0::2], "float")  # ddx.x, ddy.x, ddx.y, ddy.y, ...
    _, dy = _vector(e, grads[1::2], "float")
    sampler = e.op(f"getelementptr i32, ptr addrspace(4) {image}, i32 {SAMPLER_DWORD}")
    return _ockl(e, f"sample_grad_{OCKL_DIM[dim]}",
                 f"ptr addrspace(4) {image}, ptr addrspace(4) {sampler}, {ty} {vec}, {ty} {dx}, {ty} {dy}")  # fmt: skip


def query(e: Emitter, ins: Instruction) -> None:
    """`TXQ Rd_hi, Rd_lo, Ra, TEX_HEADER_DIMENSION, handle, mask` (txq/suq .width/.height/.depth):
    (width, height, depth) of mip level Ra, from the HIP object as ockl reads it (depth 1 unless
    the image is 3D). ptxas answers the other queries from a driver table (c[0x0][0x70] on sm_80),
    which the lift reports where it is read."""
    if not e.target.private_as:
        raise e.fail(f"{ins.full}: texture queries are lifted for AMD GPUs only")
    if not ins.has("TEX_HEADER_DIMENSION"):
        raise e.fail(f"{ins.full}: only the dimension query (width, height, depth) is supported")
    image = descriptor(e, ins)
    dest_hi, dest_lo, regs, mask = _split(e, ins)
    if mask & 0x8:
        raise e.fail(f"{ins.full}: the mip level count is not supported")
    lod = e.i32(regs[0])
    sizes = [_ockl(e, f"{what}", f"ptr addrspace(4) {image}", "i32")
             for what in ("width_2D", "height_2D", "depth_3D")]  # fmt: skip
    word3 = e.op(
        f"load i32, ptr addrspace(4) {e.op(f'getelementptr i32, ptr addrspace(4) {image}, i32 3')}"
    )
    is3d = e.op(f"icmp eq i32 {e.op(f'lshr i32 {word3}, 28')}, {IMAGE_TYPE_3D}")
    sizes[2] = e.op(f"select i1 {is3d}, i32 {sizes[2]}, i32 1")
    values = [
        e.op(f"call i32 @llvm.umax.i32(i32 {e.op(f'lshr i32 {v}, {lod}')}, i32 1)") for v in sizes
    ]
    targets = [dest_lo, dest_lo.offset(1), dest_hi, dest_hi.offset(1)]
    enabled = [c for c in range(3) if mask >> c & 1]
    for target, component in zip(targets, enabled, strict=False):
        if not target.is_zero:
            e.write(target, values[component])


def _ockl(e: Emitter, name: str, args: str, ret: str = "<4 x float>") -> str:
    """A call to ROCm's ockl image function (linked in by module.link_device_libs)."""
    return e.op(f"call {ret} @__ockl_image_{name}({args})")


def track(e: Emitter, ins: Instruction) -> None:
    """Remember which (uniform) registers hold a c[0x0] parameter word: a texture or surface
    handle on sm_90 is `ULDC URx, c[0x0][param]` (or LDC + R2UR) before its use."""
    if not e.handle_regs and ins.opcode not in HANDLE_SOURCES:
        return  # nothing tracked to forget, nothing to remember
    ops = ins.operands
    if not ops or not isinstance(ops[0], Reg) or ops[0].is_pred:
        return
    dest = ops[0]
    src = ops[-1]
    if (
        ins.opcode in ("LDC", "ULDC")
        and isinstance(src, CBank)
        and src.bank == 0
        and src.reg is None
    ):
        e.handle_regs[dest.name] = src.offset
        if ins.has("64"):
            e.handle_regs[dest.offset(1).name] = src.offset + 4
        return
    if ins.opcode in ("MOV", "UMOV", "R2UR") and isinstance(src, Reg) and src.name in e.handle_regs:
        e.handle_regs[dest.name] = e.handle_regs[src.name]
        return
    if (
        ins.opcode in ("MOV", "UMOV")
        and isinstance(src, CBank)
        and src.bank == 0
        and src.reg is None
    ):
        e.handle_regs[dest.name] = src.offset
        return
    for k in range(4 if ins.has("128") else 2 if ins.has("64", "WIDE") else 1):
        e.handle_regs.pop(dest.offset(k).name, None)


HANDLE_TYPES = {"TEX": "hipTextureObject_t", "TLD": "hipTextureObject_t", "TLD4": "hipTextureObject_t",
                "TXD": "hipTextureObject_t", "TXQ": "hipTextureObject_t", "TMML": "hipTextureObject_t",
                "SULD": "hipSurfaceObject_t", "SUST": "hipSurfaceObject_t", "SURED": "hipSurfaceObject_t",
                "SUATOM": "hipSurfaceObject_t"}  # fmt: skip


def handle_params(fn: Function, layout: ParamLayout) -> dict[int, str]:
    """Parameter index -> HIP type of each parameter a texture or surface instruction names: the
    HIP port declares those hipTextureObject_t / hipSurfaceObject_t (pointers), which changes the
    kernel's mangled name from CUDA's `unsigned long long` (aliases.hip_aliases)."""
    loaded: dict[str, int] = {}
    out: dict[int, str] = {}
    for ins in fn.instructions:
        kind = HANDLE_TYPES.get(ins.opcode)
        if kind is not None:
            offset = _handle_offset(ins, loaded)
            index = next((k for k, p in enumerate(layout.params)
                          if offset is not None and p.offset == offset - layout.base and p.size == 8), None)  # fmt: skip
            if index is not None:
                out[index] = kind
        dest = ins.operands[0] if ins.operands else None
        src = ins.operands[-1] if ins.operands else None
        if isinstance(dest, Reg) and dest.kind == "UR":
            if (
                ins.opcode == "ULDC"
                and isinstance(src, CBank)
                and src.bank == 0
                and src.reg is None
            ):
                loaded[dest.name] = src.offset
            else:
                loaded.pop(dest.name, None)
    return out


def _handle_offset(ins: Instruction, loaded: dict[str, int]) -> int | None:
    uniform = next((o for o in ins.operands if isinstance(o, Reg) and o.kind == "UR"), None)
    if uniform is not None:
        return loaded.get(uniform.name)
    imms = [o.value for o in ins.operands if isinstance(o, Imm)]
    return imms[1] * 4 if len(imms) >= 2 and imms[0] == 0 else None


def lod_query(e: Emitter, ins: Instruction) -> None:
    raise e.fail(f"{ins.full}: the texture LOD query (TMML) has no HIP counterpart")


HANDLERS = {"TEX": texture, "TLD": texture, "TLD4": texture, "TXD": texture, "TXQ": query,
            "TMML": lod_query}  # fmt: skip
