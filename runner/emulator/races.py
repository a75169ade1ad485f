"""LDS race checking (`CASS_EMULATOR_RACE_CHECK=1`): which waves of a workgroup touch the same
LDS bytes between the same two barriers, one of them writing, and so leave the result to the
order in which waves run (a GPU's warp scheduler, the emulator's worker threads).

Every wave counts the `s_barrier`s it has passed; the waves of a workgroup pass each barrier
together, so two accesses lie between the same barriers exactly when their waves' counts are
equal. Each LDS byte of the batch has a shadow of four words: the wave (+1) that last wrote it
and that wave's count then, the wave (+1) that read it since (MANY: several waves) and its count.
An access conflicts with the shadow when another wave wrote the byte at the same count, or, for a
write, when another wave read it at the same count. Accesses of one wave never conflict (a
wave's lanes run in lock-step, as a warp's do); LDS atomics are neither recorded nor checked.
Values are not compared: waves that all write the same value (a `changed = 1` flag) race too,
harmlessly.
The interpreter checks here (`note`), translated code the same way in the prelude
(`race_check`, native/jit_prelude.h), both on these arrays; translated waves then run on one
thread (the shadow is not shared between threads).

The first conflict of a batch and the number of conflicting accesses are kept in `report`
(int64: count, wave, other wave (-1: several), pc, byte offset in the workgroup's LDS, written);
the session prints one line per batch that had any and counts them per kernel."""

from __future__ import annotations

import os

import numpy as np

MANY = 0xFFFFFFFF
ENV = "CASS_EMULATOR_RACE_CHECK"
PREFIX = "cass-emulator: race "  # each report line begins so
COUNT, WAVE, OTHER, PC, OFFSET, WRITTEN = range(6)


def enabled() -> bool:
    return os.environ.get(ENV, "") not in ("", "0")


def reports(stderr: str) -> list[str]:
    """The race reports a program's stderr holds, each without its prefix."""
    return [ln[len(PREFIX) :] for ln in stderr.splitlines() if ln.startswith(PREFIX)]


class LdsRaces:
    """The shadow of one batch's LDS (`stride` bytes per workgroup, `groups` workgroups) and the
    barrier count of each of its `waves` waves."""

    def __init__(self, waves: int, groups: int, stride: int) -> None:
        self.shadow = np.zeros((max(groups * stride, 1), 4), np.uint32)
        self.barriers = np.zeros(waves, np.uint32)
        self.report = np.zeros(6, np.int64)
        self.stride = stride

    def passed_barrier(self, waves: np.ndarray) -> None:
        self.barriers[waves] += 1

    def note(self, waves: np.ndarray, wave_wg: np.ndarray, offs: np.ndarray, nbytes: int,
             write: bool, pc: int) -> None:  # fmt: skip
        """An LDS access of `nbytes` by lanes of `waves` (one entry per lane) at `offs` (byte
        offsets in each one's workgroup block), wave by wave in order of first appearance (the
        interpreter runs a group's waves in lock-step: one wave's whole access, then the
        next's). Bytes beyond the block are left to the bounds check."""
        waves, offs = np.asarray(waves).reshape(-1), np.asarray(offs, np.int64).reshape(-1)
        inside = offs + nbytes <= self.stride
        waves, offs = waves[inside], offs[inside]
        _, first = np.unique(waves, return_index=True)
        for wave in waves[np.sort(first)]:
            lanes = offs[waves == wave]
            block = int(wave_wg[wave]) * self.stride
            index = (block + lanes[:, None] + np.arange(nbytes)).reshape(-1)
            self._check(index, int(wave), write, pc, block)

    def _check(self, index: np.ndarray, wave: int, write: bool, pc: int, block: int) -> None:
        me, epoch = np.uint32(wave + 1), self.barriers[wave]
        sh = self.shadow[index]
        clash = (sh[:, 0] != 0) & (sh[:, 0] != me) & (sh[:, 1] == epoch)
        other = sh[:, 0]
        if write:
            readers = (sh[:, 2] != 0) & (sh[:, 2] != me) & (sh[:, 3] == epoch)
            other = np.where(clash, other, sh[:, 2])
            clash |= readers
        hits = np.flatnonzero(clash)
        if hits.size:
            if not self.report[COUNT]:
                first = hits[0]
                who = int(other[first])
                self.report[WAVE:] = (wave, -1 if who == MANY else who - 1, pc,
                                      int(index[first]) - block, int(write))  # fmt: skip
            self.report[COUNT] += hits.size
        if write:
            self.shadow[index, 0], self.shadow[index, 1] = me, epoch
            return
        fresh = (sh[:, 2] == 0) | (sh[:, 3] != epoch)
        self.shadow[index, 2] = np.where(fresh, me, np.where(sh[:, 2] == me, me, MANY))
        self.shadow[index, 3] = epoch

    def line(self, kernel: str, workgroup: str, wpg: int) -> str:
        """The report of this batch's first conflict (it had one)."""
        count, wave, other, pc, offset, written = (int(v) for v in self.report)
        access = "write" if written else "read"
        if other < 0:
            against = "reads by several waves"
        else:
            against = f"{'an access' if written else 'a write'} by wave {other % wpg}"
        return (f"{PREFIX}kernel={kernel} workgroup={workgroup} wave={wave % wpg} "
                f"pc=0x{pc:x} lds_offset=0x{offset:x} message=\"LDS {access} racing with "
                f"{against} between the same barriers; {count} conflicting byte accesses in "
                "this batch\"")  # fmt: skip
