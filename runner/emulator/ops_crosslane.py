"""Lane permutes of the DS encoding that use no LDS storage: ds_swizzle_b32 and ds_permute_b32
(ds_bpermute_b32 lives with the DS loads). Reading an inactive source lane gives 0.

ds_swizzle_b32 offset (16 bits; RDNA3 ISA, DS_SWIZZLE_B32):
* offset[15] = 0, bit-mask mode: lane i reads lane ((i & and_mask) | or_mask) ^ xor_mask, with
  and_mask = offset[4:0], or_mask = offset[9:5], xor_mask = offset[14:10].
* offset[15:14] = 2, quad-permute mode: lane 4q + j reads lane 4q + offset[2j+1:2j].
* offset[15:14] = 3 (rotate / FFT modes): not emulated, a located fault.
ds_permute_b32 (forward permute): each active lane i sends its data to lane
((addr[i] + offset) / 4) mod 32; when several lanes target one lane the highest lane wins;
lanes nobody targets read 0.
"""

from __future__ import annotations

import numpy as np
from cass.runner.emulator.state import U32, Fault

LANES = np.arange(32)


def swizzle_sources(offset: int) -> np.ndarray:
    """Source lane of each of the 32 lanes for a ds_swizzle_b32 offset."""
    if offset & 0x8000 == 0:
        and_mask, or_mask, xor_mask = offset & 0x1F, (offset >> 5) & 0x1F, (offset >> 10) & 0x1F
        return ((LANES & and_mask) | or_mask) ^ xor_mask
    if offset & 0xC000 == 0x8000:
        select = np.array([(offset >> (2 * j)) & 3 for j in range(4)])
        return (LANES & ~3) + select[LANES & 3]
    raise ValueError(f"ds_swizzle_b32 offset 0x{offset:04x}: rotate/FFT modes are not emulated")


def _masked_source(m, g, data):
    """The data register with inactive lanes read as 0."""
    mask = m.st.exec_mask(g)
    return np.where(mask, m.st.V[data.index, g.idx], U32(0))


def compile_swizzle(ins):
    dst, data = ins.operands[0], ins.operands[1]
    offset = ins.words[0] & 0xFFFF
    try:
        sources = swizzle_sources(offset)
    except ValueError as exc:
        message = str(exc)

        def unsupported(m, g):
            raise Fault("unsupported", message)

        return unsupported

    def run(m, g):
        m.st.vwrite(dst.index, g, _masked_source(m, g, data)[:, sources])

    return run


def compile_permute(ins):
    dst, addr, data = ins.operands[0], ins.operands[1], ins.operands[2]
    offset = int(ins.modifiers.get("offset", "0") or 0, 0)

    def run(m, g):
        mask = m.st.exec_mask(g)
        target = (((m.st.V[addr.index, g.idx] + U32(offset)) >> U32(2)) & U32(31)).astype(np.int64)
        src = m.st.V[data.index, g.idx]
        rows = np.broadcast_to(np.arange(target.shape[0])[:, None], target.shape)
        winner = np.full(target.shape, -1, np.int64)  # per wave and receiving lane
        lanes = np.broadcast_to(LANES, target.shape)
        np.maximum.at(winner, (rows[mask], target[mask]), lanes[mask])
        got = np.take_along_axis(src, np.maximum(winner, 0), axis=1)
        m.st.vwrite(dst.index, g, np.where(winner >= 0, got, U32(0)))

    return run


__all__ = ["compile_permute", "compile_swizzle", "swizzle_sources"]
