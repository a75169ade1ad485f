"""How long `cass bench run` takes: per-domain stage times and the projected full-run wall time.

    .venv/bin/python benchmarks/bench_harness.py --domain statistics --jobs 2
    .venv/bin/python benchmarks/bench_harness.py --task "fam_*" --json timings.json

Runs the real harness (rules engine, emulator backend) on the selected tasks with a fresh cache,
then tabulates the median translation and build/run time per domain, the wall time, and the
wall time projected for every shipped task at the same rate (the issue asks for under an hour).
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from cass.models.bench.harness import RunConfig, run_benchmark
from cass.models.bench.tasks import discover_tasks
from rich.console import Console
from rich.table import Table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--domain", action="append", help="domain to time (repeatable)")
    parser.add_argument("--task", help="glob on task names")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--backend", default="emulator")
    parser.add_argument("--json", type=Path, help="also write the timings here")
    args = parser.parse_args()
    tasks = discover_tasks(domains=args.domain, pattern=args.task)
    with tempfile.TemporaryDirectory(prefix="cass-bench-timing-") as out:
        start = time.perf_counter()
        results = run_benchmark(
            tasks, RunConfig(backend=args.backend, jobs=args.jobs, out_dir=Path(out))
        )
        wall = time.perf_counter() - start
    by_domain = defaultdict(list)
    for r in results:
        by_domain[r.domain].append(r)
    table = Table(
        title=f"cass bench run timings ({len(results)} tasks, {args.jobs} jobs, {args.backend})"
    )
    for col in ("domain", "tasks", "median translate s", "median build+run s", "statuses"):
        table.add_column(col, justify="left" if col in ("domain", "statuses") else "right")
    rows = {}
    for domain, rs in sorted(by_domain.items()):
        counts = defaultdict(int)
        for r in rs:
            counts[r.status] += 1
        row = {"tasks": len(rs), "translate_s": statistics.median(r.translate_s for r in rs),
               "verify_s": statistics.median(r.verify_s for r in rs), "statuses": dict(counts)}  # fmt: skip
        rows[domain] = row
        table.add_row(domain, str(len(rs)), f"{row['translate_s']:.3f}", f"{row['verify_s']:.1f}",
                      ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))  # fmt: skip
    total = len(discover_tasks())
    projected = wall / max(1, len(results)) * total
    console = Console()
    console.print(table)
    console.print(f"wall {wall:.0f} s; projected for all {total} tasks: {projected / 60:.1f} min")
    if args.json:
        args.json.write_text(
            json.dumps({"wall_s": wall, "projected_all_s": projected, "domains": rows}, indent=1)
        )


if __name__ == "__main__":
    main()
