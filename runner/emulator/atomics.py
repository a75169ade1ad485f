"""Atomics of one batch: global, scratch and flat through the memory spaces, LDS through its
own; alignment checked, lanes touching the same address applied in lane order."""

from __future__ import annotations

import numpy as np
from cass.runner.emulator import memory as mem
from cass.runner.emulator.kinds import Access, FaultKind
from cass.runner.emulator.ops_memory import ATOMICS
from cass.runner.emulator.state import U32, U64, Fault


class Atomics:
    """Read-modify-write accesses; uses the machine's address resolution."""

    def atomic(self, seg, addrs, mask, suffix, data, g, returns=True):
        a = self.active(addrs, g, mask)
        waves, lanes = self._lanes(g, mask)
        wide = suffix.endswith("64")
        nbytes = 8 if wide else 4
        if (a & U64(nbytes - 1)).any():
            i = int(np.flatnonzero(a & U64(nbytes - 1))[0])
            raise Fault(
                FaultKind.MISALIGNED,
                f"atomic {suffix} at an address not aligned to {nbytes}",
                wave=int(waves[i]),
                lane=int(lanes[i]),
                address=int(a[i]),
                space=seg,
            )
        out = np.zeros(a.shape, U64 if wide else U32)
        for sel, m8, bidx in self._resolve(seg, a, nbytes, waves, lanes, Access.ATOMIC):
            out[sel] = mem.atomic(
                m8, bidx, ATOMICS[suffix], [d[sel] for d in data], wide, suffix, returns
            )
        return out

    def lds_atomic(self, offs, mask, suffix, data, g, returns=True):
        wide = suffix.endswith("64")
        bidx = self._lds_bidx(offs, mask, 8 if wide else 4, g, Access.ATOMIC).astype(np.intp)
        return mem.atomic(self.lds, bidx, ATOMICS[suffix], data, wide, suffix, returns)
