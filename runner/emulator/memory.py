"""Memory spaces seen by emulated waves.

Global memory is this process's own address space (device pointer == host pointer), viewed as
one numpy byte array from address ORIGIN; every access is checked against the allocation table
first. LDS and scratch are numpy byte arrays owned by the launch. All three expose the same
gather / scatter / atomic helpers over byte indices.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass

import numpy as np

ORIGIN = 4096
_SPAN = (1 << 47) - ORIGIN
GLOBAL = np.frombuffer((ctypes.c_uint8 * _SPAN).from_address(ORIGIN), dtype=np.uint8)


@dataclass
class Region:
    base: int
    size: int
    label: str


class AllocationTable:
    """Sorted [base, base+size) regions that kernels may touch."""

    def __init__(self, regions: list[Region]) -> None:
        regions = sorted(regions, key=lambda r: r.base)
        self.regions = regions
        self.bases = np.array([r.base for r in regions], dtype=np.uint64)
        self.limits = np.array([r.base + r.size for r in regions], dtype=np.uint64)

    def first_bad(self, addrs: np.ndarray, nbytes: int) -> int:
        """Index into `addrs` (uint64, 1-D) of the first access outside every region, or -1."""
        if addrs.size == 0:
            return -1
        if self.bases.size:
            lo, hi = addrs.min(), addrs.max()
            i = int(np.searchsorted(self.bases, lo, side="right")) - 1
            if i >= 0 and hi + np.uint64(nbytes) <= self.limits[i]:
                return -1
            idx = np.searchsorted(self.bases, addrs, side="right").astype(np.int64) - 1
            ok = (idx >= 0) & (addrs + np.uint64(nbytes) <= self.limits[np.maximum(idx, 0)])
        else:
            ok = np.zeros(addrs.shape, bool)
        bad = np.flatnonzero(~ok)
        return int(bad[0]) if bad.size else -1

    def nearest(self, addr: int) -> str:
        if not self.regions:
            return "no allocations"
        best, dist = None, None
        for r in self.regions:
            if r.base <= addr < r.base + max(r.size, 1):
                return f"inside {r.label} [0x{r.base:x}, +{r.size}) at offset {addr - r.base}"
            d = r.base - addr if addr < r.base else addr - (r.base + r.size) + 1
            if dist is None or d < dist:
                best, dist = r, d
        assert best is not None
        where = "before" if addr < best.base else "past the end of"
        return f"{dist} bytes {where} {best.label} [0x{best.base:x}, +{best.size})"


def _byte_matrix(m8: np.ndarray, bidx: np.ndarray, nbytes: int) -> np.ndarray:
    return m8[bidx[:, None] + np.arange(nbytes, dtype=np.int64)]


def gather(m8: np.ndarray, bidx: np.ndarray, nbytes: int) -> list[np.ndarray]:
    """Load `nbytes` at each byte index; returns dwords (uint32) or one zero-extended value."""
    if nbytes >= 4:
        nd = nbytes // 4
        if not (bidx & 3).any():
            m32, w = m8.view(np.uint32), bidx >> 2
            return [m32[w + d] for d in range(nd)]
        raw = np.ascontiguousarray(_byte_matrix(m8, bidx, nbytes)).view(np.uint32)
        return [raw[:, d].copy() for d in range(nd)]
    if nbytes == 2:
        if not (bidx & 1).any():
            return [m8.view(np.uint16)[bidx >> 1].astype(np.uint32)]
        raw = np.ascontiguousarray(_byte_matrix(m8, bidx, 2)).view(np.uint16)
        return [raw[:, 0].astype(np.uint32)]
    return [m8[bidx].astype(np.uint32)]


def scatter(m8: np.ndarray, bidx: np.ndarray, values: list[np.ndarray], nbytes: int) -> None:
    if nbytes >= 4:
        if not (bidx & 3).any():
            m32, w = m8.view(np.uint32), bidx >> 2
            for d, v in enumerate(values):
                m32[w + d] = v
            return
        raw = np.stack([v.astype(np.uint32) for v in values], axis=1).view(np.uint8)
        m8[bidx[:, None] + np.arange(nbytes, dtype=np.int64)] = raw
        return
    if nbytes == 2:
        if not (bidx & 1).any():
            m8.view(np.uint16)[bidx >> 1] = values[0].astype(np.uint16)
            return
        raw = values[0].astype(np.uint16)[:, None].view(np.uint8)
        m8[bidx[:, None] + np.arange(2, dtype=np.int64)] = raw
        return
    m8[bidx] = values[0].astype(np.uint8)


def _unique(bidx: np.ndarray) -> bool:
    return bidx.size < 2 or np.unique(bidx).size == bidx.size


def atomic(m8: np.ndarray, bidx: np.ndarray, fn, data: list[np.ndarray], wide: bool) -> np.ndarray:
    """Apply `new = fn(old, *data)` lane by lane (lane order) and return the old values.

    Vectorised when all addresses differ; sequential (exactly one winner per step, in lane
    order, like hardware serialisation) when some lanes share an address."""
    dtype = np.uint64 if wide else np.uint32
    view = m8.view(dtype)
    w = bidx >> (3 if wide else 2)
    if _unique(bidx):
        old = view[w].copy()
        view[w] = fn(old, *data)
        return old
    old = np.empty(w.shape, dtype)
    for i in range(w.size):
        cur = view[w[i]:w[i] + 1].copy()
        old[i] = cur[0]
        view[w[i]] = fn(cur, *[d[i:i + 1] for d in data])[0]
    return old


def atomic_add_no_return(m8: np.ndarray, bidx: np.ndarray, value: np.ndarray, wide: bool) -> None:
    dtype = np.uint64 if wide else np.uint32
    np.add.at(m8.view(dtype), bidx >> (3 if wide else 2), value.astype(dtype))
