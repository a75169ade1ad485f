"""Run every benchmark task's CUDA program, ported by the rules engine, on the RDNA3 emulator.

    .venv/bin/python benchmarks/emulator_task_sweep.py               # all tasks, -O2
    .venv/bin/python benchmarks/emulator_task_sweep.py graph crc32   # tasks whose path matches
    nice .venv/bin/python benchmarks/emulator_task_sweep.py --engine both --interleave \
        --jobs 1 --json benchmarks/results/emulator-jit-sweep.json --resume

Per task: ported (for its `[port] hip_version`)? built? ran without an emulator fault? printed
the program's own `CHECK PASS`? Library tasks are built as `cass verify` builds them (cass's
emulated cuBLAS/cuFFT/cuRAND/cuSPARSE/cuSOLVER/MIOpen/rocWMMA/hipRTC/roctx, and hipCUB/rocThrust
where `cass setup --rocm-libs` installed them); one whose library is missing is `not run`.
With `--engine both` every launch runs on the interpreter and on the translated code (JIT) and
must leave identical registers and memory (an `engine-mismatch` fault otherwise); a launch whose
result depends on which wave wins a race is counted `schedule-dependent` (see
`cass.runner.emulator.oracle`). The JSON records, per task, the share of wave instructions run
translated, what the interpreter ran instead (op -> wave instructions), the schedule-dependent
launches and the translation and compile times. `--resume` keeps the tasks a stopped sweep's
JSON already has and runs the rest.
This measures the emulator's coverage of real programs; `cass bench` scores the engines.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
import tomllib
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from cass.models.bench.attempt import available_libraries
from cass.models.engine import Target, TranslationRequest
from cass.models.rules.engine import RulesEngine
from cass.runner.diagnostics import CassError
from cass.runner.emulator import build_hip_program, run_program
from cass.runner.outputs import write_output
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

TASKS = Path(__file__).resolve().parents[1] / "models" / "bench" / "tasks"


def sweep_one(
    main_cu: Path, work: Path, opt: str, engine: str = "interp", timeout_s: float = 0
) -> dict:
    """One task's record: name, domain, status, detail and the emulator's engine counters."""
    spec = tomllib.loads((main_cu.parent / "task.toml").read_text())
    name = main_cu.parent.name
    rec: dict = {"task": name, "domain": main_cu.parent.parent.name, "engine": engine}
    missing = sorted(set(spec.get("libraries", ())) - available_libraries("emulator"))
    if missing:
        return rec | {
            "status": "not run",
            "detail": f"needs {', '.join(missing)}: run `cass setup --rocm-libs`",
        }
    target = Target(hip_version=str(spec.get("port", {}).get("hip_version", "5.2")))
    request = TranslationRequest("source", main_cu.read_text(), str(main_cu), target)
    port = RulesEngine().translate(request)
    source = work / f"{name}.hip"
    source.write_text(port.text)
    try:
        exe = build_hip_program(source, work / name, extra_args=[opt])
    except CassError as exc:
        return rec | {"status": "build error", "detail": exc.message.splitlines()[-1][:120]}
    env = {**os.environ, "CASS_EMULATOR_ENGINE": engine}
    started = time.perf_counter()
    # `both` runs each launch twice, a racing one three times (oracle.run_compared)
    timeout_s = timeout_s or (900 if engine == "both" else 300)
    run = run_program(exe, spec.get("run", {}).get("args", []), timeout_s=timeout_s, env=env)
    s = run.stats
    rec |= {
        "wall_s": round(time.perf_counter() - started, 2),
        "wave_instructions": s.instructions,
        "native_instructions": s.native_instructions,
        "interpreted": dict(sorted(s.interpreted.items(), key=lambda kv: -kv[1])),
        "warmup_instructions": s.warmup_instructions,
        "compared_launches": s.compared_launches,
        "schedule_dependent": dict(getattr(s, "schedule_dependent", {})),
        "launches": s.kernel_launches,
        "translate_s": round(s.translate_s, 2),
        "compile_s": round(s.compile_s, 2),
    }
    if run.fault_reports:
        report = run.fault_reports[0]
        kind = str(report.get("kind"))
        status = "mismatch" if kind == "engine-mismatch" else "fault"
        if kind == "timeout" and "undecided" in report.get("message", ""):
            status = "undecided"  # engines differ; the oracle's third run ran out of time
        return rec | {"status": status, "detail": f"{kind}: {report.get('message', '')[:160]}"}
    if run.timed_out:
        return rec | {"status": "timeout", "detail": ""}
    if "CHECK PASS" in run.stdout and run.exit_code == 0:
        detail = f"{s.instructions:,} wave instructions"
        if engine != "interp" and s.instructions:
            detail += f", {100 * s.native_instructions / s.instructions:.1f}% translated"
        return rec | {"status": "pass", "detail": detail}
    return rec | {"status": "check failed", "detail": f"exit {run.exit_code}"}


def _guarded(main_cu: Path, work: Path, opt: str, engine: str, timeout_s: float) -> dict:
    """sweep_one, with a crash of the sweep itself recorded as the task's result."""
    try:
        return sweep_one(main_cu, work, opt, engine, timeout_s)
    except Exception as exc:  # noqa: BLE001 - one task's crash must not stop the sweep
        where = {"task": main_cu.parent.name, "domain": main_cu.parent.parent.name}
        return where | {"engine": engine, "status": "sweep error", "detail": f"{exc!r}"[:160]}


def pick(tasks: list[Path], per_domain: int, interleave: bool = False) -> list[Path]:
    """The first `per_domain` tasks of each domain (all when 0); with `interleave`, in turns
    across domains (the first of each domain, then the second...), so that a sweep stopped
    early has covered every domain evenly."""
    seen: Counter = Counter()
    ranked = []
    for t in tasks:
        seen[t.parent.parent.name] += 1
        if not per_domain or seen[t.parent.parent.name] <= per_domain:
            ranked.append((seen[t.parent.parent.name], t))
    if interleave:
        ranked.sort(key=lambda rt: rt[0])  # stable: domains stay in order within a turn
    return [t for _, t in ranked]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("filters", nargs="*", help="substrings of task paths to run")
    parser.add_argument("--opt", default="-O2", help="clang optimisation level")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--engine", default="interp", choices=("interp", "jit", "both"), help="emulator engine"
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=0,
        help="seconds a program may run (default 300; 900 under --engine both)",
    )
    parser.add_argument("--per-domain", type=int, default=0, help="only the first N per domain")
    parser.add_argument("--interleave", action="store_true", help="tasks in turns across domains")
    parser.add_argument("--json", type=Path, help="write every task's record there as JSON")
    parser.add_argument("--force", action="store_true", help="overwrite the --json file")
    parser.add_argument(
        "--resume",
        action="store_true",
        help="keep the tasks the --json file already records and run only the others",
    )
    parser.add_argument(
        "--summarize",
        type=Path,
        metavar="JSON",
        help="run nothing: write the per-domain table of a sweep's JSON (stopped or not) as "
        "Markdown beside it (.md)",
    )
    opts = parser.parse_args(argv)
    if opts.summarize:
        return summarize(opts.summarize, opts.force)
    tasks = sorted(TASKS.glob("*/*/main.cu"))
    tasks = [t for t in tasks if not opts.filters or any(f in str(t) for f in opts.filters)]
    tasks = pick(tasks, opts.per_domain, opts.interleave)
    results: list[dict] = []
    if opts.json and opts.json.exists() and not opts.force:
        if not opts.resume:
            Console(stderr=True).print(
                f"{opts.json}: exists; pass --resume to go on with it or --force to start again"
            )
            return 2
        try:
            results = json.loads(opts.json.read_text())["results"]
        except (OSError, ValueError, KeyError) as exc:
            Console(stderr=True).print(f"{opts.json}: not a sweep's JSON ({exc}); use --force")
            return 2
        done = {(r["domain"], r["task"]) for r in results}
        tasks = [t for t in tasks if (t.parent.parent.name, t.parent.name) not in done]
    started = time.perf_counter() - (_previous_wall(opts.json) if results else 0.0)
    with tempfile.TemporaryDirectory() as tmp, Progress(transient=True) as progress:
        bar = progress.add_task("tasks", total=len(tasks))
        with ThreadPoolExecutor(max_workers=opts.jobs) as pool:
            one = lambda t: _guarded(t, Path(tmp), opts.opt, opts.engine, opts.timeout)  # noqa: E731
            for result in pool.map(one, tasks):
                results.append(result)
                progress.advance(bar)
                if opts.json:  # after every task: an interrupted sweep keeps what it did
                    write_output(opts.json, _report(results, opts, started), force=True)
    table = Table(title=f"benchmark tasks on the RDNA3 emulator ({opts.opt}, {opts.engine})")
    for col in ("task", "result", "detail"):
        table.add_column(col)
    for r in results:
        if r["status"] != "pass":
            table.add_row(r["task"], r["status"], r["detail"])
    console = Console(width=max(Console().width, 120))
    console.print(table)
    counts = Counter(r["status"] for r in results)
    console.print(", ".join(f"{k}: {v}" for k, v in counts.most_common()))
    interpreted: Counter = Counter()
    for r in results:
        interpreted.update(r.get("interpreted", {}))
    if interpreted:
        top = ", ".join(f"{op} {n:,}" for op, n in interpreted.most_common(12))
        console.print(f"interpreted (wave instructions, all tasks): {top}")
    failed = ("fault", "mismatch", "sweep error")
    return 0 if not any(counts.get(k, 0) for k in failed) else 1


def summarize(path: Path, force: bool) -> int:
    """A sweep's JSON as a Markdown table per domain: tasks, each status, the share of wave
    instructions translated and what the interpreter ran most."""
    try:
        sweep = json.loads(path.read_text())
        results, head = sweep["results"], sweep["summary"]
    except (OSError, ValueError, KeyError) as exc:
        Console(stderr=True).print(f"{path}: not a sweep's JSON ({exc}); run a sweep with --json")
        return 2
    all_tasks = sorted(TASKS.glob("*/*/main.cu"))
    per_domain = Counter(t.parent.parent.name for t in all_tasks)
    statuses = sorted({r["status"] for r in results})
    lines = [
        f"# Benchmark tasks on the RDNA3 emulator, engine `{head['engine']}` ({head['opt']})",
        "",
        f"{len(results)} of {len(all_tasks)} tasks, {head['domains']} of {len(per_domain)} "
        f"domains, {head['wall_s']:.0f} s wall (load average {head['load_average']}).",
        "",
        "`schedule-dependent`: tasks (whatever their status) with a launch whose result depended "
        "on which wave won a race: the interpreter ended differently in two wave orders and the "
        "translated code equalled it exactly in its own (`cass.runner.emulator.oracle`).",
        "",
        "| domain | swept | "
        + " | ".join(statuses)
        + " | schedule-dependent | translated | interpreted most |",
        "|---|---|" + "---|" * len(statuses) + "---|---|---|",
    ]
    for domain in sorted(per_domain):
        mine = [r for r in results if r["domain"] == domain]
        counts = Counter(r["status"] for r in mine)
        waves = sum(r.get("wave_instructions", 0) for r in mine)
        native = sum(r.get("native_instructions", 0) for r in mine)
        share = f"{100 * native / waves:.1f}%" if waves else "-"
        ops: Counter = Counter()
        for r in mine:
            ops.update(r.get("interpreted", {}))
        top = ", ".join(f"{op} {n:,}" for op, n in ops.most_common(3)) or "-"
        cells = " | ".join(str(counts.get(s, 0)) for s in statuses)
        dependent = sum(1 for r in mine if r.get("schedule_dependent"))
        lines.append(
            f"| {domain} | {len(mine)}/{per_domain[domain]} | {cells} | {dependent} | {share} "
            f"| {top} |"
        )
    total = Counter(r["status"] for r in results)
    cells = " | ".join(str(total.get(s, 0)) for s in statuses)
    dependent = sum(1 for r in results if r.get("schedule_dependent"))
    lines.append(f"| **all** | {len(results)}/{len(all_tasks)} | {cells} | {dependent} | | |")
    racing = [r for r in results if r.get("schedule_dependent")]
    if racing:
        lines += ["", "| task | status | schedule-dependent launches (kernel x launches) |"]
        lines += ["|---|---|---|"]
        for r in racing:
            kernels = ", ".join(f"`{k}` x{n}" for k, n in r["schedule_dependent"].items())
            lines.append(f"| {r['task']} | {r['status']} | {kernels} |")
    bad = [r for r in results if r["status"] != "pass"]
    if bad:
        lines += ["", "| task | status | detail |", "|---|---|---|"]
        lines += [f"| {r['task']} | {r['status']} | {r['detail']} |" for r in bad]
    out = path.with_suffix(".md")
    write_output(out, "\n".join(lines) + "\n", force=force)
    Console().print(f"wrote {out}")
    return 0


def _previous_wall(path: Path) -> float:
    """The wall time a resumed sweep's JSON has already counted."""
    try:
        return float(json.loads(path.read_text())["summary"]["wall_s"])
    except (OSError, ValueError, KeyError, TypeError):
        return 0.0


def _report(results: list[dict], opts, started: float) -> str:
    counts = Counter(r["status"] for r in results)
    head = {
        "engine": opts.engine,
        "opt": opts.opt,
        "per_domain": opts.per_domain,
        "interleave": opts.interleave,
        "filters": opts.filters,
        "tasks": len(results),
        "domains": len({r["domain"] for r in results}),
        "counts": dict(counts),
        "wall_s": round(time.perf_counter() - started, 1),
        "load_average": round(os.getloadavg()[0], 2),
    }
    return json.dumps({"summary": head, "results": results}, indent=1) + "\n"


if __name__ == "__main__":
    raise SystemExit(main())
