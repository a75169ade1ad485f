"""One batch of workgroups of one launch: its register state and memory, put together from
the parts that run it: the scheduler (`scheduler.py`), the memory spaces (`spaces.py`), the LDS
(`lds.py`) and atomics (`atomics.py`)."""

from __future__ import annotations

import numpy as np
from cass.runner.emulator import lanes as lane_loops
from cass.runner.emulator import memory as mem
from cass.runner.emulator.atomics import Atomics
from cass.runner.emulator.lds import LdsSpace
from cass.runner.emulator.program import Program
from cass.runner.emulator.races import LdsRaces
from cass.runner.emulator.scheduler import Scheduler
from cass.runner.emulator.spaces import PRIVATE_HI, SHARED_HI, LazyArray, MemorySpaces
from cass.runner.emulator.state import Group, WaveState

__all__ = ["PRIVATE_HI", "SHARED_HI", "LazyArray", "Machine"]


class Machine(Scheduler, MemorySpaces, LdsSpace, Atomics):
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
        self.jit = None
        self.trace: int | None = None  # -1: every wave; n: wave n of each workgroup
        self._idle: dict[int, tuple[int, int]] = {}
        self.napping = np.zeros(waves, np.int64)  # step until which a wave that slept yields
        self.races: LdsRaces | None = None  # CASS_EMULATOR_RACE_CHECK: the session sets it

    def set_denorm_mode(self, mode: int) -> None:
        """FLOAT_DENORM_MODE: bits 1:0 for f32, 3:2 for f16/f64; 0 flushes inputs and outputs."""
        self.flush32 = (mode & 3) == 0
        self.flush64 = ((mode >> 2) & 3) == 0

    def fma_f32_into(self, a: int, b: int, c: int, dst: int, g: Group) -> bool:
        """v[dst] = fma(v[a], v[b], v[c]) (f32) in the active lanes, by the compiled loop; False
        when it does not apply (the handler's numpy path runs instead)."""
        step = self._row_step(g)
        if step is None or self.flush32 or max(a, b, c, dst) >= self.st.V.shape[0]:
            return False
        rows = [self.st.V[r, g.idx] for r in (a, b, c, dst)]
        mask = None if self.st.all_active(g) else self.st.exec_mask(g)
        return lane_loops.fma_f32_rows(*rows, step * 32, mask, g.k)
