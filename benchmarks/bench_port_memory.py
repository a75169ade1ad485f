"""Peak memory and time of `cass port` on one large generated `.cu` file.

    .venv/bin/python benchmarks/bench_port_memory.py [--mb 50] [--profile] [--json OUT]
        [--baseline NAMESPACE_DIR]

The input is the benchmark's CUDA programs (models/bench/tasks/**/main.cu) repeated to the
requested size, so it holds the constructs the engine rewrites. `cass port FILE -o OUT` runs as
a child process; its peak resident set is the child's own (`wait4`). `--baseline DIR` ports the
same file, in the same run, with another version of cass: DIR holds a `cass` package (e.g. a
`git worktree` of an older commit with `cass/{runner,models,server,hooks}` symlinks, as
`benchmarks/bare_checkout.py` builds), and the figures are shown side by side with their ratio. `--profile` also ports the text in this process under
`tracemalloc` and lists the allocation sites holding the most memory at the peak, to show where
the memory goes.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def corpus(megabytes: float) -> str:
    """CUDA text of about `megabytes` MB, whole programs repeated."""
    sources = sorted((ROOT / "models" / "bench" / "tasks").rglob("*.cu")) or sorted(
        (ROOT / "examples").glob("*.cu")
    )
    pool = "".join(p.read_text(encoding="utf-8") for p in sources)
    wanted = int(megabytes * 1e6)
    return pool * (wanted // len(pool)) + pool[: wanted % len(pool)].rsplit("\n", 1)[0] + "\n"


def measure_cli(source: Path, namespace: Path | None = None) -> dict[str, float]:
    """Wall seconds, peak RSS (bytes) and exit status of `cass port SOURCE -o OUT`, with the cass
    package found under `namespace` when given (else this environment's)."""
    out = source.with_suffix(".hip")
    env = dict(os.environ)
    if namespace is not None:
        env["PYTHONPATH"] = str(namespace)
    argv = [sys.executable, "-m", "cass.server.cli", "port", str(source), "-o", str(out), "--force"]
    started = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    return {"wall_s": wall, "peak_rss_bytes": usage.ru_maxrss * 1024, "exit_code": proc.returncode}


def show(name: str, figures: dict[str, float]) -> None:
    print(f"{name}: file {figures['file_bytes'] / 1e6:.1f} MB ({figures['lines']} lines): cass port "
          f"exit {figures['exit_code']}, {figures['wall_s']:.1f} s, peak RSS "
          f"{figures['peak_rss_bytes'] / 1e6:.0f} MB = {figures['peak_over_file']:.1f}x the file")  # fmt: skip


def profile(text: str, top: int = 12) -> list[tuple[str, int]]:
    """The allocation sites holding the most memory when `translate` peaks (tracemalloc)."""
    from cass.models.engine import Target, TranslationRequest
    from cass.models.registry import get_engine

    engine = get_engine("rules")
    request = TranslationRequest(level="source", text=text, path="big.cu", target=Target())
    tracemalloc.start(1)
    result = engine.translate(request)
    peak = tracemalloc.get_traced_memory()[1]
    snapshot = tracemalloc.take_snapshot()
    tracemalloc.stop()
    del result
    sites = [(str(s.traceback[0]), s.size) for s in snapshot.statistics("lineno")[:top]]
    return [("peak traced (after the port: what is still held is listed below)", peak), *sites]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=50.0, help="size of the generated file (MB)")
    parser.add_argument(
        "--profile", action="store_true", help="also profile in-process with tracemalloc"
    )
    parser.add_argument("--json", type=Path, help="write the figures here")
    parser.add_argument(
        "--baseline", type=Path, help="a directory holding another cass version's package"
    )
    args = parser.parse_args(argv)
    text = corpus(args.mb)
    runs = {"this version": None, **({"baseline": args.baseline} if args.baseline else {})}
    results: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory(prefix="cass-bench-mem-") as tmp:
        source = Path(tmp) / "big.cu"
        source.write_text(text, encoding="utf-8")
        size = source.stat().st_size
        for name, namespace in runs.items():
            figures = {
                "file_bytes": size,
                "lines": text.count("\n"),
                **measure_cli(source, namespace),
            }
            figures["peak_over_file"] = figures["peak_rss_bytes"] / size
            show(name, figures)
            results[name] = figures
    figures = results["this version"]
    if "baseline" in results:
        base = results["baseline"]
        print(f"this version / baseline: peak RSS {figures['peak_rss_bytes'] / base['peak_rss_bytes']:.2f}x, "
              f"wall {figures['wall_s'] / base['wall_s']:.2f}x")  # fmt: skip
        figures = {**figures, "baseline": base}
    if args.profile:
        for where, size_bytes in profile(text):
            print(f"  {size_bytes / 1e6:9.1f} MB  {where}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    return 0 if figures["exit_code"] in (0, 1) else 1


if __name__ == "__main__":
    sys.exit(main())
