"""Register state of all resident waves (numpy arrays) and operand access for one group of
waves that share a PC.

VGPRs are `V[reg, wave, lane]` (uint32), SGPRs `S[reg, wave]` (s0-s105, VCC 106/107, NULL 124,
M0 125, EXEC 126/127), SCC and PC per wave. A `Group` names the waves executing the current
instruction (a slice when it is every resident wave, else an index array).
"""

from __future__ import annotations

import struct

import numpy as np
from cass.runner.emulator.decode import Operand

LANES = np.arange(32, dtype=np.uint32)
NULL, M0, EXEC = 124, 125, 126
U32, U64 = np.uint32, np.uint64
MASK32 = 0xFFFFFFFF


class Fault(Exception):
    """A kernel fault: reported with kernel, workgroup, wave, PC, instruction, address."""

    def __init__(
        self,
        kind: str,
        message: str,
        *,
        wave: int | None = None,
        lane: int | None = None,
        address: int | None = None,
        space: str = "",
    ) -> None:
        super().__init__(message)
        self.kind, self.message = kind, message
        self.wave, self.lane, self.address, self.space = wave, lane, address, space


_WIDTHS: dict[str, int] = {}


def width_of(typ: str) -> int:
    """Bits of an operand type name (`f64` -> 64, `b16` -> 16, `u24` -> 24)."""
    width = _WIDTHS.get(typ)
    if width is None:
        width = _WIDTHS[typ] = int(typ[1:]) if typ[1:].isdigit() else 32
    return width


def _float_bits(value: float, typ: str) -> int:
    bits = width_of(typ)
    if bits == 64:
        return struct.unpack("<Q", struct.pack("<d", value))[0]
    if bits == 16:
        return int(np.array(value, np.float16).view(np.uint16))
    return struct.unpack("<I", struct.pack("<f", value))[0]


def const_bits(op: Operand, typ: str) -> int:
    """Bit pattern of an inline constant or literal operand read as type `typ`."""
    bits = width_of(typ)
    if op.kind == "special":
        return int(op.value) if bits == 64 else int(op.value) >> 32
    if op.kind == "float":
        return _float_bits(float(op.value), typ)
    value = int(op.value)
    inline = -16 <= value <= 64
    if bits == 64:
        if typ == "f64" and not inline:
            return (value & MASK32) << 32
        if typ == "i64" or inline:
            return value & ((1 << 64) - 1) if value < 0 else value
        return value & MASK32
    if bits == 16:
        return value & 0xFFFF
    return value & MASK32


class Group:
    """The waves executing one instruction together."""

    __slots__ = ("_all", "_exec", "full", "idx", "k")

    def __init__(self, idx, k: int, full: bool) -> None:
        self.idx, self.k, self.full = idx, k, full
        self._exec = None
        self._all = None

    def reset_exec(self) -> None:
        self._exec = None
        self._all = None


class WaveState:
    def __init__(self, waves: int, vgprs: int) -> None:
        self.W = waves
        self.V = np.zeros((vgprs, waves, 32), U32)
        self.S = np.zeros((128, waves), U32)
        self.SCC = np.zeros(waves, U32)
        self.PC = np.zeros(waves, np.int64)
        self.alive = np.zeros(waves, bool)
        self.barrier = np.zeros(waves, bool)
        self.gws = np.zeros(waves, bool)  # waiting at a grid-wide (GWS) barrier
        self.exec_bool = np.zeros((waves, 32), bool)  # EXEC as lanes, kept in sync by swrite
        self.exec_full = np.zeros(waves, bool)

    def sync_exec(self, idx=slice(None)) -> None:
        bits = self.S[EXEC, idx]
        self.exec_bool[idx] = lane_mask(bits)
        self.exec_full[idx] = bits == 0xFFFFFFFF

    # --- EXEC ---
    def exec_mask(self, g: Group) -> np.ndarray:
        if g._exec is None:
            g._exec = self.exec_bool if g.full else self.exec_bool[g.idx]
        return g._exec

    def all_active(self, g: Group) -> bool:
        if g._all is None:
            g._all = bool(self.exec_full.all() if g.full else self.exec_full[g.idx].all())
        return g._all

    # --- scalar operands: [k] arrays ---
    def sread(self, op: Operand, g: Group, typ: str = "b32") -> np.ndarray:
        if op.kind == "s":
            if width_of(typ) == 64:
                lo = self.S[op.index, g.idx].astype(U64)
                hi = self.S[op.index + 1, g.idx].astype(U64) if op.index != NULL else 0
                return lo | (hi << U64(32))
            return self.S[op.index, g.idx]
        if op.kind == "scc":
            return self.SCC[g.idx]
        if op.kind == "const":
            dtype = U64 if width_of(typ) == 64 else U32
            return np.full(g.k, op.value, dtype)
        raise Fault("unsupported", f"operand {op.text!r} cannot be read as a scalar")

    def swrite(self, reg: int, g: Group, value, wide: bool = False) -> None:
        if reg == NULL:
            return
        if wide:
            value = np.asarray(value, U64)
            self.S[reg, g.idx] = (value & U64(MASK32)).astype(U32)
            if reg + 1 != NULL + 1:
                self.S[reg + 1, g.idx] = (value >> U64(32)).astype(U32)
        else:
            self.S[reg, g.idx] = value
        if reg == EXEC or (wide and reg + 1 == EXEC):
            self.S[EXEC + 1, g.idx] = 0
            self.sync_exec(g.idx)
            g.reset_exec()

    # --- vector operands: [k, 32] (or broadcastable [k, 1]) arrays ---
    def vread(self, op: Operand, g: Group, typ: str = "b32") -> np.ndarray:
        wide = width_of(typ) == 64
        if op.kind == "v":
            if wide:
                return combine64(self.V[op.index, g.idx], self.V[op.index + 1, g.idx])
            return self.V[op.index, g.idx]
        if op.kind in ("s", "scc"):
            return self.sread(op, g, typ)[:, None]
        if op.kind == "const":
            return np.array([op.value], U64 if wide else U32)
        raise Fault("unsupported", f"operand {op.text!r} cannot be read as a vector source")

    def vwrite(self, reg: int, g: Group, value, mask: np.ndarray | None = None) -> None:
        """Write lanes enabled by EXEC (and `mask`, if given) of v[reg]."""
        if reg >= self.V.shape[0]:
            raise Fault("unsupported", f"v{reg} is beyond the {self.V.shape[0]} VGPRs allocated")
        active = self.exec_mask(g) if mask is None else mask
        everyone = self.all_active(g) if mask is None else bool(mask.all())
        value = np.broadcast_to(np.asarray(value).astype(U32, copy=False), (g.k, 32))
        if g.full:
            if everyone:
                self.V[reg][...] = value
            else:
                np.copyto(self.V[reg], value, where=active)
        elif everyone:
            self.V[reg, g.idx] = value
        else:
            self.V[reg, g.idx] = np.where(active, value, self.V[reg, g.idx])

    def vwrite64(self, reg: int, g: Group, value, mask: np.ndarray | None = None) -> None:
        value = np.asarray(value).astype(U64, copy=False)
        if value.ndim == 2 and value.flags.c_contiguous:
            halves = value.view(U32).reshape(*value.shape, 2)  # little-endian: [..., 0] is low
            self.vwrite(reg, g, halves[..., 0], mask)
            self.vwrite(reg + 1, g, halves[..., 1], mask)
            return
        self.vwrite(reg, g, (value & U64(MASK32)).astype(U32), mask)
        self.vwrite(reg + 1, g, (value >> U64(32)).astype(U32), mask)


def combine64(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """uint64 values from low and high uint32 halves of the same shape."""
    out = np.empty(lo.shape, U64)
    halves = out.view(U32).reshape(*lo.shape, 2)
    halves[..., 0] = lo
    halves[..., 1] = hi
    return out


def lane_mask(bits: np.ndarray) -> np.ndarray:
    """uint32 [k] lane masks -> bool [k, 32] (lane i = bit i)."""
    raw = np.ascontiguousarray(bits, U32).view(np.uint8).reshape(-1, 4)
    return np.unpackbits(raw, axis=1, bitorder="little").view(bool)


def pack_lanes(bits: np.ndarray) -> np.ndarray:
    """bool [k, 32] -> uint32 [k] lane mask."""
    return np.packbits(bits.astype(np.uint8), axis=1, bitorder="little").view("<u4")[:, 0].copy()


def res(op: Operand, typ: str = "b32") -> Operand:
    """Resolve a constant operand to its bit pattern for type `typ` (registers unchanged)."""
    if op.kind in ("int", "float", "special"):
        return Operand("const", value=const_bits(op, typ), neg=op.neg, abs=op.abs, text=op.text)
    return op
