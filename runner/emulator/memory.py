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
            d = r.base - addr if addr < r.base else addr - (r.base + r.size)
            if dist is None or d < dist:
                best, dist = r, d
        assert best is not None
        where = "before the start of" if addr < best.base else "after the end of"
        return f"{dist} bytes {where} {best.label} [0x{best.base:x}, +{best.size})"


def _byte_matrix(m8: np.ndarray, bidx: np.ndarray, nbytes: int) -> np.ndarray:
    return m8[bidx[:, None] + np.arange(nbytes, dtype=np.int64)]


def gather(m8: np.ndarray, bidx: np.ndarray, nbytes: int) -> list[np.ndarray]:
    """Load `nbytes` at each byte index; returns dwords (uint32) or one zero-extended value."""
    if nbytes >= 4:
        nd = nbytes // 4
        if not (bidx & 3).any():
            m32, w = m8.view(np.uint32), bidx >> 2
            return [np.take(m32, w + d if d else w) for d in range(nd)]
        raw = np.ascontiguousarray(_byte_matrix(m8, bidx, nbytes)).view(np.uint32)
        return [raw[:, d].copy() for d in range(nd)]
    if nbytes == 2:
        if not (bidx & 1).any():
            return [m8.view(np.uint16)[bidx >> 1].astype(np.uint32)]
        raw = np.ascontiguousarray(_byte_matrix(m8, bidx, 2)).view(np.uint16)
        return [raw[:, 0].astype(np.uint32)]
    return [m8[bidx].astype(np.uint32)]


def gather_dwords(m32: np.ndarray, w: np.ndarray, nd: int) -> list[np.ndarray]:
    """Aligned dword loads at dword indices `w`."""
    return [np.take(m32, w + d if d else w) for d in range(nd)]


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


def _rounds(bidx: np.ndarray) -> list[np.ndarray]:
    """Split lane positions into rounds with distinct addresses, preserving lane order: round r
    holds the r-th lane (in lane order) touching each address."""
    order = np.argsort(bidx, kind="stable")
    sorted_idx = bidx[order]
    starts = np.r_[0, np.flatnonzero(sorted_idx[1:] != sorted_idx[:-1]) + 1]
    rank = np.arange(bidx.size) - np.repeat(starts, np.diff(np.r_[starts, bidx.size]))
    ranks = np.empty(bidx.size, np.int64)
    ranks[order] = rank
    return [np.flatnonzero(ranks == r) for r in range(int(rank.max()) + 1)] if bidx.size else []


def _segmented_exclusive_sum(bidx: np.ndarray, values: np.ndarray) -> np.ndarray:
    order = np.argsort(bidx, kind="stable")
    v = values[order]
    csum = np.cumsum(v, dtype=v.dtype)
    sorted_idx = bidx[order]
    starts = np.r_[0, np.flatnonzero(sorted_idx[1:] != sorted_idx[:-1]) + 1]
    before_start = np.where(starts > 0, csum[starts - 1], 0).astype(v.dtype)
    seg_base = np.repeat(before_start, np.diff(np.r_[starts, bidx.size]))
    excl = (csum - v - seg_base).astype(v.dtype)
    out = np.empty_like(excl)
    out[order] = excl
    return out


def atomic(
    m8: np.ndarray,
    bidx: np.ndarray,
    fn,
    data: list[np.ndarray],
    wide: bool,
    name: str = "",
    returns: bool = True,
) -> np.ndarray:
    """Apply `new = fn(old, *data)` lane by lane (lane order) and return the old values.

    Addresses shared by several lanes are serialised in lane order, like the hardware's
    one-at-a-time atomic unit: integer adds use segmented prefix sums, other operations run in
    rounds of distinct addresses."""
    dtype = np.uint64 if wide else np.uint32
    view = m8.view(dtype)
    w = bidx >> (3 if wide else 2)
    data = [d.astype(dtype) for d in data]
    if w.size and np.unique(w).size == w.size:
        old = view[w].copy()
        view[w] = fn(old, *data)
        return old
    uniq, inv = np.unique(w, return_inverse=True)
    cur = view[uniq].copy()
    if name in ("add_u32", "add_u64", "sub_u32", "sub_u64"):
        delta = data[0] if name.startswith("add") else (0 - data[0]).astype(dtype)
        acc = np.zeros(uniq.shape, dtype)
        np.add.at(acc, inv, delta)
        old = (cur[inv] + _segmented_exclusive_sum(w, delta)).astype(dtype)
        view[uniq] = cur + acc
        return old
    ufunc = _NO_RETURN.get(name)
    if ufunc is not None and not returns:
        signed = name.endswith(("_i32", "_i64"))
        typed = cur.view(np.int64 if wide else np.int32) if signed else cur
        ufunc.at(typed, inv, data[0].view(typed.dtype))
        view[uniq] = cur
        return np.zeros(w.shape, dtype)
    if name.startswith(("cmpswap", "cmpstore")):
        return _compare_swap(view, w, data[0], data[1])
    old = np.empty(w.shape, dtype)
    for sel in _rounds(w):
        cur = view[w[sel]].copy()
        old[sel] = cur
        view[w[sel]] = fn(cur, *[d[sel] for d in data])
    return old


_NO_RETURN = {
    "and_b32": np.bitwise_and,
    "or_b32": np.bitwise_or,
    "xor_b32": np.bitwise_xor,
    "and_b64": np.bitwise_and,
    "or_b64": np.bitwise_or,
    "xor_b64": np.bitwise_xor,
    "min_u32": np.minimum,
    "max_u32": np.maximum,
    "min_u64": np.minimum,
    "max_u64": np.maximum,
    "min_i32": np.minimum,
    "max_i32": np.maximum,
    "min_i64": np.minimum,
    "max_i64": np.maximum,
}


def _compare_swap(view: np.ndarray, w: np.ndarray, new: np.ndarray, cmp: np.ndarray) -> np.ndarray:
    """Lane-ordered compare-and-swap with shared addresses: per address, lanes fail until one's
    compare value matches the current contents; that lane swaps, later lanes compare against
    its value. Rounds = successes per address (usually one)."""
    order = np.argsort(w, kind="stable")
    ws, ns, cs = w[order], new[order], cmp[order]
    n = ws.size
    starts = np.r_[0, np.flatnonzero(ws[1:] != ws[:-1]) + 1]
    seg = np.repeat(np.arange(starts.size), np.diff(np.r_[starts, n]))
    pos = np.arange(n)
    ptr = starts.copy()  # first undecided lane of each address
    old = np.empty(n, view.dtype)
    active = np.ones(starts.size, bool)
    while active.any():
        cur = view[ws[starts]]
        undecided = active[seg] & (pos >= ptr[seg])
        match = undecided & (cs == cur[seg])
        first = np.full(starts.size, n, np.int64)
        np.minimum.at(first, seg[match], pos[match])
        # lanes before the winner (or all, when none matches) read `cur` and fail
        fail = undecided & (pos <= first[seg])
        old[fail] = cur[seg[fail]]
        won = first < n
        view[ws[starts[won]]] = ns[first[won]]
        ptr = np.where(won, first + 1, n)
        active = won & (ptr < np.r_[starts[1:], n])
    out = np.empty(n, view.dtype)
    out[order] = old
    return out
