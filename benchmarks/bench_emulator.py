"""Emulator speed on large launches, from the emulator's own counters.

    .venv/bin/python benchmarks/bench_emulator.py            # 1M vadd, 256^2 GEMM, 1M reduction
    .venv/bin/python benchmarks/bench_emulator.py --quick    # smaller sizes
    .venv/bin/python benchmarks/bench_emulator.py --json out.json
    .venv/bin/python benchmarks/bench_emulator.py --repeat 3  # best of 3 runs per program

Each program is compiled with clang-16 (-O3) for gfx1100, linked against the cass HIP runtime and
run; the table reports lane-instructions per second of emulation time (kernel time only), per
wall-clock second and per CPU second of the emulating process (the two differ on a busy machine:
the table's caption gives the machine's load average and CPU count, measured around the runs).
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from pathlib import Path

from cass.runner.emulator import build_hip_program, run_program
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

HERE = Path(__file__).parent / "emulator"
CASES = [  # (label, source, full-size args, quick args)
    ("vector add, 1M threads", "vadd.hip", ["1000000"], ["100000"]),
    ("tiled GEMM 16x16 tiles", "gemm.hip", ["256"], ["128"]),
    ("shared-memory reduction", "reduce.hip", ["1048576"], ["131072"]),
]


def run_case(exe: Path, args: list[str], label: str) -> dict:
    run = run_program(exe, args, timeout_s=1800)
    s = run.stats
    return {
        "program": label,
        "args": " ".join(args),
        "ok": run.exit_code == 0,
        "wave_instructions": s.instructions,
        "lane_instructions": s.lane_instructions,
        "lane_utilisation": s.lane_utilisation,
        "emulation_s": s.emulation_wall_s,
        "emulation_cpu_s": s.emulation_cpu_s,
        "mlane_per_s": s.lane_instructions_per_s / 1e6,
        "mlane_per_cpu_s": s.lane_instructions_per_cpu_s / 1e6,
        "load_average": round(os.getloadavg()[0], 2),
    }


def run_cases(quick: bool, repeat: int = 1) -> list[dict]:
    """Each program built once and run `repeat` times; the run with the best wall time counts."""
    results = []
    with tempfile.TemporaryDirectory() as tmp, Progress(transient=True) as progress:
        task = progress.add_task("emulating", total=len(CASES) * repeat)
        for label, source, full, small in CASES:
            args = small if quick else full
            progress.update(task, description=f"{label}: build")
            exe = build_hip_program(HERE / source, Path(tmp) / source, extra_args=["-O3"])
            runs = []
            for i in range(repeat):
                progress.update(task, description=f"{label}: run {i + 1}/{repeat}")
                runs.append(run_case(exe, args, label))
                progress.advance(task)
            best = min(runs, key=lambda r: r["emulation_s"])
            best["runs"] = repeat
            results.append(best)
    return results


def render(results: list[dict]) -> Table:
    loads = [r["load_average"] for r in results]
    table = Table(
        title="cass RDNA3 emulator speed (kernel time only)",
        caption=f"load average {min(loads):.1f}-{max(loads):.1f} on {os.cpu_count()} CPUs"
        + (f"; best of {results[0]['runs']} runs" if results[0].get("runs", 1) > 1 else ""),
    )
    for col in (
        "program",
        "args",
        "ok",
        "wave instr",
        "lane instr",
        "lane util",
        "wall s",
        "cpu s",
        "M lane-instr/s (wall)",
        "M lane-instr/s (cpu)",
    ):
        table.add_column(col, justify="left" if col in ("program", "args") else "right")
    for r in results:
        table.add_row(
            r["program"],
            r["args"],
            "yes" if r["ok"] else "NO",
            f"{r['wave_instructions']:,}",
            f"{r['lane_instructions']:,}",
            f"{100 * r['lane_utilisation']:.1f}%",
            f"{r['emulation_s']:.2f}",
            f"{r['emulation_cpu_s']:.2f}",
            f"{r['mlane_per_s']:.1f}",
            f"{r['mlane_per_cpu_s']:.1f}",
        )
    return table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller launches")
    parser.add_argument("--json", type=Path, help="also write the results as JSON")
    parser.add_argument("--repeat", type=int, default=1, help="runs per program (best counts)")
    opts = parser.parse_args(argv)
    results = run_cases(opts.quick, max(1, opts.repeat))
    Console(width=max(Console().width, 120)).print(render(results))
    if opts.json:
        opts.json.write_text(json.dumps(results, indent=2))
    return 0 if all(r["ok"] for r in results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
