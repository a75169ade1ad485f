"""The emulator's counters: kept by the emulated device in the program's process, written as
JSON when it exits, and read back by `run_program` (one class for both sides)."""

from __future__ import annotations

from dataclasses import asdict, dataclass

WAVE_SIZE = 32


@dataclass
class EmulatorStats:
    kernel_launches: int = 0
    instructions: int = 0  # wave instructions executed
    lane_instructions: int = 0
    device_time_ns: float = 0.0
    emulation_wall_s: float = 0.0
    emulation_cpu_s: float = 0.0
    peak_device_memory: int = 0
    faults: int = 0

    @property
    def lane_utilisation(self) -> float:
        """Active lanes per wave instruction, as a fraction of the wave size."""
        return self.lane_instructions / (WAVE_SIZE * self.instructions) if self.instructions else 0.0

    @property
    def lane_instructions_per_s(self) -> float:
        """Per second of emulation wall time."""
        return self.lane_instructions / self.emulation_wall_s if self.emulation_wall_s else 0.0

    @property
    def lane_instructions_per_cpu_s(self) -> float:
        """Per second of CPU time of the emulating process (robust on a shared machine)."""
        return self.lane_instructions / self.emulation_cpu_s if self.emulation_cpu_s else 0.0

    def as_dict(self) -> dict:
        d = asdict(self)
        d["lane_utilisation"] = round(self.lane_utilisation, 4)
        return d

    @classmethod
    def from_dict(cls, raw: dict) -> EmulatorStats:
        return cls(**{k: raw[k] for k in cls.__dataclass_fields__ if k in raw})

    def summary(self) -> str:
        return (
            f"cass emulator: {self.kernel_launches} launches, {self.instructions:,} wave "
            f"instructions, {self.lane_instructions:,} lane instructions, lane utilisation "
            f"{100 * self.lane_utilisation:.1f}%, device time {self.device_time_ns / 1e6:.3f}"
            f" ms, emulation {self.emulation_wall_s:.3f} s "
            f"({self.lane_instructions_per_s / 1e6:.1f}M lane-instr/s)"
        )
