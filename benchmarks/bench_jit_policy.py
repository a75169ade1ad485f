"""What the emulator's translation policy costs and saves, per program, in wall and CPU seconds of
the whole run (the emulated program's process and everything it starts, the compiler included):

    interp      the interpreter only
    jit-eager   engine jit, every code object compiled at once in the background
                (CASS_EMULATOR_JIT_HOT_S=0: the policy before tiering)
    jit         engine jit, tiered: compiled once its kernels have used CASS_EMULATOR_JIT_HOT_S
                (default 2) CPU seconds on the interpreter
    jit-cached  engine jit, its library already in the cache (compiled by an untimed run first)

    nice .venv/bin/python benchmarks/bench_jit_policy.py [--json F] [--only NAME]

Each program is built once (clang-16 -O3); the JIT's cache is emptied before every run but the
cached one. Short programs (most tests and bench tasks) and a long kernel.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import tempfile
import time
from pathlib import Path

from cass.runner.emulator import build_hip_program, run_program
from cass.runner.outputs import OutputError, check_output, write_output
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

HERE = Path(__file__).parent / "emulator"
CASES = [  # (label, source, args)
    ("vector add 100K", "vadd.hip", ["100000"]),
    ("tree reduction 128K", "reduce.hip", ["131072"]),
    ("tiled GEMM 128", "gemm.hip", ["128"]),
    ("Mandelbrot 128x64", "mandelbrot.hip", ["128", "64"]),
    ("FMA chain, 10 G lane-instr", "fma_chain.hip", ["20000"]),
]
MODES = {  # mode -> (engine, CASS_EMULATOR_JIT_HOT_S, keep the JIT cache)
    "interp": ("interp", None, False),
    "jit-eager": ("jit", "0", False),
    "jit": ("jit", None, False),
    "jit-cached": ("jit", None, True),
}


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_mode(exe: Path, args: list[str], mode: str, cache: Path) -> dict:
    engine, hot, keep = MODES[mode]
    env = {**os.environ, "CASS_EMULATOR_ENGINE": engine, "CASS_CACHE_DIR": str(cache)}
    env.pop("CASS_EMULATOR_JIT_WAIT", None)
    env.pop("CASS_EMULATOR_JIT_HOT_S", None)
    if not keep:
        for old in cache.glob("jit-*"):
            shutil.rmtree(old)
    elif not list(cache.glob("jit-*/kernels.so")):  # compiled first, not timed
        run_program(exe, args, timeout_s=1800, env={**env, "CASS_EMULATOR_JIT_WAIT": "1"})
    if hot is not None:
        env["CASS_EMULATOR_JIT_HOT_S"] = hot
    cpu, started = _children_cpu(), time.perf_counter()
    run = run_program(exe, args, timeout_s=1800, env=env)
    wall, cpu = time.perf_counter() - started, _children_cpu() - cpu
    s = run.stats
    return {
        "mode": mode,
        "ok": run.exit_code == 0,
        "stdout": run.stdout,
        "wall_s": wall,
        "cpu_s": cpu,
        "kernel_s": s.emulation_wall_s,
        "lane_instructions": s.lane_instructions,
        "translated": s.native_instructions / s.instructions if s.instructions else 0.0,
        "compile_s": s.compile_s,
        "load_average": round(os.getloadavg()[0], 2),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", help="programs whose label contains this")
    parser.add_argument("--json", type=Path, help="also write the results as JSON")
    parser.add_argument("--force", action="store_true", help="overwrite the --json file")
    opts = parser.parse_args(argv)
    if opts.json:
        try:
            check_output(opts.json, force=opts.force)
        except OutputError as exc:
            Console(stderr=True).print(str(exc), highlight=False)
            return 2
    cases = [c for c in CASES if not opts.only or any(o in c[0] for o in opts.only)]
    results = []
    with tempfile.TemporaryDirectory() as tmp, Progress(transient=True) as progress:
        task = progress.add_task("running", total=len(cases) * len(MODES))
        for label, source, args in cases:
            progress.update(task, description=f"{label}: build")
            exe = build_hip_program(HERE / source, Path(tmp) / source, extra_args=["-O3"])
            cache = Path(tempfile.mkdtemp(dir=tmp))
            run_program(exe, args, timeout_s=1800, env={**os.environ, "CASS_CACHE_DIR": str(cache)})
            runs: list[dict] = []
            for mode in MODES:  # the run above filled the cache's decoder entries
                progress.update(task, description=f"{label}: {mode}")
                runs.append({"program": label, "args": " ".join(args)})
                runs[-1].update(run_mode(exe, args, mode, cache))
                runs[-1]["same_output"] = runs[-1]["stdout"] == runs[0]["stdout"]
                progress.advance(task)
            results += runs
    loads = [r["load_average"] for r in results]
    table = Table(
        title="cass emulator: translation policy, whole program (wall / CPU s, compiler included)",
        caption=f"load average {min(loads):.1f}-{max(loads):.1f} on {os.cpu_count()} CPUs",
    )
    for col in ["program", "mode", "ok", "same output", "wall s", "CPU s", "kernel s"]:
        table.add_column(col, justify="left" if col in ("program", "mode") else "right")
    for col in ["translated", "compile s", "wall vs interp"]:
        table.add_column(col, justify="right")
    base: dict = {}
    for r in results:
        if r["mode"] == "interp":
            base = r
        table.add_row(
            r["program"],
            r["mode"],
            "yes" if r["ok"] else "NO",
            "yes" if r["same_output"] else "NO",
            f"{r['wall_s']:.2f}",
            f"{r['cpu_s']:.2f}",
            f"{r['kernel_s']:.2f}",
            f"{100 * r['translated']:.0f}%",
            f"{r['compile_s']:.1f}",
            f"{r['wall_s'] / base['wall_s']:.2f}x",
        )
    Console(width=max(Console().width, 140)).print(table)
    if opts.json:
        write_output(opts.json, json.dumps(results, indent=2) + "\n", force=opts.force)
    return 0 if all(r["ok"] and r["same_output"] for r in results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
