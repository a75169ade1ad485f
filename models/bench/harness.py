"""Score an engine on the benchmark: per task, translated? compiles? runs? output matches?

    results = run_benchmark(tasks, RunConfig(engines=("rules",), backend="emulator"))

One task is a pipeline of named steps, each of which may end it with a status (see
`catalog.STATUSES`): libraries -> reference -> translate -> verify. The port is verified by the
runner against the task's NVIDIA reference recorded on real hardware (`main.cu.recorded.toml`),
so no pass is ever claimed without one. Results are cached per task + engine + inputs hash
(`--resume`), tasks run in parallel processes, and progress shows as a rich bar.
"""

from __future__ import annotations

import functools
import hashlib
import json
import tempfile
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
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
from cass.runner.outputs import write_atomic

HARNESS_VERSION = "1"
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
    model: str = ""  # for the model engines: a GGUF file, checkpoint folder or URL (else $CASS_MODEL)
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
    from cass.runner import rocm_libs

    installed = rocm_libs.installed()
    extra = installed.provides() if installed else frozenset()
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
        a.finish("unsupported-library", f"needs {', '.join(missing)}, which the {a.config.backend} backend does not provide")


def step_reference(a: Attempt) -> None:
    from cass.runner.recorded import load_recorded
    from cass.runner.spec import load_run_spec

    try:
        load_recorded(a.task.source, load_run_spec(a.task.source))
    except CassError as exc:  # still translate and build the port: how far it gets is worth knowing
        a.reference_problem = exc.message


def step_translate(a: Attempt) -> None:
    from cass.models.engine import Target, TranslationRequest
    from cass.models.registry import get_engine

    start = time.perf_counter()
    try:
        text = a.task.source.read_text(encoding="utf-8")
        request = TranslationRequest(a.config.level, text, str(a.task.source), Target())
        translation = get_engine(a.engine, a.config.model).translate(request)
    except CassError as exc:
        a.translate_s = time.perf_counter() - start
        a.finish("translate-error", exc.message)
        return
    except Exception as exc:  # noqa: BLE001 - an engine that crashes fails this task, not the run
        a.translate_s = time.perf_counter() - start
        a.finish("translate-error", f"the {a.engine} engine crashed: {type(exc).__name__}: {exc}")
        return
    a.translate_s = time.perf_counter() - start
    a.diagnostics = len(translation.diagnostics)
    errors = [d for d in translation.diagnostics if d.severity.value == "error"]
    if errors:
        a.finish("translate-error", f"{len(errors)} error(s), first: {errors[0].render()}")
        return
    a.port_text = translation.text
    a.facts["translated"] = True


def step_build_only(a: Attempt) -> None:
    """Without a reference nothing can be compared: build the port to report that stage, then stop."""
    if a.reference_problem is None:
        return
    from cass.runner.backends import BuildFailed, Unavailable, get_backend

    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="cass-bench-") as work:
        port = Path(work) / "main.hip"
        port.write_text(a.port_text, encoding="utf-8")
        try:
            get_backend(a.config.backend).build(port, Path(work))
            a.facts["compiled"] = True
        except (BuildFailed, Unavailable) as exc:
            a.facts["notes"] = (f"port build: {exc.message.splitlines()[0][:300]}",)
    a.facts["verify_s"] = round(time.perf_counter() - start, 3)
    a.finish("no-reference", a.reference_problem)


def step_verify(a: Attempt) -> None:
    from cass.runner.verify import verify

    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="cass-bench-") as work:
        port = Path(work) / "main.hip"
        port.write_text(a.port_text, encoding="utf-8")
        verdict = verify(a.task.source, port, a.config.spec_for(a.task), backends=("recorded", a.config.backend))
    a.facts["verify_s"] = round(time.perf_counter() - start, 3)
    a.facts["notes"] = tuple(verdict.notes)
    status, stages = verdict_status(verdict.status, verdict.candidate is not None)
    a.finish(status, verdict.message, runtime_ratio=verdict.runtime_ratio,
             memory_ratio=verdict.memory_ratio, **stages)  # fmt: skip


def verdict_status(verdict_status: str, candidate_ran: bool) -> tuple[str, dict[str, bool]]:
    """Map the runner's verdict onto a benchmark status and the stages the port passed."""
    if verdict_status == "match":
        return "pass", dict(compiled=True, ran=True, matched=True)
    if verdict_status == "mismatch":
        return "mismatch", dict(compiled=True, ran=True)
    if verdict_status == "error":
        return ("runtime-error", dict(compiled=True)) if candidate_ran else ("compile-error", {})
    return "unverifiable", {}


SOURCE_STEPS: tuple[Callable[[Attempt], None], ...] = (
    step_libraries, step_reference, step_translate, step_build_only, step_verify,
)  # fmt: skip


def evaluate(task: Task, engine: str, config: RunConfig) -> TaskResult:
    """Run one task through the steps until one of them gives it a status."""
    attempt = Attempt(task, engine, config)
    if config.level != "source":
        from cass.models.bench.assembly import ASSEMBLY_STEPS

        steps = ASSEMBLY_STEPS
    else:
        steps = SOURCE_STEPS
    for step in steps:
        step(attempt)
        if attempt.result is not None:
            return attempt.result
    raise AssertionError(f"no step gave {task.ident} a status")  # the last step always finishes


# ---------------------------------------------------------------- cache


def _digest(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except FileNotFoundError:
        return None


def engine_version(engine: str, model: str = "") -> str:
    from cass.models.registry import get_engine

    return str(getattr(get_engine(engine, model), "version", "?")) + (f"+{model}" if model else "")


VERDICT_TOOLS = ("clang++-16", "llc-16", "llvm-mc-16", "ld.lld-16", "llvm-objdump-16", "nvcc", "cuobjdump", "nvdisasm")


@functools.lru_cache(maxsize=1)
def verdict_code_digest() -> str:
    """A hash of everything that decides a verdict besides the task: the sources of cass's
    runner (compilers' flags, backends, the emulator in Python and C++, the comparator) and
    models (engines, tables, the harness), and the versions of the tools they run. Any edit to
    any of them makes every cached result stale."""
    import cass.models
    import cass.runner
    from cass.runner.fingerprint import code_digest
    from cass.runner.toolchain import find_tool

    runner_dir, models_dir = Path(cass.runner.__file__).parent, Path(cass.models.__file__).parent
    code = code_digest([runner_dir, models_dir], exclude=[models_dir / "bench" / "tasks"])
    tools = {name: str(getattr(find_tool(name), "version", "missing")) for name in VERDICT_TOOLS}
    return hashlib.sha256(json.dumps({"code": code, "tools": tools}, sort_keys=True).encode()).hexdigest()


def cache_key(task: Task, engine: str, version: str, config: RunConfig) -> str:
    """Changes whenever the source or a local header it includes, the task, the reference, the
    engine, cass's own code, the toolchain or the setup changes."""
    from cass.runner.fingerprint import includes_digest

    ident = {
        "task": task.ident, "source": _digest(task.source), "meta": _digest(task.meta_path),
        "headers": includes_digest(task.source), "reference": _digest(task.reference_path),
        "engine": engine, "engine_version": version, "code": verdict_code_digest(),
        "backend": config.backend, "level": config.level, "timeout_s": config.timeout_s, "harness": HARNESS_VERSION,
    }  # fmt: skip
    if config.arch_key:  # source-level keys stay as they were
        ident["sass_arch"] = config.arch_key
    return hashlib.sha256(json.dumps(ident, sort_keys=True).encode()).hexdigest()[:20]


def _cache_file(config: RunConfig, engine: str, task: Task) -> Path:
    folder = config.cache_dir / engine / config.level / config.backend
    return (folder / config.arch_key if config.arch_key else folder) / f"{task.domain}__{task.name}.json"


def load_cached(config: RunConfig, engine: str, task: Task, key: str) -> TaskResult | None:
    path = _cache_file(config, engine, task)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, json.JSONDecodeError):
        return None
    if data.get("key") != key:
        return None
    return TaskResult.from_dict({**data, "cached": True})


def store_cached(config: RunConfig, engine: str, task: Task, result: TaskResult) -> None:
    write_atomic(_cache_file(config, engine, task), json.dumps(result.to_dict(), indent=1))


# ---------------------------------------------------------------- the whole run


def _failed(task: Task, engine: str, config: RunConfig, message: str) -> TaskResult:
    return TaskResult(task.ident, task.domain, engine, config.backend, config.level, "unverifiable", message,
                      sass_arch=config.arch_key)  # fmt: skip


def _evaluate_keyed(task: Task, engine: str, config: RunConfig, key: str) -> TaskResult:
    try:
        result = evaluate(task, engine, config)
    except CassError as exc:  # a problem of this task's setup: report it, keep the run going
        result = _failed(task, engine, config, exc.message)
    except Exception as exc:  # noqa: BLE001 - one broken task never stops the benchmark
        result = _failed(task, engine, config, f"harness error: {type(exc).__name__}: {exc}")
    return TaskResult.from_dict({**result.to_dict(), "key": key})


Progress = Callable[[TaskResult], None]


def run_benchmark(tasks: Iterable[Task], config: RunConfig, on_result: Progress | None = None) -> list[TaskResult]:
    """Every (task, engine) pair, from the cache when `config.resume` and fresh, else evaluated
    (in `config.jobs` processes); results in task order, engines in the given order."""
    tasks = list(tasks)
    versions = {engine: engine_version(engine, config.model) for engine in config.engines}
    todo, done = [], {}
    for engine in config.engines:
        for task in tasks:
            key = cache_key(task, engine, versions[engine], config)
            cached = load_cached(config, engine, task, key) if config.resume else None
            if cached is not None:
                done[(engine, task.ident)] = cached
                if on_result:
                    on_result(cached)
            else:
                todo.append((task, engine, key))
    for result in _evaluate_all(todo, config):
        if result.key:
            store_cached(config, result.engine, next(t for t, _, _ in todo if t.ident == result.task), result)
        done[(result.engine, result.task)] = result
        if on_result:
            on_result(result)
    return [done[(engine, task.ident)] for engine in config.engines for task in tasks]


def _evaluate_all(todo: list[tuple[Task, str, str]], config: RunConfig) -> Iterable[TaskResult]:
    if config.jobs <= 1 or len(todo) <= 1:
        for task, engine, key in todo:
            yield _evaluate_keyed(task, engine, config, key)
        return
    with ProcessPoolExecutor(max_workers=config.jobs) as pool:
        futures = {pool.submit(_evaluate_keyed, task, engine, config, key): (task, engine, key) for task, engine, key in todo}
        for future in as_completed(futures):
            try:
                yield future.result()
            except Exception as exc:  # noqa: BLE001 - e.g. a worker process killed by the OS
                task, engine, key = futures[future]
                failed = _failed(task, engine, config, f"the worker process failed: {type(exc).__name__}: {exc}")
                yield TaskResult.from_dict({**failed.to_dict(), "key": ""})  # not cached: retried next run
