"""gfx11 wave matrix multiply-accumulate (WMMA): D = A x B + C on one 16x16x16 tile per wave.

Lane layout (wave32, RDNA3 ISA "Wave Matrix Multiply Accumulate"; GPUOpen "WMMA on RDNA3"):
* A (16x16, M x K): lane l holds row M = l % 16, all 16 K values packed low half first
  (f16/bf16: 8 VGPRs, two per VGPR; iu8: 4 VGPRs, four per VGPR; iu4: 2 VGPRs, eight per
  VGPR). Lanes 16-31 repeat lanes 0-15; the emulator reads lanes 0-15.
* B (16x16, K x N): lane l holds column N = l % 16, all 16 K values, packed like A.
* C and D (16x16, M x N): 8 VGPRs; VGPR v of lane l is element [M = 2v + l // 16][N = l % 16].
  32-bit results fill the VGPR; f16/bf16 results use the low half (op_sel[2] = 0) or the high
  half (op_sel[2] = 1) and the other half keeps its value.
* iu8/iu4: neg_lo[0] / neg_lo[1] mark A / B as signed; clamp saturates the i32 sum.
EXEC must be all ones (ISA); the emulator computes the whole tile for every wave.
"""

from __future__ import annotations

import numpy as np
from cass.runner.emulator.state import U32

# op -> (A/B element type, C/D type)
WMMA = {
    "v_wmma_f32_16x16x16_f16": ("f16", "f32"),
    "v_wmma_f32_16x16x16_bf16": ("bf16", "f32"),
    "v_wmma_f16_16x16x16_f16": ("f16", "f16"),
    "v_wmma_bf16_16x16x16_bf16": ("bf16", "bf16"),
    "v_wmma_i32_16x16x16_iu8": ("iu8", "i32"),
    "v_wmma_i32_16x16x16_iu4": ("iu4", "i32"),
}
_REGS = {"f16": 8, "bf16": 8, "iu8": 4, "iu4": 2}


def _flags(text: str | None, count: int = 3) -> list[int]:
    if not text:
        return [0] * count
    return [int(x) for x in text.strip("[]").split(",")]


def _bf16_to_f64(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(U32) << U32(16)).view(np.float32).astype(np.float64)


def _f64_to_bf16(x: np.ndarray) -> np.ndarray:
    """Round to nearest even; NaN stays a quiet NaN."""
    bits = x.astype(np.float32).view(U32)
    rounded = (bits + U32(0x7FFF) + ((bits >> U32(16)) & U32(1))) >> U32(16)
    nan = np.isnan(x)
    return np.where(nan, (bits >> U32(16)) | U32(0x40), rounded).astype(np.uint16)


def _operand_rows(m, g, op, regs: int) -> np.ndarray:
    """[waves, 16 lanes, regs] dwords of lanes 0-15 of an A or B operand."""
    rows = m.st.V[op.index : op.index + regs, g.idx][:, :, :16]  # [regs, k, 16]
    return np.ascontiguousarray(rows.transpose(1, 2, 0))


def _elements(dwords: np.ndarray, kind: str, signed: bool) -> np.ndarray:
    """[k, 16, regs] dwords -> [k, 16, 16] values (float64 or int64), element e = K index."""
    k = dwords.shape[0]
    if kind in ("f16", "bf16"):
        halves = dwords.view(np.uint16).reshape(k, 16, 16)
        if kind == "f16":
            return halves.view(np.float16).astype(np.float64)
        return _bf16_to_f64(halves)
    if kind == "iu8":
        raw = dwords.view(np.uint8).reshape(k, 16, 16)
        return raw.view(np.int8).astype(np.int64) if signed else raw.astype(np.int64)
    nib = (dwords[..., None] >> (U32(4) * np.arange(8, dtype=U32))) & U32(0xF)  # iu4
    nib = nib.reshape(k, 16, 16).astype(np.int64)
    return np.where(nib >= 8, nib - 16, nib) if signed else nib


def _tile_to_lanes(tile: np.ndarray) -> np.ndarray:
    """[k, 16 (M), 16 (N)] -> [8 VGPRs, k, 32 lanes] in the C/D layout."""
    k = tile.shape[0]
    return tile.reshape(k, 8, 2, 16).transpose(1, 0, 2, 3).reshape(8, k, 32)


def _lanes_to_tile(regs: np.ndarray) -> np.ndarray:
    """[8, k, 32] -> [k, 16, 16]: inverse of _tile_to_lanes."""
    k = regs.shape[1]
    return regs.reshape(8, k, 2, 16).transpose(1, 0, 2, 3).reshape(k, 16, 16)


def _accumulator(m, g, c, out: str, hi: bool) -> np.ndarray:
    if c.kind != "v":  # an inline constant C (0 is common)
        value = float(c.value) if out != "i32" else int(c.value)
        return np.full((g.k, 16, 16), value, np.float64 if out != "i32" else np.int64)
    regs = _lanes_to_tile(m.st.V[c.index : c.index + 8, g.idx])
    if out == "f32":
        return regs.view(np.float32).astype(np.float64)
    if out == "i32":
        return regs.view(np.int32).astype(np.int64)
    half = (regs >> U32(16 if hi else 0)) & U32(0xFFFF)
    if out == "f16":
        return half.astype(np.uint16).view(np.float16).astype(np.float64)
    return _bf16_to_f64(half.astype(np.uint16))


def _result_bits(m, g, dst, d: np.ndarray, out: str, hi: bool, clamp: bool) -> np.ndarray:
    if out == "f32":
        return d.astype(np.float32).view(U32)
    if out == "i32":
        if clamp:
            d = np.clip(d, -(2**31), 2**31 - 1)
        return (d & 0xFFFFFFFF).astype(U32)
    half = d.astype(np.float16).view(np.uint16) if out == "f16" else _f64_to_bf16(d)
    old = _lanes_to_tile(m.st.V[dst.index : dst.index + 8, g.idx])
    if hi:
        return (old & U32(0xFFFF)) | (half.astype(U32) << U32(16))
    return (old & U32(0xFFFF0000)) | half.astype(U32)


def compile_wmma(ins):
    kinds = WMMA.get(ins.op)
    if kinds is None:
        return None
    src, out = kinds
    dst, a, b, c = ins.operands
    regs = _REGS[src]
    hi = _flags(ins.modifiers.get("op_sel"))[2] == 1
    neg_lo = _flags(ins.modifiers.get("neg_lo"))
    clamp = "clamp" in ins.modifiers
    integer = src in ("iu8", "iu4")

    def run(m, g):
        av = _elements(_operand_rows(m, g, a, regs), src, integer and neg_lo[0] == 1)
        bv = _elements(_operand_rows(m, g, b, regs), src, integer and neg_lo[1] == 1)
        d = np.einsum("wmk,wnk->wmn", av, bv) + _accumulator(m, g, c, out, hi)
        bits = _tile_to_lanes(_result_bits(m, g, dst, d, out, hi, clamp))
        for r in range(8):
            m.st.V[dst.index + r, g.idx] = bits[r]

    return run


__all__ = ["WMMA", "compile_wmma"]
