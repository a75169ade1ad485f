"""Records per hour of `cass dataset build` on this machine, and how it scales with workers.

    .venv/bin/python benchmarks/bench_dataset.py [--programs 6] [--workers 1 2] [--ray] [--json F]

Each configuration builds the same fresh synthetic programs (seed 77) into its own empty
folder (no cache shared between them): port, nvcc SASS and host assembly, clang-16 RDNA3 and host
assembly, the emulator build and run. Reported: wall time, accepted records per hour of wall
time, and the speed-up over one worker; the caption gives the load average before and after
(the machine is shared: figures are for its load at the time, not for an idle machine).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

SEED = 77


def one(programs: int, workers: int, ray: bool) -> dict:
    from cass.models.dataset.pipeline import BuildOptions, build

    with tempfile.TemporaryDirectory(prefix="cass-bench-dataset-") as name:
        options = BuildOptions([], Path(name) / "out", synthetic=programs, seed=SEED, workers=workers,
                               ray="local" if ray else None)  # fmt: skip
        started = time.perf_counter()
        stats = build(options)
        wall = time.perf_counter() - started
    if ray:
        import ray as ray_module

        ray_module.shutdown()
    accepted = stats["stages"]["accepted"]
    return {"engine": "ray (local cluster)" if ray else "local processes", "workers": workers, "programs": programs,
            "accepted": accepted, "wall_s": round(wall, 1), "records_per_hour": round(3600 * accepted / wall, 1)}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--programs", type=int, default=6)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument(
        "--ray",
        action="store_true",
        help="also run with Ray tasks on a local cluster (most workers)",
    )
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    load_before = os.getloadavg()
    rows = [one(args.programs, w, False) for w in args.workers]
    if args.ray:
        rows.append(one(args.programs, max(args.workers), True))
    load_after = os.getloadavg()
    base = rows[0]["wall_s"]
    table = Table(
        title="cass dataset build: records per hour",
        caption=f"{os.cpu_count()} cores; load average {load_before[0]:.1f} before, {load_after[0]:.1f} after",
    )
    for column in (
        "engine",
        "workers",
        "programs",
        "accepted",
        "wall s",
        "records/hour",
        "speed-up",
    ):
        table.add_column(column, justify="right")
    for row in rows:
        row["speedup"] = round(base / row["wall_s"], 2)
        table.add_row(row["engine"], str(row["workers"]), str(row["programs"]), str(row["accepted"]), f"{row['wall_s']:.1f}",
                      f"{row['records_per_hour']:.0f}", f"x{row['speedup']:.2f}")  # fmt: skip
    Console().print(table)
    if args.json:
        args.json.write_text(
            json.dumps(
                {"rows": rows, "load": [load_before, load_after], "cores": os.cpu_count()}, indent=1
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
