"""Memory spaces of one batch: per-lane addresses of vector memory instructions, their
resolution to global memory (checked against the allocation table), scratch (per-lane private
memory, grown on demand) or, for flat addresses, the LDS and private apertures; loads, stores
and scalar loads, with the compiled lane loops for whole aligned dwords."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from cass.runner.emulator import lanes as lane_loops
from cass.runner.emulator import memory as mem
from cass.runner.emulator.kinds import Access, FaultKind, Space
from cass.runner.emulator.state import U32, U64, Fault, Group, WaveState, combine64

if TYPE_CHECKING:
    from cass.runner.emulator.races import LdsRaces

SHARED_HI, PRIVATE_HI = 0x10000, 0x20000


class LazyArray:
    """An array computed on first use (index or np.asarray)."""

    def __init__(self, make) -> None:
        self._make, self._value = make, None

    def __array__(self, dtype=None, copy=None):
        if self._value is None:
            self._value = self._make()
        return self._value if dtype is None else self._value.astype(dtype)

    def __getitem__(self, item):
        return np.asarray(self)[item]


class MemorySpaces:
    """Global, scratch and flat accesses; LDS lives in `LdsSpace`."""

    st: WaveState
    table: mem.AllocationTable
    lds: np.ndarray
    scratch: np.ndarray
    scratch_stride: int
    private_limit: int
    races: LdsRaces | None
    wave_wg: np.ndarray
    current: tuple | None

    if TYPE_CHECKING:  # supplied by the scheduler and the LDS

        def waves_of(self, g: Group) -> np.ndarray: ...

        def _lds_index(self, off: np.ndarray, nbytes: int, waves, lanes, kind) -> np.ndarray: ...

    def vmem_addresses(self, seg: str, ops, offset: int, g: Group) -> np.ndarray:
        """Per-lane 64-bit addresses (global/flat) or 32-bit offsets (scratch) as uint64."""
        vaddr, saddr = ops[0], ops[1] if len(ops) > 1 else None
        st = self.st
        if seg == "scratch":
            a = np.zeros((g.k, 32), U64)
            if vaddr.kind == "v":
                a = a + st.V[vaddr.index, g.idx].astype(U64)
            if saddr is not None and saddr.kind == "s":
                a = a + st.S[saddr.index, g.idx].astype(U64)[:, None]
            return (a + U64(offset & 0xFFFFFFFFFFFFFFFF)) & U64(0xFFFFFFFF)
        if saddr is not None and saddr.kind == "s" and saddr.index != 124:
            base = st.sread(saddr, g, "b64")[:, None]
            a = base + st.V[vaddr.index, g.idx].astype(U64)
        else:
            a = combine64(st.V[vaddr.index, g.idx], st.V[vaddr.index + 1, g.idx])
        if offset:  # `a` is a fresh array: add in place
            a += U64(offset & 0xFFFFFFFFFFFFFFFF)
        return a

    def _lanes(self, g: Group, mask: np.ndarray) -> tuple[LazyArray, LazyArray]:
        """Wave and lane of each active lane, computed only if an access needs them."""
        every = self.st.all_active(g)

        def positions():
            return np.arange(g.k * 32) if every else np.flatnonzero(mask.reshape(-1))

        waves = LazyArray(lambda: self.waves_of(g)[positions() // 32])
        lanes = LazyArray(lambda: positions() % 32)
        return waves, lanes

    def active(self, values: np.ndarray, g: Group, mask: np.ndarray) -> np.ndarray:
        """Values of the active lanes, in lane order."""
        return values.reshape(-1) if self.st.all_active(g) else values[mask]

    # ------------------------------------------------------------------ space resolution
    def _global_index(self, a: np.ndarray, nbytes: int, waves, lanes, kind) -> np.ndarray:
        bad = self.table.first_bad(a, nbytes)
        if bad >= 0:
            addr = int(a[bad])
            raise Fault(
                FaultKind.MEMORY,
                f"{kind} of {nbytes} bytes outside every allocation",
                wave=int(waves[bad]),
                lane=int(lanes[bad]),
                address=addr,
                space=Space.GLOBAL,
            )
        return (a - U64(mem.ORIGIN)).astype(np.int64)

    def _scratch_index(self, off: np.ndarray, nbytes: int, waves, lanes, kind) -> np.ndarray:
        off = off.astype(np.int64)
        waves, lanes = np.asarray(waves), np.asarray(lanes)
        top = int(off.max()) + nbytes if off.size else 0
        bad = np.flatnonzero((off + nbytes > self.private_limit) | (off < 0))
        if bad.size:
            i = bad[0]
            raise Fault(
                FaultKind.SCRATCH,
                f"private (scratch) {kind} of {nbytes} bytes at offset "
                f"{int(off[i])} beyond the {self.private_limit} bytes per lane",
                wave=int(waves[i]),
                lane=int(lanes[i]),
                address=int(off[i]),
                space=Space.SCRATCH,
            )
        if top > self.scratch_stride:
            self._grow_scratch(top)
        return (waves * 32 + lanes) * self.scratch_stride + off

    def _grow_scratch(self, need: int) -> None:
        stride = max(64, self.scratch_stride)
        while stride < need:
            stride *= 2
        stride = min(stride, (self.private_limit + 15) & ~15)
        new = np.zeros(self.st.W * 32 * stride, np.uint8)
        if self.scratch_stride:
            old = self.scratch.reshape(self.st.W * 32, self.scratch_stride)
            new.reshape(self.st.W * 32, stride)[:, : self.scratch_stride] = old
        self.scratch, self.scratch_stride = new, stride

    def _resolve(self, seg: str, a: np.ndarray, nbytes: int, waves, lanes, kind):
        """Split accesses by address space: yields (selector, memory array, byte index)."""
        if seg == "global":
            return [(slice(None), mem.GLOBAL, self._global_index(a, nbytes, waves, lanes, kind))]
        if seg == "scratch":
            idx = self._scratch_index(a, nbytes, waves, lanes, kind)
            return [(slice(None), self.scratch, idx)]
        hi = a >> U64(32)
        parts: list[tuple] = []
        for tag, which in ((SHARED_HI, "lds"), (PRIVATE_HI, "scratch")):
            sel = hi == tag
            if sel.any():
                off = a[sel] & U64(0xFFFFFFFF)
                if which == "lds":
                    if self.races is not None and kind in ("load", "store"):  # emulator.races
                        pc = self.current[0] if self.current else 0
                        self.races.note(waves[sel], self.wave_wg, off, nbytes, kind == "store", pc)
                    parts.append(
                        (sel, self.lds, self._lds_index(off, nbytes, waves[sel], lanes[sel], kind))
                    )
                else:
                    idx = self._scratch_index(off, nbytes, waves[sel], lanes[sel], kind)
                    parts.append((sel, "scratch", idx))
        rest = (hi != SHARED_HI) & (hi != PRIVATE_HI)
        if rest.any():
            parts.append(
                (
                    rest,
                    mem.GLOBAL,
                    self._global_index(a[rest], nbytes, waves[rest], lanes[rest], kind),
                )
            )
        # scratch may have grown while resolving: bind the array last
        return [(sel, self.scratch if isinstance(m8, str) else m8, idx) for sel, m8, idx in parts]

    # ------------------------------------------------------------------ accesses
    def access(self, seg, addrs, mask, nbytes, kind, g, data=None):
        if seg == "global" and nbytes % 4 == 0 and self.table.bases.size:
            # whole aligned dwords inside allocations: the compiled loop; else the checked path
            lane_mask = None if self.st.all_active(g) else mask
            if kind == "load":
                got = lane_loops.global_load(addrs, lane_mask, self.table, nbytes // 4)
                if got is not None:
                    return got
            elif lane_loops.global_store(addrs, lane_mask, self.table, data):
                return None
        a = self.active(addrs, g, mask)
        waves, lanes = self._lanes(g, mask)
        parts = self._resolve(seg, a, nbytes, waves, lanes, kind)
        if kind == "store":
            for sel, m8, bidx in parts:
                mem.scatter(m8, bidx, [d[sel] for d in data], nbytes)
            return None
        nd = max(nbytes // 4, 1)
        out = [np.zeros(a.shape, U32) for _ in range(nd)]
        for sel, m8, bidx in parts:
            for d, v in enumerate(mem.gather(m8, bidx, nbytes)):
                out[d][sel] = v
        return out

    def _row_step(self, g: Group) -> int | None:
        """Waves between consecutive rows of a register view of group `g`; None: not a view."""
        if g.full:
            return 1
        return g.idx.indices(self.st.W)[2] if isinstance(g.idx, slice) else None

    def global_load_into(self, addr_ops, offset: int, dst: int, nbytes: int, g: Group) -> bool:
        """A global load of whole dwords straight into v[dst...] by the compiled loop (EXEC-
        masked, every access inside an allocation); False: the handler's numpy path runs."""
        step = self._row_step(g)
        regs = nbytes // 4
        V = self.st.V
        vaddr, saddr = addr_ops[0], addr_ops[1] if len(addr_ops) > 1 else None
        if step is None or nbytes % 4 or not self.table.bases.size or vaddr.kind != "v":
            return False
        if dst + regs > V.shape[0] or vaddr.index + 1 >= V.shape[0]:
            return False
        if saddr is not None and saddr.kind == "s" and saddr.index != 124:
            lo, hi, wave_base = V[vaddr.index, g.idx], None, self.st.sread(saddr, g, "b64")
        else:
            lo, hi, wave_base = V[vaddr.index, g.idx], V[vaddr.index + 1, g.idx], None
        mask = None if self.st.all_active(g) else self.st.exec_mask(g)
        rows = [V[r, g.idx] for r in range(dst, dst + regs)]
        return lane_loops.global_load_into(
            lo, hi, wave_base, offset, step * 32, mask, self.table, rows
        )

    def scalar_load(self, addr: np.ndarray, nbytes: int, g: Group) -> list[np.ndarray]:
        """Uniform loads. The compiler widens constant loads up to an aligned block past the end
        of an object (hardware reads the rest of the page), so only the first dword must lie in
        an allocation; every region the emulator registers is padded well past its end."""
        waves = self.waves_of(g)
        zeros = np.zeros(addr.shape, np.int64)
        bidx = self._global_index(addr, min(nbytes, 4), waves, zeros, Access.SCALAR_LOAD)
        return mem.gather(mem.GLOBAL, bidx, nbytes)
