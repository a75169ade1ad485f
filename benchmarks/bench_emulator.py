"""Emulator speed, interpreter against translated code (JIT), in one run, from the emulator's own
counters.

    .venv/bin/python benchmarks/bench_emulator.py             # every kernel, both engines
    .venv/bin/python benchmarks/bench_emulator.py --quick     # smaller launches
    .venv/bin/python benchmarks/bench_emulator.py --only mandelbrot --only collatz
    .venv/bin/python benchmarks/bench_emulator.py --huge      # + a 40 G lane-instruction kernel (JIT)
    .venv/bin/python benchmarks/bench_emulator.py --json out.json

Each program is compiled once with clang-16 (-O3) for gfx1100, linked against the cass HIP
runtime and run by each engine; the table gives lane-instructions per second of emulation time
(kernel time only), the JIT's speed-up over the interpreter, and whether both engines printed the
same output. Translation (translating and compiling the code object, into a fresh private cache)
is timed apart by a first JIT run; the JIT row is the second run, with the library cached. The caption gives the machine's load average and
CPU count: on a busy machine the figures per CPU second are the steadier ones.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

from cass.runner.emulator import build_hip_program, run_program
from cass.runner.outputs import OutputError, check_output, write_output
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

HERE = Path(__file__).parent / "emulator"
CASES = [  # (label, kind, source, full-size args, quick args)
    ("FMA chain", "compute, uniform", "fma_chain.hip", ["2000"], ["200"]),
    ("N-body step", "compute, uniform", "nbody.hip", ["2048"], ["512"]),
    ("ray-sphere shading", "compute, divergent", "raysphere.hip", ["256", "64"], ["128", "16"]),
    ("vector add", "memory", "vadd.hip", ["1000000"], ["100000"]),
    ("5-point stencil", "memory", "stencil.hip", ["1024"], ["256"]),
    ("Mandelbrot", "divergent", "mandelbrot.hip", ["256", "256"], ["128", "64"]),
    ("Collatz lengths", "divergent", "collatz.hip", ["65536"], ["16384"]),
    ("tiled GEMM 16x16", "LDS", "gemm.hip", ["256"], ["128"]),
    ("tree reduction", "LDS", "reduce.hip", ["1048576"], ["131072"]),
]
HUGE = ("FMA chain, 40 G lane-instructions", "compute, uniform", "fma_chain.hip", ["75000"])
ENGINES = ("interp", "jit")


def run_case(exe: Path, args: list[str], engine: str, cache: Path, wait: bool = False) -> dict:
    env = {**os.environ, "CASS_EMULATOR_ENGINE": engine, "CASS_CACHE_DIR": str(cache)}
    if wait:  # compile before the first launch: the translation time, and a cached library
        env["CASS_EMULATOR_JIT_WAIT"] = "1"
    started = time.perf_counter()
    run = run_program(exe, args, timeout_s=1800, env=env)
    wall = time.perf_counter() - started
    s = run.stats
    return {
        "engine": engine,
        "ok": run.exit_code == 0,
        "stdout": run.stdout,
        "wave_instructions": s.instructions,
        "lane_instructions": s.lane_instructions,
        "lane_utilisation": s.lane_utilisation,
        "emulation_s": s.emulation_wall_s,
        "emulation_cpu_s": s.emulation_cpu_s,
        "program_s": wall,
        "mlane_per_s": s.lane_instructions_per_s / 1e6,
        "mlane_per_cpu_s": s.lane_instructions_per_cpu_s / 1e6,
        "translated": s.native_instructions / s.instructions if s.instructions else 0.0,
        "translate_s": s.translate_s + s.compile_s,
        "interpreted": s.interpreted,
        "load_average": round(os.getloadavg()[0], 2),
    }


def run_cases(cases, quick: bool, engines=ENGINES) -> list[dict]:
    """Each program built once, then run by each engine (the JIT compiling into a fresh cache)."""
    results = []
    with tempfile.TemporaryDirectory() as tmp, Progress(transient=True) as progress:
        task = progress.add_task("emulating", total=len(cases) * len(engines))
        for label, kind, source, full, *small in cases:
            args = small[0] if quick and small else full
            progress.update(task, description=f"{label}: build")
            exe = build_hip_program(HERE / source, Path(tmp) / source, extra_args=["-O3"])
            runs = []
            cache = Path(tempfile.mkdtemp(dir=tmp))
            for engine in engines:
                progress.update(task, description=f"{label}: {engine}")
                translation = 0.0
                if engine != "interp":  # compiled into the fresh cache first, timed apart
                    translation = run_case(exe, args, engine, cache, wait=True)["translate_s"]
                runs.append({"program": label, "kind": kind, "args": " ".join(args)})
                runs[-1].update(run_case(exe, args, engine, cache))
                runs[-1]["translate_s"] = translation
                progress.advance(task)
            base = runs[0]
            for r in runs:
                r["speedup"] = base["emulation_s"] / r["emulation_s"] if r["emulation_s"] else 0.0
                r["same_output"] = r["stdout"] == base["stdout"]
            results += runs
    return results


def render(results: list[dict]) -> Table:
    loads = [r["load_average"] for r in results]
    table = Table(
        title="cass RDNA3 emulator: interpreter vs translated code (kernel time only)",
        caption=f"load average {min(loads):.1f}-{max(loads):.1f} on {os.cpu_count()} CPUs; "
        "translation = translating + compiling the code object, when it is loaded",
    )
    columns = ["program", "kind", "args", "engine", "ok", "same output", "lane instr"]
    columns += ["lane util", "wall s", "M lane-instr/s", "per CPU s", "speed-up"]
    columns += ["translated", "translation s"]
    for col in columns:
        table.add_column(col, justify="left" if col in columns[:4] else "right")
    for r in results:
        jit = r["engine"] != "interp"
        table.add_row(
            r["program"],
            r["kind"],
            r["args"],
            r["engine"],
            "yes" if r["ok"] else "NO",
            "yes" if r["same_output"] else "NO",
            f"{r['lane_instructions']:,}",
            f"{100 * r['lane_utilisation']:.1f}%",
            f"{r['emulation_s']:.3f}",
            f"{r['mlane_per_s']:.0f}",
            f"{r['mlane_per_cpu_s']:.0f}",
            f"{r['speedup']:.1f}x" if jit else "",
            f"{100 * r['translated']:.1f}%" if jit else "",
            f"{r['translate_s']:.2f}" if jit else "",
        )
    return table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller launches")
    parser.add_argument("--only", action="append", help="programs whose name contains this")
    parser.add_argument("--huge", action="store_true", help="also a 40 G lane-instruction kernel")
    parser.add_argument("--json", type=Path, help="also write the results as JSON")
    parser.add_argument("--force", action="store_true", help="overwrite the --json file")
    opts = parser.parse_args(argv)
    if opts.json:
        try:
            check_output(opts.json, force=opts.force)  # before the runs, not after
        except OutputError as exc:
            Console(stderr=True).print(str(exc), highlight=False)
            return 2
    cases = [c for c in CASES if not opts.only or any(o in c[2] for o in opts.only)]
    results = run_cases(cases, opts.quick)
    if opts.huge:
        huge = run_cases([HUGE], False, engines=("jit",))
        results += huge
    Console(width=max(Console().width, 160)).print(render(results))
    if opts.huge:
        h = huge[0]
        print(
            f"{h['program']}: {h['lane_instructions'] / 1e9:.1f} G lane-instructions, "
            f"kernel {h['emulation_s']:.1f} s, whole program {h['program_s']:.1f} s"
        )
    if opts.json:
        write_output(opts.json, json.dumps(results, indent=2) + "\n", force=opts.force)
    return 0 if all(r["ok"] and r["same_output"] for r in results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
