"""Speed of the rules engine (`cass port`): median time, MB/s and lines/s on generated files.

    .venv/bin/python benchmarks/bench_rules_speed.py [--lines 5000 100000] [--repeat 9] [--json OUT]

Inputs are built from the benchmark's CUDA programs (models/bench/tasks/**/main.cu) repeated to
the requested number of lines, so they contain the constructs the engine rewrites. When
`hipify-perl` is on PATH it is timed on the same files (it is never vendored). On a shared
machine wall-clock includes waiting for a core: the CPU-time columns measure the engine.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from cass.models.engine import Target, TranslationRequest
from cass.models.registry import get_engine
from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]


def corpus(lines: int) -> str:
    sources = sorted((ROOT / "models" / "bench" / "tasks").rglob("*.cu")) or sorted(
        (ROOT / "examples").glob("*.cu")
    )
    pool = "".join(p.read_text(encoding="utf-8") for p in sources).splitlines()
    repeated = (pool * (lines // max(1, len(pool)) + 1))[:lines]
    return "\n".join(repeated) + "\n"


def time_engine(text: str, repeat: int) -> tuple[list[float], list[float]]:
    """(wall-clock seconds, CPU seconds of this process) per run."""
    engine = get_engine("rules")
    request = TranslationRequest(level="source", text=text, path="bench.cu", target=Target())
    engine.translate(request)  # warm-up: tables load once per process
    wall, cpu = [], []
    for _ in range(repeat):
        started, started_cpu = time.perf_counter(), time.process_time()
        engine.translate(request)
        wall.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
    return wall, cpu


def time_hipify_perl(text: str, repeat: int) -> list[float] | None:
    tool = shutil.which("hipify-perl")
    if tool is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.cu"
        path.write_text(text)
        times = []
        for _ in range(repeat):
            started = time.perf_counter()
            subprocess.run(
                [tool, "-quiet-warnings", str(path)], capture_output=True, timeout=600, check=False
            )
            times.append(time.perf_counter() - started)
        return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, nargs="+", default=[5000, 100000])
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--json", type=Path, help="also write the results as JSON here")
    args = parser.parse_args()
    console = Console()
    table = Table(title="cass port (rules engine) speed")
    for column in (
        "lines",
        "MB",
        "tool",
        "median ms",
        "min ms",
        "median CPU ms",
        "MB/s",
        "MB/s (CPU)",
        "lines/s",
    ):
        table.add_column(column, justify="right")
    results = []
    for lines in args.lines:
        text = corpus(lines)
        size_mb = len(text.encode()) / 1e6
        with console.status(f"porting {lines} lines x {args.repeat}"):
            measured = {"cass rules": time_engine(text, args.repeat)}
            perl = time_hipify_perl(text, max(1, args.repeat // 3))
            if perl is not None:
                measured["hipify-perl"] = (perl, [float("nan")] * len(perl))
        for tool, (times, cpu) in measured.items():
            median = statistics.median(times)
            row = {
                "lines": lines,
                "mb": round(size_mb, 3),
                "tool": tool,
                "median_ms": round(median * 1e3, 1),
                "min_ms": round(min(times) * 1e3, 1),
                "median_cpu_ms": round(statistics.median(cpu) * 1e3, 1),
                "mb_per_s": round(size_mb / median, 2),
                "mb_per_cpu_s": round(size_mb / statistics.median(cpu), 2)
                if cpu and cpu[0] == cpu[0]  # NaN for external tools (no CPU time of ours)
                else None,
                "lines_per_s": round(lines / median),
            }
            results.append(row)
            table.add_row(*(str(v) for v in row.values()))
    console.print(table)
    if shutil.which("hipify-perl") is None:
        console.print("hipify-perl is not on PATH: not timed")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
