"""The execution engine: runs every resident wave of a batch of workgroups in lock-step, one
instruction at a time for the group of waves sharing the lowest PC, and checks every memory
access (global through the allocation table, LDS and scratch against their sizes)."""

from __future__ import annotations

import sys
import time

import numpy as np
from cass.runner.emulator import lanes as lane_loops
from cass.runner.emulator import memory as mem
from cass.runner.emulator.ops_control import NOOPS
from cass.runner.emulator.ops_memory import ATOMICS
from cass.runner.emulator.program import Program
from cass.runner.emulator.state import EXEC, U32, U64, Fault, Group, WaveState, combine64

SHARED_HI, PRIVATE_HI = 0x10000, 0x20000
# no-ops that run back to back as one step; s_code_end (padding after the code) is left alone
IDLE_OPS = frozenset(op for op in NOOPS if op.startswith(("s_waitcnt", "s_delay_alu", "s_nop")))
IDLE_OPS |= NOOPS & {"s_clause", "buffer_gl0_inv", "buffer_gl1_inv", "s_set_inst_prefetch_distance"}
BIG_PC = np.iinfo(np.int64).max
FAIRNESS_PERIOD = 64


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


class Machine:
    """State and memory of one batch of workgroups of one launch."""

    def __init__(
        self,
        program: Program,
        kernel,
        table: mem.AllocationTable,
        waves: int,
        wg_count: int,
        lds_bytes: int,
        private_bytes: int,
        services,
        budget,
    ) -> None:
        self.program, self.kernel, self.table = program, kernel, table
        nv = max(kernel.vgpr_count, program.max_vgpr + 1, 1)
        self.st = WaveState(waves, nv + 1)  # the last row (v[-1]) holds DPP-permuted sources
        self.wave_wg = np.zeros(waves, np.int64)
        self.wg_count = wg_count
        self.gws_target = 1
        descriptor = getattr(kernel, "descriptor", None)
        mode = descriptor.denorm_mode if descriptor is not None else 0xF
        self.set_denorm_mode(mode)
        self.waves_per_group = max(1, waves // max(wg_count, 1))
        self.lds_bytes = lds_bytes
        self.lds_stride = (lds_bytes + 7) & ~7
        # padded to whole 16-byte rows so 8- and 16-byte accesses can gather rows
        self.lds = np.zeros(max(-(-wg_count * self.lds_stride // 16) * 16, 16), np.uint8)
        self._lds_base: np.ndarray | None = None
        self.private_limit = private_bytes
        self.scratch_stride = 0
        self.scratch = np.zeros(8, np.uint8)
        self.services = services
        self.budget = budget
        self.steps = self.wave_instructions = self.lane_instructions = 0
        self.current = None
        self.trace: int | None = None  # -1: every wave; n: wave n of each workgroup
        self._idle: dict[int, tuple[int, int]] = {}
        self.napping = np.zeros(waves, np.int64)  # step until which a wave that slept yields

    # ------------------------------------------------------------------ scheduling
    def run(self) -> None:
        started, check_every = time.monotonic(), 1024
        follow = None  # (pc, group) when every runnable wave moved on together
        while True:
            if follow is not None:
                pc, prev = follow
                g, everyone = Group(prev.idx, prev.k, prev.full), True
            else:
                picked = self._pick()
                if picked is None:
                    return
                pc, g, everyone = picked
            nxt, flow = self.step(pc, g)
            follow = (nxt, g) if everyone and not flow else None
            self.steps += 1
            if self.steps % check_every == 0:
                self.budget.check(self, started)
                follow = None  # let the fairness rule look again

    def _pick(self):
        """The next group: every runnable wave at the lowest PC (now and then the highest)."""
        st = self.st
        while True:
            runnable = st.alive & ~st.barrier & ~st.gws
            if runnable.any():
                awake = runnable & (self.napping <= self.steps)
                if awake.any():  # spinning waves wait while a wave they may wait for runs
                    runnable = awake
                break
            if not st.alive.any():
                return None
            if not self._release_barriers():
                raise Fault(
                    "deadlock",
                    "every live wave waits at s_barrier that can never complete",
                    wave=int(np.flatnonzero(st.alive)[0]),
                )
        if self.steps % FAIRNESS_PERIOD == FAIRNESS_PERIOD - 1:
            # fairness: now and then run the furthest-ahead waves, so a wave spinning at a low
            # PC (a lock, a flag) cannot starve the wave it waits for
            pcs = np.where(runnable, st.PC, -1)
            pc = int(pcs.max())
        else:
            pcs = np.where(runnable, st.PC, BIG_PC)
            pc = int(pcs.min())
        sel = pcs == pc
        if sel.all():
            return pc, Group(slice(None), st.W, True), True
        idx = np.flatnonzero(sel)
        return pc, Group(_evenly_spaced(idx), idx.size, False), idx.size == int(runnable.sum())

    def step(self, pc: int, g: Group):
        """Execute one instruction for group `g` (or a run of no-ops: waits, ALU delays, cache
        hints, all counted); returns (next PC, whether it may change control flow)."""
        try:
            ins, handler = self.program.at(pc)
        except Exception as exc:  # a decoder defect: still a located report
            self.current = (pc, None, g)
            raise Fault("internal", f"emulator error {type(exc).__name__}: {exc}") from exc
        self.current = (pc, ins, g)
        if self.trace is not None:
            self._trace(pc, ins, g)
        count, end = 1, pc + ins.size
        if ins.op in IDLE_OPS and self.trace is None:
            count, end = self._idle_run(pc)
        self.st.PC[g.idx] = end
        self.wave_instructions += g.k * count
        self.lane_instructions += count * int(np.bitwise_count(self.st.S[EXEC, g.idx]).sum())
        try:
            handler(self, g)
        except Fault:
            raise
        except Exception as exc:  # an emulator defect: still a located report, never a crash
            raise Fault("internal", f"emulator error {type(exc).__name__}: {exc}") from exc
        return end, self.program.flow(pc)

    def _idle_run(self, pc: int) -> tuple[int, int]:
        """(count, next PC) of the consecutive no-op instructions starting at `pc`."""
        known = self._idle.get(pc)
        if known is None:
            count, at, code = 0, pc, self.program.instructions
            while (ins := code.get(at)) is not None and ins.op in IDLE_OPS:
                count, at = count + 1, at + ins.size
            known = self._idle[pc] = (count, at)
        return known

    def set_denorm_mode(self, mode: int) -> None:
        """FLOAT_DENORM_MODE: bits 1:0 for f32, 3:2 for f16/f64; 0 flushes inputs and outputs."""
        self.flush32 = (mode & 3) == 0
        self.flush64 = ((mode >> 2) & 3) == 0

    def _trace(self, pc: int, ins, g: Group) -> None:
        waves = self.waves_of(g)
        if self.trace >= 0:
            waves = waves[waves % self.waves_per_group == self.trace]
        if waves.size:
            execs = " ".join(f"{int(self.st.S[EXEC, w]):08x}" for w in waves[:4])
            print(
                f"cass-emulator: trace pc=0x{pc:x} waves={waves.size} exec={execs} {ins.text}",
                file=sys.stderr,
            )

    def _release_barriers(self) -> bool:
        st = self.st
        pending = np.bincount(self.wave_wg[st.alive & ~st.barrier], minlength=self.wg_count)
        release = st.barrier & (pending[self.wave_wg] == 0)
        st.barrier[release] = False
        released = bool(release.any())
        if st.gws.any() and int(st.gws.sum()) >= self.gws_target:
            st.gws[:] = False
            released = True
        return released

    def waves_of(self, g: Group) -> np.ndarray:
        if g.full or isinstance(g.idx, slice):
            return np.arange(self.st.W)[g.idx]
        return g.idx

    # ------------------------------------------------------------------ addresses
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
                "memory",
                f"{kind} of {nbytes} bytes outside every allocation",
                wave=int(waves[bad]),
                lane=int(lanes[bad]),
                address=addr,
                space="global",
            )
        return (a - U64(mem.ORIGIN)).astype(np.int64)

    def _lds_index(self, off: np.ndarray, nbytes: int, waves, lanes, kind) -> np.ndarray:
        off = off.astype(np.int64)
        waves = np.asarray(waves)
        bad = np.flatnonzero(off + nbytes > self.lds_bytes)
        if bad.size:
            i = bad[0]
            raise Fault(
                "lds",
                f"LDS {kind} of {nbytes} bytes at offset {int(off[i])} beyond "
                f"the workgroup's {self.lds_bytes} bytes of LDS",
                wave=int(waves[i]),
                lane=int(lanes[i]),
                address=int(off[i]),
                space="lds",
            )
        return self.wave_wg[waves] * self.lds_stride + off

    def _scratch_index(self, off: np.ndarray, nbytes: int, waves, lanes, kind) -> np.ndarray:
        off = off.astype(np.int64)
        waves, lanes = np.asarray(waves), np.asarray(lanes)
        top = int(off.max()) + nbytes if off.size else 0
        bad = np.flatnonzero((off + nbytes > self.private_limit) | (off < 0))
        if bad.size:
            i = bad[0]
            raise Fault(
                "scratch",
                f"private (scratch) {kind} of {nbytes} bytes at offset "
                f"{int(off[i])} beyond the {self.private_limit} bytes per lane",
                wave=int(waves[i]),
                lane=int(lanes[i]),
                address=int(off[i]),
                space="scratch",
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
        parts = []
        for tag, which in ((SHARED_HI, "lds"), (PRIVATE_HI, "scratch")):
            sel = hi == tag
            if sel.any():
                off = a[sel] & U64(0xFFFFFFFF)
                if which == "lds":
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

    def atomic(self, seg, addrs, mask, suffix, data, g, returns=True):
        a = self.active(addrs, g, mask)
        waves, lanes = self._lanes(g, mask)
        wide = suffix.endswith("64")
        nbytes = 8 if wide else 4
        if (a & U64(nbytes - 1)).any():
            i = int(np.flatnonzero(a & U64(nbytes - 1))[0])
            raise Fault(
                "misaligned",
                f"atomic {suffix} at an address not aligned to {nbytes}",
                wave=int(waves[i]),
                lane=int(lanes[i]),
                address=int(a[i]),
                space=seg,
            )
        out = np.zeros(a.shape, U64 if wide else U32)
        for sel, m8, bidx in self._resolve(seg, a, nbytes, waves, lanes, "atomic"):
            out[sel] = mem.atomic(
                m8, bidx, ATOMICS[suffix], [d[sel] for d in data], wide, suffix, returns
            )
        return out

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

    def _row_step(self, g: Group) -> int | None:
        """Waves between consecutive rows of a register view of group `g`; None: not a view."""
        if g.full:
            return 1
        return g.idx.indices(self.st.W)[2] if isinstance(g.idx, slice) else None

    def fma_f32_into(self, a: int, b: int, c: int, dst: int, g: Group) -> bool:
        """v[dst] = fma(v[a], v[b], v[c]) (f32) in the active lanes, by the compiled loop; False
        when it does not apply (the handler's numpy path runs instead)."""
        step = self._row_step(g)
        if step is None or self.flush32 or max(a, b, c, dst) >= self.st.V.shape[0]:
            return False
        rows = [self.st.V[r, g.idx] for r in (a, b, c, dst)]
        mask = None if self.st.all_active(g) else self.st.exec_mask(g)
        return lane_loops.fma_f32_rows(*rows, step * 32, mask, g.k)

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

    def lds_atomic(self, offs, mask, suffix, data, g, returns=True):
        wide = suffix.endswith("64")
        bidx = self._lds_bidx(offs, mask, 8 if wide else 4, g, "atomic").astype(np.intp)
        return mem.atomic(self.lds, bidx, ATOMICS[suffix], data, wide, suffix, returns)

    def scalar_load(self, addr: np.ndarray, nbytes: int, g: Group) -> list[np.ndarray]:
        """Uniform loads. The compiler widens constant loads up to an aligned block past the end
        of an object (hardware reads the rest of the page), so only the first dword must lie in
        an allocation; every region the emulator registers is padded well past its end."""
        waves = self.waves_of(g)
        zeros = np.zeros(addr.shape, np.int64)
        bidx = self._global_index(addr, min(nbytes, 4), waves, zeros, "scalar load")
        return mem.gather(mem.GLOBAL, bidx, nbytes)


def _evenly_spaced(idx: np.ndarray):
    """Wave indices as a slice when evenly spaced (one wave per workgroup, a run of waves), so
    register reads and writes are numpy views instead of gathers and scatters."""
    if idx.size == 1:
        return slice(int(idx[0]), int(idx[0]) + 1)
    step = int(idx[1] - idx[0])
    if (idx[1:] - idx[:-1] == step).all():
        return slice(int(idx[0]), int(idx[-1]) + 1, step)
    return idx


def _row_bytes(bidx: np.ndarray, nbytes: int) -> int:
    """The widest row (16, 8 or 4 bytes) dividing `nbytes` to which every index is aligned."""
    if nbytes < 4:
        return 0
    low = int(np.bitwise_or.reduce(bidx & U32(15))) if bidx.size else 0
    for row in (16, 8, 4):
        if nbytes % row == 0 and not low & (row - 1):
            return row
    return 0
