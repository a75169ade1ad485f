"""One benchmark task's attempt and what every level's pipeline shares: the run configuration,
the result, the attempt the steps fill in, the library and reference steps, and the mapping of
a verdict onto a benchmark status. `harness` runs the source level's steps, `assembly` the
assembly level's.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from cass.models.bench.catalog import (
    BACKEND_LIBRARIES,
    LIBRARIES,
    ROCM_INCLUDE_DIRS,
    STATUSES,
    TIMEOUT_SCALE,
)
from cass.models.bench.tasks import Task
from cass.runner.diagnostics import CassError

PORT_BACKENDS = ("emulator", "rocm")
LEVELS = ("source", "assembly")
SASS_ARCHS = ("sm_80", "sm_90")  # the assembly level's inputs: each task's SASS for one of these


@dataclass(frozen=True)
class RunConfig:
    engines: tuple[str, ...] = ("rules",)
    backend: str = "emulator"
    level: str = "source"
    jobs: int = 1
    resume: bool = False
    out_dir: Path = Path("bench-results")
    timeout_s: float | None = None  # per run of a port, instead of each task's own limit
    model: str = (
        ""  # for the model engines: a GGUF file, checkpoint folder or URL (else $CASS_MODEL)
    )
    sass_arch: str = "sm_90"  # the assembly level: which SASS the engine translates (nvcc -arch)

    def spec_for(self, task: Task) -> Any:
        """The task's run spec (from its task.toml) with this run's time limit: `timeout_s` when
        set, else the task's own scaled for the backend (an emulator is slower than a GPU)."""
        from cass.runner.spec import load_run_spec

        spec = load_run_spec(task.source)
        limit = self.timeout_s or spec.timeout_s * TIMEOUT_SCALE.get(self.backend, 1.0)
        return spec.replace(timeout_s=float(limit))

    @property
    def cache_dir(self) -> Path:
        return self.out_dir / "cache"

    @property
    def arch_key(self) -> str:
        """The SASS arch results are keyed by: set at the assembly level, empty at the source level."""
        return self.sass_arch if self.level == "assembly" else ""


@dataclass(frozen=True)
class TaskResult:
    task: str
    domain: str
    engine: str
    backend: str
    level: str
    status: str
    message: str
    translated: bool = False
    compiled: bool = False
    ran: bool = False
    matched: bool = False
    runtime_ratio: float | None = None
    memory_ratio: float | None = None
    translate_s: float = 0.0
    verify_s: float = 0.0
    engine_diagnostics: int = 0
    key: str = ""
    cached: bool = False
    notes: tuple[str, ...] = field(default_factory=tuple)
    sass_arch: str = ""  # the assembly level's input arch (sm_80, sm_90); empty at the source level

    @property
    def passed(self) -> bool:
        return STATUSES[self.status][1]

    @property
    def column(self) -> str:
        """What reports compare side by side: the engine, and at the assembly level its SASS arch."""
        return f"{self.engine} {self.sass_arch}" if self.sass_arch else self.engine

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "notes": list(self.notes)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TaskResult:
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        known["notes"] = tuple(known.get("notes", ()))
        return cls(**known)


# ---------------------------------------------------------------- the steps of one task


@dataclass
class Attempt:
    """What one task's pipeline knows so far; each step reads it and may finish it."""

    task: Task
    engine: str
    config: RunConfig
    result: TaskResult | None = None
    port_text: str = ""
    translate_s: float = 0.0
    diagnostics: int = 0
    reference_problem: str | None = None  # why there is no usable NVIDIA reference
    facts: dict[str, Any] = field(default_factory=dict)  # TaskResult fields learnt so far
    artifacts: dict[str, Any] = field(default_factory=dict)  # intermediate texts (SASS, host port)

    def finish(self, status: str, message: str, **facts: Any) -> None:
        t, c = self.task, self.config
        merged = {**self.facts, **facts}
        self.result = TaskResult(
            task=t.ident, domain=t.domain, engine=self.engine, backend=c.backend, level=c.level,
            status=status, message=message, translate_s=round(self.translate_s, 4),
            engine_diagnostics=self.diagnostics, sass_arch=c.arch_key, **merged,
        )  # fmt: skip


def available_libraries(backend: str) -> frozenset[str]:
    """Libraries a port backend provides: fixed for the emulator (plus Thrust and CUB where `cass
    setup --rocm-libs` installed rocThrust and hipCUB), probed for ROCm (its own installation)."""
    from cass.runner import emulated_libraries, rocm_libs

    installed = rocm_libs.installed()
    extra = installed.provides() if installed else frozenset()
    if backend == "emulator":  # cass's reference implementations for emulated verification
        extra |= emulated_libraries.provided()
    fixed = BACKEND_LIBRARIES.get(backend)
    if fixed is not None:
        return fixed | extra
    return frozenset(
        name for name, (_, header) in LIBRARIES.items()
        if any((Path(d) / header).is_file() for d in ROCM_INCLUDE_DIRS)
    )  # fmt: skip


def step_libraries(a: Attempt) -> None:
    missing = sorted(set(a.task.libraries) - available_libraries(a.config.backend))
    if missing:
        a.finish(
            "unsupported-library",
            f"needs {', '.join(missing)}, which the {a.config.backend} backend does not provide",
        )


def step_reference(a: Attempt) -> None:
    from cass.runner.recorded import load_recorded
    from cass.runner.spec import load_run_spec

    try:
        load_recorded(a.task.source, load_run_spec(a.task.source))
    except CassError as exc:  # still translate and build the port: how far it gets is worth knowing
        a.reference_problem = exc.message


def verdict_status(verdict_status: str, candidate_ran: bool) -> tuple[str, dict[str, bool]]:
    """Map the runner's verdict onto a benchmark status and the stages the port passed."""
    if verdict_status == "match":
        return "pass", dict(compiled=True, ran=True, matched=True)
    if verdict_status == "mismatch":
        return "mismatch", dict(compiled=True, ran=True)
    if verdict_status == "error":
        return ("runtime-error", dict(compiled=True)) if candidate_ran else ("compile-error", {})
    return "unverifiable", {}
