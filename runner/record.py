"""Record reference outputs on this machine's NVIDIA GPU (`SOURCE.cu.recorded.toml` each).

    python -m cass.runner.record examples/ models/bench/tasks/   # every .cu with a main()
    python runner/record.py examples/                           # same, from a bare checkout

Needs only Python 3.11+'s standard library and nvcc (no cass install, no third-party packages),
so it runs on a bare GPU machine. Programs build in parallel (`--jobs`, default: CPU cores) and
run `--gpu-jobs` at a time (default 1, so that timings are not disturbed), each under its run
spec's time limit (`--timeout` overrides). A fresh record (same
source hash and run key) is kept unless `--force`. Exit status: 0 all recorded, 1 some failed,
2 no NVIDIA GPU / nvcc.
"""

from __future__ import annotations

import sys

if __name__ == "__main__" and not __package__:  # run as a file from a checkout: make `cass.runner` importable
    import atexit
    import shutil
    import tempfile
    from pathlib import Path as _P

    _ns = _P(tempfile.mkdtemp(prefix="cass-ns-")) / "cass"
    _ns.mkdir()
    (_ns / "runner").symlink_to(_P(__file__).resolve().parent)
    atexit.register(shutil.rmtree, _ns.parent, True)
    sys.path[0] = str(_ns.parent)  # instead of runner/ itself

import argparse  # noqa: E402
import contextlib  # noqa: E402
import os  # noqa: E402
import re  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
from concurrent.futures import ThreadPoolExecutor  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from pathlib import Path  # noqa: E402

from cass.runner.backends.base import Unavailable  # noqa: E402
from cass.runner.backends.nvidia import NvidiaBackend, machine_info  # noqa: E402
from cass.runner.diagnostics import CassError  # noqa: E402
from cass.runner.recorded import load_recorded, write_record  # noqa: E402
from cass.runner.results import RunResult  # noqa: E402
from cass.runner.spec import RunSpec, load_run_spec  # noqa: E402

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
        return Recording(source, "failed", f"not recorded: the program {result.describe_end()}", result)
    path = write_record(source, spec, result)
    return Recording(source, "recorded", f"{path.name}: {result.describe_end()}, {_ms(result)}", result)


def _is_fresh(source: Path, spec: RunSpec) -> bool:
    try:
        load_recorded(source, spec)
    except CassError:
        return False
    return True


def _ms(result: RunResult) -> str:
    runtime = result.runtime_s
    return f"{runtime * 1e3:.1f} ms median of {len(result.runtimes_s)}" if runtime is not None else "no time"


def record_paths(
    paths: list[Path],
    *,
    jobs: int | None = None,
    gpu_jobs: int = 1,
    timeout_s: float | None = None,
    force: bool = False,
    backend: NvidiaBackend | None = None,
) -> list[Recording]:
    """Record every program under `paths` in parallel, printing one line per program."""
    sources = find_programs(paths)
    backend = backend or NvidiaBackend()
    reason = backend.unavailable()
    if reason:
        raise Unavailable(f"cannot record on this machine: {reason}")
    info = machine_info()
    print(f"recording {len(sources)} program(s) on {info['gpu'] or 'an unnamed GPU'} (compute capability "
          f"{info['compute_capability']}, driver {info['driver']}, CUDA {info['cuda']})", flush=True)
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
            print(f"[{done[0]}/{len(sources)}] {outcome.status:8} {source}: {outcome.detail}", flush=True)
        return outcome

    with ThreadPoolExecutor(max_workers=jobs or os.cpu_count() or 1) as pool:
        return list(pool.map(one, sources))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cass.runner.record", description=__doc__.split("\n")[0])
    parser.add_argument("paths", nargs="+", type=Path, help=".cu files or folders to search")
    parser.add_argument("--jobs", "-j", type=int, default=None, help="builds at once (default: CPU cores)")
    parser.add_argument("--gpu-jobs", type=int, default=1, help="programs running on the GPU at once (default 1)")
    parser.add_argument("--timeout", type=float, default=None, help="seconds per run (default: the run spec's)")
    parser.add_argument("--force", action="store_true", help="re-record programs whose record is up to date")
    args = parser.parse_args(argv)
    try:
        outcomes = record_paths(args.paths, jobs=args.jobs, gpu_jobs=args.gpu_jobs, timeout_s=args.timeout, force=args.force)
    except CassError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        return exc.exit_code
    counts = {s: sum(o.status == s for o in outcomes) for s in ("recorded", "fresh", "failed")}
    print(f"{counts['recorded']} recorded, {counts['fresh']} up to date, {counts['failed']} failed")
    return 1 if counts["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
