"""How fast the runner compares outputs and launches programs (a table; run it, don't assert it).

    .venv/bin/python benchmarks/runner_compare.py [--scale 1.0]

Measures: token-wise stdout comparison (lines/s, MB/s), typed-array file comparison (elements/s),
and the overhead of one limited run (`run_limited` of /bin/true: time per launch, peak RSS seen).
"""

from __future__ import annotations

import argparse
import random
import statistics
import struct
import tempfile
import time
from pathlib import Path

from cass.runner.compare import compare_file, compare_text
from cass.runner.process import run_limited
from cass.runner.spec import OutputFile, RunSpec
from rich.console import Console
from rich.table import Table


def best_of(fn, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def text_case(lines: int) -> tuple[str, str]:
    rng = random.Random(1)
    values = [rng.uniform(-1e3, 1e3) for _ in range(lines * 4)]
    exp = "\n".join(
        f"row {i}: " + " ".join(f"{v:.6e}" for v in values[4 * i : 4 * i + 4]) for i in range(lines)
    )
    act = "\n".join(
        f"row {i}: " + " ".join(f"{v * (1 + 1e-7):.9g}" for v in values[4 * i : 4 * i + 4])
        for i in range(lines)
    )
    return exp, act


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scale", type=float, default=1.0)
    scale = parser.parse_args().scale
    spec = RunSpec()
    table = Table(title="cass runner: comparison and launch speed")
    for column in ("case", "size", "time", "throughput"):
        table.add_column(column)
    lines = int(100_000 * scale)
    exp, act = text_case(lines)
    assert compare_text("stdout", exp, act, spec) == []
    t = best_of(lambda: compare_text("stdout", exp, act, spec))
    table.add_row(
        "stdout, 4 floats/line",
        f"{lines} lines, {len(exp) / 1e6:.1f} MB",
        f"{t:.2f} s",
        f"{len(exp) / 1e6 / t:.1f} MB/s",
    )
    n = int(4_000_000 * scale)
    data = struct.pack(f"<{n}f", *(float(i % 1000) for i in range(n)))
    out = OutputFile("v.bin", "f32")
    t = best_of(lambda: compare_file(out, data, data, spec))
    table.add_row("f32 array file", f"{n} elements", f"{t:.2f} s", f"{n / t / 1e6:.1f} M elem/s")
    with tempfile.TemporaryDirectory() as tmp:
        walls, rss = [], []
        start = time.perf_counter()
        for _ in range(50):
            outcome = run_limited(["/bin/true"], cwd=Path(tmp))
            walls.append(outcome.wall_s)
            rss.append(outcome.peak_rss_kib or 0)
        per = (time.perf_counter() - start) / 50
    table.add_row(
        "run_limited(/bin/true)",
        "50 launches",
        f"{per * 1e3:.1f} ms each",
        f"child wall {statistics.median(walls) * 1e3:.2f} ms, RSS seen {statistics.median(rss) / 1024:.1f} MiB",
    )
    Console().print(table)


if __name__ == "__main__":
    main()
