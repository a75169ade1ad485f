"""The LDS of one batch: one block per workgroup (granule-padded), bounds-checked accesses,
and the compiled lane loops for whole dwords."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from cass.runner.emulator import lanes as lane_loops
from cass.runner.emulator import memory as mem
from cass.runner.emulator.kinds import FaultKind, Space
from cass.runner.emulator.state import U32, Fault, Group, WaveState


class LdsSpace:
    """LDS accesses of a batch; the machine supplies `lds`, `lds_bytes`, `lds_stride`."""

    st: WaveState
    lds: np.ndarray
    lds_bytes: int
    lds_stride: int
    wave_wg: np.ndarray
    _lds_base: np.ndarray | None

    if TYPE_CHECKING:  # supplied by the memory spaces

        def active(self, values: np.ndarray, g: Group, mask: np.ndarray) -> np.ndarray: ...

        def _lanes(self, g: Group, mask: np.ndarray) -> tuple: ...

        def _row_step(self, g: Group) -> int | None: ...

    def _lds_index(self, off: np.ndarray, nbytes: int, waves, lanes, kind) -> np.ndarray:
        off = off.astype(np.int64)
        waves = np.asarray(waves)
        bad = np.flatnonzero(off + nbytes > self.lds_bytes)
        if bad.size:
            i = bad[0]
            raise Fault(
                FaultKind.LDS,
                f"LDS {kind} of {nbytes} bytes at offset {int(off[i])} beyond "
                f"the workgroup's {self.lds_bytes} bytes of LDS",
                wave=int(waves[i]),
                lane=int(lanes[i]),
                address=int(off[i]),
                space=Space.LDS,
            )
        return self.wave_wg[waves] * self.lds_stride + off

    def _lds_wave_base(self, g: Group) -> np.ndarray:
        """Byte offset of each wave's workgroup block in the batch's LDS (uint32 [k])."""
        if self._lds_base is None:  # wave_wg is final once the launch state is set up
            self._lds_base = (self.wave_wg * self.lds_stride).astype(U32)
        return self._lds_base if g.full else self._lds_base[g.idx]

    def _lds_bidx(self, offs: np.ndarray, mask: np.ndarray, nbytes: int, g: Group, kind: str):
        """Byte indices (uint32) into the batch's LDS of the active lanes, bounds-checked."""
        active = self.active(offs, g, mask)
        if active.size and int(active.max()) + nbytes > self.lds_bytes:
            waves, lanes = self._lanes(g, mask)
            self._lds_index(active.astype(np.int64), nbytes, waves, lanes, kind)  # raises
        return self.active(offs + self._lds_wave_base(g)[:, None], g, mask)

    def lds_access(self, offs, mask, nbytes, kind, g, data=None):
        """Loads return one array per dword: of the active lanes in lane order, or (from the
        compiled loop) of every lane of the group with 0 in the inactive ones, which callers
        expand the same way (`_scatter_full`). Stores take the active lanes' data."""
        if nbytes % 4 == 0:  # whole dwords: the compiled loop, unless a lane needs a report
            every = self.st.all_active(g)
            args = (self.lds.view(U32), offs, self._lds_wave_base(g), None if every else mask)
            if kind == "load":
                got = lane_loops.lds_load(*args, self.lds_bytes, nbytes // 4)
                if got is not None:
                    return got
            elif lane_loops.lds_store(*args, self.lds_bytes, data):
                return None
        bidx = self._lds_bidx(offs, mask, nbytes, g, kind)
        row = _row_bytes(bidx, nbytes)
        if row:  # whole aligned rows of 4, 8 or 16 bytes: one gather or scatter per row
            per = row // 4
            table = self.lds.view(U32) if per == 1 else self.lds.view(U32).reshape(-1, per)
            rows = (bidx >> U32(row.bit_length() - 1)).astype(np.intp)
            if kind == "store":
                for i, first in enumerate(range(0, len(data), per)):
                    part = data[first : first + per]
                    table[rows + i if i else rows] = part[0] if per == 1 else np.stack(part, 1)
                return None
            out = []
            for i in range(nbytes // row):
                got = np.take(table, rows + i if i else rows, axis=0)
                out.extend([got] if per == 1 else got.T)
            return out
        bidx = bidx.astype(np.intp)
        if kind == "store":
            mem.scatter(self.lds, bidx, data, nbytes)
            return None
        return mem.gather(self.lds, bidx, nbytes)

    def lds_load_into(self, addr: int, offsets: tuple, dst: int, nbytes: int, g: Group) -> bool:
        """A DS load of whole dwords (one address, or two for ds_load_2addr) straight from v[addr]
        into v[dst...] by the compiled loop: EXEC-masked, 0 beyond the LDS allocation. False
        when it does not apply (the handler's numpy path runs instead)."""
        V = self.st.V
        regs = len(offsets) * (nbytes // 4)
        if nbytes % 4 or dst + regs > V.shape[0] or addr >= V.shape[0]:
            return False
        step = self._row_step(g)
        if step is None:
            return False
        rows = [V[r, g.idx] for r in (addr, *range(dst, dst + regs))]
        mask = None if self.st.all_active(g) else self.st.exec_mask(g)
        return lane_loops.ds_load_into(
            self.lds.view(U32),
            rows[0],
            step * 32,
            self._lds_wave_base(g),
            mask,
            self.lds_bytes,
            nbytes // 4,
            [o & 0xFFFFFFFF for o in offsets],
            rows[1:],
        )


def _row_bytes(bidx: np.ndarray, nbytes: int) -> int:
    """The widest row (16, 8 or 4 bytes) dividing `nbytes` to which every index is aligned."""
    if nbytes < 4:
        return 0
    low = int(np.bitwise_or.reduce(bidx & U32(15))) if bidx.size else 0
    for row in (16, 8, 4):
        if nbytes % row == 0 and not low & (row - 1):
            return row
    return 0
