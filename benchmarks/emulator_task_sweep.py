"""Run every benchmark task's CUDA program, ported by the rules engine, on the RDNA3 emulator.

    .venv/bin/python benchmarks/emulator_task_sweep.py               # all tasks, -O2
    .venv/bin/python benchmarks/emulator_task_sweep.py graph crc32   # tasks whose path matches

Per task: ported? built? ran without an emulator fault? printed the program's own `CHECK PASS`?
Library tasks (CUB, Thrust, ...) are skipped: their headers are not available for HIP here.
This measures the emulator's coverage of real programs; `cass bench` scores the engines.
"""

from __future__ import annotations

import argparse
import tempfile
import tomllib
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from cass.models.engine import TranslationRequest
from cass.models.rules.engine import RulesEngine
from cass.runner.diagnostics import CassError
from cass.runner.emulator import build_hip_program, run_program
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

TASKS = Path(__file__).resolve().parents[1] / "models" / "bench" / "tasks"


def sweep_one(main_cu: Path, work: Path, opt: str) -> tuple[str, str, str]:
    spec = tomllib.loads((main_cu.parent / "task.toml").read_text())
    name = main_cu.parent.name
    if spec.get("libraries"):
        return name, "library", ", ".join(spec["libraries"])
    port = RulesEngine().translate(TranslationRequest("source", main_cu.read_text(), str(main_cu)))
    source = work / f"{name}.hip"
    source.write_text(port.text)
    try:
        exe = build_hip_program(source, work / name, extra_args=[opt])
    except CassError as exc:
        return name, "build error", exc.message.splitlines()[-1][:120]
    run = run_program(exe, spec.get("run", {}).get("args", []), timeout_s=300)
    if run.fault_reports:
        report = run.fault_reports[0]
        return name, "fault", f"{report.get('kind')}: {report.get('message', '')[:100]}"
    if run.timed_out:
        return name, "timeout", ""
    if "CHECK PASS" in run.stdout and run.exit_code == 0:
        return name, "pass", f"{run.stats.instructions:,} wave instructions"
    return name, "check failed", f"exit {run.exit_code}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("filters", nargs="*", help="substrings of task paths to run")
    parser.add_argument("--opt", default="-O2", help="clang optimisation level")
    parser.add_argument("--jobs", type=int, default=2)
    opts = parser.parse_args(argv)
    tasks = sorted(TASKS.glob("*/*/main.cu"))
    tasks = [t for t in tasks if not opts.filters or any(f in str(t) for f in opts.filters)]
    results = []
    with tempfile.TemporaryDirectory() as tmp, Progress(transient=True) as progress:
        bar = progress.add_task("tasks", total=len(tasks))
        with ThreadPoolExecutor(max_workers=opts.jobs) as pool:
            for result in pool.map(lambda t: sweep_one(t, Path(tmp), opts.opt), tasks):
                results.append(result)
                progress.advance(bar)
    table = Table(title=f"benchmark tasks on the RDNA3 emulator ({opts.opt})")
    for col in ("task", "result", "detail"):
        table.add_column(col)
    for name, status, detail in results:
        if status != "pass":
            table.add_row(name, status, detail)
    console = Console(width=max(Console().width, 120))
    console.print(table)
    counts = Counter(status for _, status, _ in results)
    console.print(", ".join(f"{k}: {v}" for k, v in counts.most_common()))
    return 0 if counts.get("fault", 0) == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
