"""The emulator's counters: kept by the emulated device in the program's process, written as
JSON when it exits, and read back by `run_program` (one class for both sides)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

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
    engine: str = "interp"
    native_instructions: int = 0  # wave instructions run by translated code
    baseline_instructions: int = 0  # of those, by its -O0 baseline tier
    translate_s: float = 0.0  # translating code objects to C++ (not in emulation_wall_s)
    compile_s: float = 0.0  # compiling them, 0 when the cache had them
    interpreted: dict = field(default_factory=dict)  # op -> wave instructions interpreted
    warmup_instructions: int = 0  # wave instructions interpreted before the JIT's library
    cold_code_objects: int = 0  # never translated: their kernels stayed under the hot threshold
    compared_launches: int = 0  # launches run by both engines and compared
    # kernel -> launches whose result depended on wave order (both engines agreeing in one order)
    schedule_dependent: dict = field(default_factory=dict)
    lds_races: dict = field(default_factory=dict)  # kernel: conflicting LDS byte accesses

    @property
    def lane_utilisation(self) -> float:
        """Active lanes per wave instruction, as a fraction of the wave size."""
        return (
            self.lane_instructions / (WAVE_SIZE * self.instructions) if self.instructions else 0.0
        )

    @property
    def lane_instructions_per_s(self) -> float:
        """Per second of emulation wall time."""
        return self.lane_instructions / self.emulation_wall_s if self.emulation_wall_s else 0.0

    @property
    def lane_instructions_per_cpu_s(self) -> float:
        """Per second of CPU time of the emulating process (robust on a shared machine)."""
        return self.lane_instructions / self.emulation_cpu_s if self.emulation_cpu_s else 0.0

    def account_jit(self, engine) -> None:
        """Take the translated code's counters (native and interpreted instructions)."""
        self.native_instructions += engine.native_instructions
        self.baseline_instructions += engine.baseline_instructions
        engine.native_instructions = engine.baseline_instructions = 0
        self.warmup_instructions += engine.warmup
        engine.warmup = 0
        for op, n in engine.interpreted.items():
            self.interpreted[op] = self.interpreted.get(op, 0) + n
        engine.interpreted.clear()

    def engine_summary(self) -> str:
        """How much ran translated and what the interpreter ran instead (never silent)."""
        if self.engine == "interp":
            return ""
        if self.cold_code_objects and not self.native_instructions and not self.compile_s:
            return (
                f"; engine {self.engine}: interpreted (kernels under CASS_EMULATOR_JIT_HOT_S of "
                "interpretation are not translated)"
            )
        share = self.native_instructions / self.instructions if self.instructions else 0.0
        text = f"; engine {self.engine}: {100 * share:.1f}% of wave instructions translated"
        if self.baseline_instructions:
            baseline = self.baseline_instructions / self.instructions
            text += f" ({100 * baseline:.1f}% by the -O0 baseline tier)"
        text += f", translation {self.translate_s:.2f} s + compile {self.compile_s:.2f} s"
        if self.cold_code_objects:
            text += f"; {self.cold_code_objects} code object(s) under the hot threshold"
        if self.warmup_instructions:
            text += f"; {self.warmup_instructions:,} interpreted before the translation was loaded"
        top = sorted(self.interpreted.items(), key=lambda kv: -kv[1])[:3]
        if top:
            text += "; interpreted: " + ", ".join(f"{op} {n:,}" for op, n in top)
        if self.compared_launches:
            dependent = sum(self.schedule_dependent.values())
            text += f"; {self.compared_launches - dependent} launches identical under both engines"
            if dependent:
                names = ", ".join(
                    f"{k} x{n}" if n > 1 else k for k, n in self.schedule_dependent.items()
                )
                text += f", {dependent} schedule-dependent ({names})"
        return text

    def count_lds_races(self, kernel: str, conflicts: int) -> None:
        """Conflicting LDS accesses found by CASS_EMULATOR_RACE_CHECK (see emulator.races)."""
        self.lds_races[kernel] = self.lds_races.get(kernel, 0) + conflicts

    def count_schedule_dependent(self, kernel: str) -> None:
        """A launch whose result depended on which wave won a race (see emulator.oracle)."""
        self.schedule_dependent[kernel] = self.schedule_dependent.get(kernel, 0) + 1

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
            + self.engine_summary()
            + self.races_summary()
        )

    def races_summary(self) -> str:
        """The LDS races CASS_EMULATOR_RACE_CHECK found, by kernel (emulator.races)."""
        if not self.lds_races:
            return ""
        found = ", ".join(
            f"{k} ({n:,} conflicting byte accesses)" for k, n in self.lds_races.items()
        )
        return f"; LDS races: {found}"
