"""The benchmark's AMD side on the emulator, interpreter against JIT, task by task in one run:
each task's rules-engine port is built once (timed), then run under every engine back to back,
so a change of load hits both engines alike.

    nice .venv/bin/python benchmarks/bench_amd_side.py --json F          # every task
    nice .venv/bin/python benchmarks/bench_amd_side.py --per-domain 4 graph

The AMD side of `cass bench` for a task is building the port plus running it; the engine
changes only the run. Every run starts with no translation of the task's kernels in the cache
(a kernel's library is keyed by its code, so one task's never serves another's): the JIT figures
include its tiering and compiling. The table gives per domain the build time, each engine's run
time and the ratio; the caption the totals and the load average.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
import tomllib
from collections import defaultdict
from pathlib import Path

from cass.models.engine import Target, TranslationRequest
from cass.models.rules.engine import RulesEngine
from cass.runner.diagnostics import CassError
from cass.runner.emulator import build_hip_program, run_program
from cass.runner.outputs import OutputError, check_output, write_output
from emulator_task_sweep import TASKS, pick
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

ENGINES = ("interp", "jit")


def measure(main_cu: Path, work: Path, opt: str, engines=ENGINES) -> dict:
    """One task: build seconds, and per engine the run's wall seconds and whether it passed."""
    spec = tomllib.loads((main_cu.parent / "task.toml").read_text())
    rec: dict = {"task": main_cu.parent.name, "domain": main_cu.parent.parent.name}
    target = Target(hip_version=str(spec.get("port", {}).get("hip_version", "5.2")))
    request = TranslationRequest("source", main_cu.read_text(), str(main_cu), target)
    source = work / f"{rec['task']}.hip"
    source.write_text(RulesEngine().translate(request).text)
    started = time.perf_counter()
    try:
        exe = build_hip_program(source, work / rec["task"], extra_args=[opt])
    except CassError as exc:
        return rec | {"error": exc.message.splitlines()[-1][:120]}
    rec["build_s"] = round(time.perf_counter() - started, 2)
    for engine in engines:
        env = {**os.environ, "CASS_EMULATOR_ENGINE": engine}
        env.pop("CASS_EMULATOR_JIT_WAIT", None)
        env.pop("CASS_EMULATOR_JIT_HOT_S", None)
        started = time.perf_counter()
        run = run_program(exe, spec.get("run", {}).get("args", []), timeout_s=600, env=env)
        rec[engine] = {
            "run_s": round(time.perf_counter() - started, 2),
            "pass": run.exit_code == 0 and "CHECK PASS" in run.stdout,
            "kernel_s": round(run.stats.emulation_wall_s, 2),
            "translated": run.stats.native_instructions / max(1, run.stats.instructions),
            "compile_s": round(run.stats.compile_s, 2),
        }
    return rec


def render(results: list[dict], engines=ENGINES) -> Table:
    done = [r for r in results if "build_s" in r]
    build = sum(r["build_s"] for r in done)
    runs = {e: sum(r[e]["run_s"] for r in done) for e in engines}
    caption = f"{len(done)} tasks; AMD side (build + run): " + ", ".join(
        f"{e} {build + runs[e]:.0f} s" for e in engines
    )
    caption += f"; jit/interp {(build + runs['jit']) / max(1e-9, build + runs['interp']):.2f}"
    caption += f" (runs alone {runs['jit'] / max(1e-9, runs['interp']):.2f})"
    caption += f"; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
    table = Table(title="cass bench AMD side on the emulator: interpreter vs JIT", caption=caption)
    for col in ("domain", "tasks", "build s", *(f"{e} run s" for e in engines), "jit/interp"):
        table.add_column(col, justify="left" if col == "domain" else "right")
    per: dict = defaultdict(list)
    for r in done:
        per[r["domain"]].append(r)
    for domain, rows in sorted(per.items()):
        b = sum(r["build_s"] for r in rows)
        t = {e: sum(r[e]["run_s"] for r in rows) for e in engines}
        ratio = (b + t["jit"]) / max(1e-9, b + t["interp"])
        table.add_row(
            domain, str(len(rows)), f"{b:.1f}", *(f"{t[e]:.1f}" for e in engines), f"{ratio:.2f}"
        )
    return table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("filters", nargs="*", help="substrings of task paths to run")
    parser.add_argument("--opt", default="-O2", help="clang optimisation level")
    parser.add_argument("--per-domain", type=int, default=0, help="only the first N per domain")
    parser.add_argument("--json", type=Path, help="also write every task's figures as JSON")
    parser.add_argument("--force", action="store_true", help="overwrite the --json file")
    opts = parser.parse_args(argv)
    if opts.json:
        try:
            check_output(opts.json, force=opts.force)
        except OutputError as exc:
            Console(stderr=True).print(str(exc), highlight=False)
            return 2
    tasks = sorted(TASKS.glob("*/*/main.cu"))
    tasks = [t for t in tasks if not opts.filters or any(f in str(t) for f in opts.filters)]
    tasks = pick(tasks, opts.per_domain, interleave=True)
    results = []
    with tempfile.TemporaryDirectory() as tmp, Progress(transient=True) as progress:
        bar = progress.add_task("tasks", total=len(tasks))
        for main_cu in tasks:
            progress.update(bar, description=main_cu.parent.name)
            results.append(measure(main_cu, Path(tmp), opts.opt))
            progress.advance(bar)
            if opts.json:
                write_output(opts.json, json.dumps(results, indent=2) + "\n", force=True)
    Console(width=max(Console().width, 120)).print(render(results))
    failed = [r["task"] for r in results if "error" in r or not all(r[e]["pass"] for e in ENGINES)]
    if failed:
        print("not passing under every engine:", ", ".join(failed))
    return 0 if not failed else 1


if __name__ == "__main__":
    raise SystemExit(main())
