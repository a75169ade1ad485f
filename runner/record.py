"""Record reference outputs on this machine's NVIDIA GPU (`SOURCE.cu.recorded.toml` each).

    cass record examples/ models/bench/tasks/                  # every .cu with a main()
    python3 benchmarks/record_references.py examples/          # same, from a bare checkout

Needs only Python 3.11+'s standard library and nvcc (no third-party packages), so the benchmarks
script runs it on a bare GPU machine where cass is not installed. Programs build in parallel
(`jobs`, default: CPU cores) and run `gpu_jobs` at a time (default 1, so that timings are not
disturbed), each under its run spec's time limit (`timeout_s` overrides). A fresh record (same
source hash and run key) is kept unless `force`. Raises `Unavailable` without an NVIDIA GPU or
nvcc; the front ends print the progress lines and choose the exit status.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from cass.runner.backends.base import Unavailable
from cass.runner.backends.nvidia import NvidiaBackend, machine_info
from cass.runner.diagnostics import CassError
from cass.runner.recorded import load_recorded, write_record
from cass.runner.results import RunResult
from cass.runner.spec import RunSpec, load_run_spec

MAIN_RE = re.compile(r"\bint\s+main\s*\(")


@dataclass(frozen=True)
class Recording:
    source: Path
    status: str  # "recorded" | "fresh" (kept) | "failed"
    detail: str
    result: RunResult | None = None


def find_programs(paths: list[Path]) -> list[Path]:
    """Every .cu file under `paths` that defines main(), sorted; a missing path is a CassError."""
    found: set[Path] = set()
    for path in paths:
        if not path.exists():
            raise CassError(f"{path}: no such file or folder")
        candidates = [path] if path.is_file() else path.rglob("*.cu")
        for source in candidates:
            if MAIN_RE.search(source.read_text(encoding="utf-8", errors="replace")):
                found.add(source)
    return sorted(found)


def record_source(
    source: Path,
    spec: RunSpec | None = None,
    *,
    backend: NvidiaBackend | None = None,
    force: bool = True,
    gpu_slots: threading.Semaphore | None = None,
) -> Recording:
    """Build and run `source` on the local NVIDIA GPU and write its record (the result is kept
    only when the program finished: a timeout or a flood is no reference)."""
    backend = backend or NvidiaBackend()
    reason = backend.unavailable()
    if reason:
        raise Unavailable(f"cannot record {source}: {reason}")
    spec = spec or load_run_spec(source)
    if spec.base_dir is None:  # input files are relative to the source's folder
        spec = spec.replace(base_dir=str(source.resolve().parent))
    if not force and _is_fresh(source, spec):
        return Recording(source, "fresh", "record is up to date (use --force to re-record)")
    with tempfile.TemporaryDirectory(prefix="cass-record-") as work:
        try:
            exe = backend.build(source, Path(work))
        except CassError as exc:
            lines = [exc.message, *(d.render() for d in exc.diagnostics[:5])]
            return Recording(source, "failed", "does not compile: " + "\n  ".join(lines))
        with gpu_slots or contextlib.nullcontext():
            result = backend.run(source, exe, spec)
    if not result.finished:
        return Recording(
            source, "failed", f"not recorded: the program {result.describe_end()}", result
        )
    path = write_record(source, spec, result)
    return Recording(
        source, "recorded", f"{path.name}: {result.describe_end()}, {_ms(result)}", result
    )


def _is_fresh(source: Path, spec: RunSpec) -> bool:
    try:
        load_recorded(source, spec)
    except CassError:
        return False
    return True


def _ms(result: RunResult) -> str:
    runtime = result.runtime_s
    return (
        f"{runtime * 1e3:.1f} ms median of {len(result.runtimes_s)}"
        if runtime is not None
        else "no time"
    )


def record_paths(
    paths: list[Path],
    *,
    jobs: int | None = None,
    gpu_jobs: int = 1,
    timeout_s: float | None = None,
    force: bool = False,
    backend: NvidiaBackend | None = None,
    report: Callable[[str], None] = lambda line: None,
) -> list[Recording]:
    """Record every program under `paths` in parallel; `report` gets the machine line first,
    then one line per program as it finishes (`[3/10] recorded a.cu: ...`)."""
    sources = find_programs(paths)
    backend = backend or NvidiaBackend()
    reason = backend.unavailable()
    if reason:
        raise Unavailable(f"cannot record on this machine: {reason}")
    info = machine_info()
    report(
        f"recording {len(sources)} program(s) on {info['gpu'] or 'an unnamed GPU'} (compute capability "
        f"{info['compute_capability']}, driver {info['driver']}, CUDA {info['cuda']})"
    )
    lock, done, gpu_slots = threading.Lock(), [0], threading.Semaphore(gpu_jobs)

    def one(source: Path) -> Recording:
        try:
            spec = load_run_spec(source)
            spec = spec.replace(timeout_s=timeout_s) if timeout_s else spec
            outcome = record_source(source, spec, backend=backend, force=force, gpu_slots=gpu_slots)
        except CassError as exc:
            outcome = Recording(source, "failed", exc.message)
        with lock:
            done[0] += 1
            report(f"[{done[0]}/{len(sources)}] {outcome.status:8} {source}: {outcome.detail}")
        return outcome

    with ThreadPoolExecutor(max_workers=jobs or os.cpu_count() or 1) as pool:
        return list(pool.map(one, sources))


def summary(outcomes: list[Recording]) -> str:
    """`3 recorded, 1 up to date, 0 failed`."""
    counts = {s: sum(o.status == s for o in outcomes) for s in ("recorded", "fresh", "failed")}
    return f"{counts['recorded']} recorded, {counts['fresh']} up to date, {counts['failed']} failed"
