"""Score an engine on the benchmark: per task, translated? compiles? runs? output matches?

    results = run_benchmark(tasks, RunConfig(engines=("rules",), backend="emulator"))

One task is a pipeline of named steps (the attempt and the steps every level shares are
`attempt`; the assembly level's are `assembly`), each of which may end it with a status (see
`catalog.STATUSES`): libraries -> reference -> translate -> verify. The port is verified by the
runner against the task's NVIDIA reference recorded on real hardware (`main.cu.recorded.toml`),
so no pass is ever claimed without one. Results are cached per task + engine + inputs hash
(`--resume`), tasks run in parallel processes, and progress shows as a rich bar.
"""

from __future__ import annotations

import functools
import hashlib
import json
import multiprocessing
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from cass.models.bench.assembly import ASSEMBLY_STEPS
from cass.models.bench.attempt import (
    Attempt,
    RunConfig,
    TaskResult,
    step_libraries,
    step_reference,
    verdict_status,
)
from cass.models.bench.tasks import Task
from cass.runner.diagnostics import CassError
from cass.runner.outputs import write_atomic
from cass.runner.process import pool_worker_started

HARNESS_VERSION = "1"


def step_translate(a: Attempt) -> None:
    from cass.models.engine import Target, TranslationRequest
    from cass.models.registry import get_engine

    start = time.perf_counter()
    try:
        text = a.task.source.read_text(encoding="utf-8")
        target = Target(hip_version=a.task.hip_version)  # the task's [port] table, else 5.2
        request = TranslationRequest(a.config.level, text, str(a.task.source), target)
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
        verdict = verify(
            a.task.source, port, a.config.spec_for(a.task), backends=("recorded", a.config.backend)
        )
    a.facts["verify_s"] = round(time.perf_counter() - start, 3)
    a.facts["notes"] = tuple(verdict.notes)
    status, stages = verdict_status(verdict.status, verdict.candidate is not None)
    a.finish(status, verdict.message, runtime_ratio=verdict.runtime_ratio,
             memory_ratio=verdict.memory_ratio, **stages)  # fmt: skip


SOURCE_STEPS: tuple[Callable[[Attempt], None], ...] = (
    step_libraries, step_reference, step_translate, step_build_only, step_verify,
)  # fmt: skip


def evaluate(task: Task, engine: str, config: RunConfig) -> TaskResult:
    """Run one task through the steps until one of them gives it a status."""
    attempt = Attempt(task, engine, config)
    steps = ASSEMBLY_STEPS if config.level != "source" else SOURCE_STEPS
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


VERDICT_TOOLS = (
    "clang++-16",
    "llc-16",
    "llvm-mc-16",
    "ld.lld-16",
    "llvm-objdump-16",
    "nvcc",
    "cuobjdump",
    "nvdisasm",
)


@functools.lru_cache(maxsize=1)
def verdict_code_digest() -> str:
    """A hash of everything that decides a verdict besides the task: the sources of cass's
    runner (compilers' flags, backends, the emulator in Python and C++, the comparator) and
    models (engines, tables, the harness), the versions of the tools they run and of the
    rocPRIM/hipCUB/rocThrust headers installed (or their absence). Any change to any of them
    makes every cached result stale."""
    import cass.models
    import cass.runner
    from cass.runner import rocm_libs
    from cass.runner.fingerprint import code_digest
    from cass.runner.toolchain import find_tool

    runner_dir, models_dir = Path(cass.runner.__file__).parent, Path(cass.models.__file__).parent
    code = code_digest([runner_dir, models_dir], exclude=[models_dir / "bench" / "tasks"])
    tools = {name: str(getattr(find_tool(name), "version", "missing")) for name in VERDICT_TOOLS}
    libs = rocm_libs.installed()
    tools["rocm_libs"] = f"{sorted(libs.versions.items())} {libs.include_dir}" if libs else "absent"
    return hashlib.sha256(
        json.dumps({"code": code, "tools": tools}, sort_keys=True).encode()
    ).hexdigest()


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
    return (
        folder / config.arch_key if config.arch_key else folder
    ) / f"{task.domain}__{task.name}.json"


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


def run_benchmark(
    tasks: Iterable[Task], config: RunConfig, on_result: Progress | None = None
) -> list[TaskResult]:
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
            store_cached(
                config, result.engine, next(t for t, _, _ in todo if t.ident == result.task), result
            )
        done[(result.engine, result.task)] = result
        if on_result:
            on_result(result)
    return [done[(engine, task.ident)] for engine in config.engines for task in tasks]


def _evaluate_all(todo: list[tuple[Task, str, str]], config: RunConfig) -> Iterable[TaskResult]:
    if config.jobs <= 1 or len(todo) <= 1:
        for task, engine, key in todo:
            yield _evaluate_keyed(task, engine, config, key)
        return
    pool = ProcessPoolExecutor(max_workers=config.jobs, initializer=pool_worker_started)
    try:
        futures = {
            pool.submit(_evaluate_keyed, task, engine, config, key): (task, engine, key)
            for task, engine, key in todo
        }
        for future in as_completed(futures):
            try:
                yield future.result()
            except Exception as exc:  # noqa: BLE001 - e.g. a worker process killed by the OS
                task, engine, key = futures[future]
                failed = _failed(
                    task, engine, config, f"the worker process failed: {type(exc).__name__}: {exc}"
                )
                yield TaskResult.from_dict(
                    {**failed.to_dict(), "key": ""}
                )  # not cached: retried next run
    except (
        BaseException
    ):  # Ctrl-C, SIGTERM or an error in the caller: stop now, not after the tasks
        _stop_workers(pool)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _stop_workers(pool: ProcessPoolExecutor, grace_s: float = 5.0) -> None:
    """Cancel the queued tasks and end the workers (SIGTERM, then SIGKILL after `grace_s`)."""
    # The pool's manager thread closes its wake-up pipe once it sees the workers gone, and
    # Python 3.11's exit hook writes to that pipe without a lock: leaving before the thread has
    # finished races with it ("Exception ignored ... Bad file descriptor" printed at exit).
    manager: threading.Thread | None = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    workers = multiprocessing.active_children()
    for worker in workers:
        worker.terminate()
    deadline = time.monotonic() + grace_s
    for worker in workers:
        worker.join(max(0.0, deadline - time.monotonic()))
        if worker.is_alive():
            worker.kill()
            worker.join()
    if manager is not None:
        manager.join(grace_s)
