"""Surface instructions (SULD, SUST) against HIP surface objects; SURED/SUATOM are located errors.

ptxas 13.0 writes `surf2Dread<T>(s, x_bytes, y)` as `SULD.D.BA.2D[.U8|.U16|.64|.128].STRONG.SM
[.TRAP|.IGN] Rd, [Rc], handle` (sm_80: handle `0x0, 0x58`, the parameter's constant-bank word;
sm_90: a uniform register, see textures.descriptor) and the write as `SUST.D.BA... [Rc], Rs,
handle`. `.D.BA` is a raw read/write of the element's bytes at a byte x coordinate; Rc holds
(x_bytes, y[, z | layer]); no boundary modifier is cudaBoundaryModeClamp, `.TRAP` the default,
`.IGN` cudaBoundaryModeZero.

A HIP surface object is the same pointer as a texture object (image descriptor + HSA channel type
at dword 8 and channel order at dword 9). The lift does what HIP's surf2Dread does (pixel x from
the byte x by the element size, then `__ockl_image_load_2D`) and turns the loaded components back
into the element's raw bytes by its channel type, and the reverse for writes, so any element type
round-trips as on NVIDIA. Out-of-range accesses read zero and drop writes (AMD's image rules,
NVIDIA's `.IGN`); a correct program never reaches NVIDIA's trap. Channel orders R, RG and RGBA
and the 8/16/32-bit channel types are supported; any other format traps at run time.
"""

from __future__ import annotations

from cass.models.lift.emit import Emitter
from cass.models.lift.ir import Instruction, Mem, Reg
from cass.models.lift.textures import descriptor

DIMS = {"1D": ("1D", 1), "2D": ("2D", 2), "3D": ("3D", 3), "1D_ARRAY": ("1Da", 2),
        "2D_ARRAY": ("2Da", 3)}  # fmt: skip
SIZES = {"U8": 1, "S8": 1, "U16": 2, "S16": 2, "64": 8, "128": 16}
KNOWN = {"D", "BA", "STRONG", "WEAK", "SM", "CTA", "GPU", "SYS", "TRAP", "IGN", *DIMS, *SIZES}
# HSA channel types (hsa_ext_image_channel_type_t)
BITS = {0: 8, 2: 8, 8: 8, 11: 8, 1: 16, 3: 16, 9: 16, 12: 16, 14: 16, 10: 32, 13: 32, 15: 32}
NORMALIZED = {2: (255.0, False), 3: (65535.0, False), 0: (127.0, True), 1: (32767.0, True)}
HALF = 14
CHANNELS = {1: 1, 3: 2, 8: 4}  # HSA channel orders R, RG, RGBA


def _form(e: Emitter, ins: Instruction) -> tuple[str, int, int]:
    """(ockl dimension suffix, coordinate count, access bytes)"""
    if not e.target.private_as:
        raise e.fail(f"{ins.full}: surface instructions are lifted for AMD GPUs only")
    unknown = [m for m in ins.mods if m not in KNOWN]
    if unknown or not ins.has("D") or not ins.has("BA"):
        raise e.fail(f"{ins.full}: only raw byte-addressed surface accesses (.D.BA) are supported"
                     + (f" (not .{'.'.join(unknown)})" if unknown else ""))  # fmt: skip
    dim = next((m for m in ins.mods if m in DIMS), None)
    if dim is None:
        raise e.fail(f"{ins.full}: no surface dimension")
    clamp = not ins.has("TRAP") and not ins.has("IGN")
    if clamp and dim not in ("1D", "2D"):
        raise e.fail(f"{ins.full}: cudaBoundaryModeClamp is supported for 1D and 2D surfaces")
    size = next((SIZES[m] for m in ins.mods if m in SIZES), 4)
    return DIMS[dim][0], DIMS[dim][1], size


def _format(e: Emitter, image: str) -> tuple[str, str, str, str]:
    """(channel type, bits per channel, channels, element bytes) as i32 values; traps on a format
    the lift cannot turn into raw bytes."""
    words = [e.op(f"getelementptr i32, ptr addrspace(4) {image}, i32 {k}") for k in (8, 9)]
    kind, order = (e.op(f"load i32, ptr addrspace(4) {w}, align 4") for w in words)
    bits = _table(e, kind, BITS)
    channels = _table(e, order, CHANNELS)
    bad = e.op(f"or i1 {e.op(f'icmp eq i32 {bits}, 0')}, {e.op(f'icmp eq i32 {channels}, 0')}")
    trap, ok = e.fresh_block("surf.format"), e.fresh_block("surf.ok")
    e.branch(bad, trap, ok)
    e.label(trap)
    e.emit("call void @llvm.trap()")
    e.emit("unreachable")
    e.terminated = True
    e.label(ok)
    element = e.op(f"lshr i32 {e.op(f'mul i32 {bits}, {channels}')}, 3")
    return kind, bits, channels, element


def _table(e: Emitter, key: str, table: dict[int, int]) -> str:
    value = "0"
    for k, v in table.items():
        value = e.op(f"select i1 {e.op(f'icmp eq i32 {key}, {k}')}, i32 {v}, i32 {value}")
    return value


def _coords(
    e: Emitter, ins: Instruction, image: str, dim: str, count: int, element: str
) -> tuple[str, str]:
    mem = next((o for o in ins.operands if isinstance(o, Mem)), None)
    if mem is None or mem.reg is None or mem.offset:
        raise e.fail(f"{ins.full}: expected the coordinates as [Rc]")
    values = [e.i32(mem.reg.offset(k)) for k in range(count)]
    values[0] = e.op(f"udiv i32 {values[0]}, {element}")  # byte x -> pixel x, as __hipGetPixelAddr
    if not ins.has("TRAP") and not ins.has("IGN"):  # cudaBoundaryModeClamp
        limits = [f"width_{dim}", f"height_{dim}"][:count]
        for k, name in enumerate(limits):
            size = e.op(f"call i32 @__ockl_image_{name}(ptr addrspace(4) {image})")
            top = e.op(f"sub i32 {size}, 1")
            low = e.op(f"call i32 @llvm.smax.i32(i32 {values[k]}, i32 0)")
            values[k] = e.op(f"call i32 @llvm.smin.i32(i32 {low}, i32 {top})")
    if count == 1:
        return "i32", values[0]
    width = 2 if count == 2 else 4
    vec = "undef"
    for k, v in enumerate(values + ["0"] * (width - count)):
        vec = e.op(f"insertelement <{width} x i32> {vec}, i32 {v}, i32 {k}")
    return f"<{width} x i32>", vec


def _to_raw(e: Emitter, kind: str, component: str) -> str:
    """One loaded component (float lane) -> its channel's raw bits (low bits of an i32)."""
    bits = e.op(f"bitcast float {component} to i32")
    narrow = e.op(f"fptrunc float {component} to half")
    half = e.op(f"zext i16 {e.op(f'bitcast half {narrow} to i16')} to i32")
    raw = e.op(f"select i1 {e.op(f'icmp eq i32 {kind}, {HALF}')}, i32 {half}, i32 {bits}")
    for code, (scale, signed) in NORMALIZED.items():
        low = -1.0 if signed else 0.0
        above = e.op(f"call float @llvm.maxnum.f32(float {component}, float {low:.1f})")
        clamped = e.op(f"call float @llvm.minnum.f32(float {above}, float 1.0)")
        scaled = e.op(
            f"call float @llvm.rint.f32(float {e.op(f'fmul float {clamped}, {scale:.1f}')})"
        )
        value = e.op(f"{'fptosi' if signed else 'fptoui'} float {scaled} to i32")
        raw = e.op(f"select i1 {e.op(f'icmp eq i32 {kind}, {code}')}, i32 {value}, i32 {raw}")
    return raw


def _from_raw(e: Emitter, kind: str, raw: str) -> str:
    """A channel's raw bits -> the float lane an image store takes for that channel type."""
    value = e.op(f"bitcast i32 {raw} to float")
    low = e.op(f"trunc i32 {raw} to i16")
    half = e.op(f"fpext half {e.op(f'bitcast i16 {low} to half')} to float")
    value = e.op(f"select i1 {e.op(f'icmp eq i32 {kind}, {HALF}')}, float {half}, float {value}")
    for code, (scale, signed) in NORMALIZED.items():
        width = 8 if scale < 256 else 16
        narrow = e.op(f"trunc i32 {raw} to i{width}")
        number = e.op(f"{'sitofp' if signed else 'uitofp'} i{width} {narrow} to float")
        norm = e.op(f"fdiv float {number}, {scale:.1f}")
        if signed:
            norm = e.op(f"call float @llvm.maxnum.f32(float {norm}, float -1.0)")
        value = e.op(
            f"select i1 {e.op(f'icmp eq i32 {kind}, {code}')}, float {norm}, float {value}"
        )
    return value


def surface_load(e: Emitter, ins: Instruction) -> None:
    dim, count, size = _form(e, ins)
    image = descriptor(e, ins)
    kind, bits, channels, element = _format(e, image)
    ty, coords = _coords(e, ins, image, dim, count, element)
    lanes = e.op(
        f"call <4 x float> @__ockl_image_load_{dim}(ptr addrspace(4) {image}, {ty} {coords})"
    )
    wide = e.op(f"zext i32 {bits} to i128")
    mask = e.op(f"sub i128 {e.op(f'shl i128 1, {wide}')}, 1")
    packed = "0"
    for c in range(4):
        lane = e.op(f"extractelement <4 x float> {lanes}, i32 {c}")
        raw = e.op(f"and i128 {e.op(f'zext i32 {_to_raw(e, kind, lane)} to i128')}, {mask}")
        placed = e.op(f"shl i128 {raw}, {e.op(f'mul i128 {wide}, {c}')}")
        used = e.op(f"icmp ult i32 {c}, {channels}")
        packed = e.op(f"or i128 {packed}, {e.op(f'select i1 {used}, i128 {placed}, i128 0')}")
    dest = ins.operands[0]
    if not isinstance(dest, Reg):
        raise e.fail(f"{ins.full}: expected a destination register")
    signed = ins.has("S8") or ins.has("S16")
    for k in range(max(size // 4, 1)):
        word = e.op(f"trunc i128 {e.op(f'lshr i128 {packed}, {32 * k}')} to i32")
        if size < 4:
            narrow = e.op(f"trunc i32 {word} to i{8 * size}")
            word = e.op(f"{'sext' if signed else 'zext'} i{8 * size} {narrow} to i32")
        e.write(dest.offset(k), word)


def surface_store(e: Emitter, ins: Instruction) -> None:
    dim, count, size = _form(e, ins)
    image = descriptor(e, ins)
    kind, bits, _channels, element = _format(e, image)
    ty, coords = _coords(e, ins, image, dim, count, element)
    source = next((o for o in ins.operands[1:] if isinstance(o, Reg) and o.kind == "R"), None)
    if source is None:
        raise e.fail(f"{ins.full}: expected a source register")
    raw = "0"
    for k in range(max(size // 4, 1)):
        word = e.op(f"zext i32 {e.i32(source.offset(k))} to i128")
        raw = e.op(f"or i128 {raw}, {e.op(f'shl i128 {word}, {32 * k}')}")
    if size < 4:
        raw = e.op(f"and i128 {raw}, {(1 << (8 * size)) - 1}")
    wide = e.op(f"zext i32 {bits} to i128")
    mask = e.op(f"sub i128 {e.op(f'shl i128 1, {wide}')}, 1")
    lanes = "undef"
    for c in range(4):
        shift = e.op(f"mul i128 {wide}, {c}")
        field = e.op(f"and i128 {e.op(f'lshr i128 {raw}, {shift}')}, {mask}")
        lane = _from_raw(e, kind, e.op(f"trunc i128 {field} to i32"))
        lanes = e.op(f"insertelement <4 x float> {lanes}, float {lane}, i32 {c}")
    e.emit(
        f"call void @__ockl_image_store_{dim}(ptr addrspace(4) {image}, {ty} {coords}, <4 x float> {lanes})"
    )


def surface_atomic(e: Emitter, ins: Instruction) -> None:
    raise e.fail(f"{ins.full}: surface atomics (sured/suatom) have no HIP counterpart; use atomics "
                 "on a global-memory buffer")  # fmt: skip


HANDLERS = {"SULD": surface_load, "SUST": surface_store, "SURED": surface_atomic,
            "SUATOM": surface_atomic}  # fmt: skip
