"""Run benchmark tasks' rules-engine ports on the RDNA3 emulator at several clang optimisation
levels and compare each level's output with the last level's (default -O0 and -O1 against -O3).

    .venv/bin/python benchmarks/emulator_opt_levels.py kcore gauss tridiagonal
    .venv/bin/python benchmarks/emulator_opt_levels.py --levels -O0 -O2 -O3 graph/

Per task and level: built? exit code, stdout identical to the reference level? Output can
legitimately differ in the last digits between levels (clang contracts a*b+c into fma at -O1
and above), so a difference is a lead, not a verdict; a build error or fault is a defect.
"""

from __future__ import annotations

import argparse
import tempfile
import tomllib
from pathlib import Path

from cass.models.engine import TranslationRequest
from cass.models.rules.engine import RulesEngine
from cass.runner.diagnostics import CassError
from cass.runner.emulator import build_hip_program, run_program
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

TASKS = Path(__file__).resolve().parents[1] / "models" / "bench" / "tasks"


def run_levels(main_cu: Path, work: Path, levels: list[str]) -> dict[str, tuple[str, str]]:
    """level -> (status, stdout); status is 'exit N', 'build error' or 'fault KIND'."""
    spec = tomllib.loads((main_cu.parent / "task.toml").read_text())
    port = RulesEngine().translate(TranslationRequest("source", main_cu.read_text(), str(main_cu)))
    source = work / f"{main_cu.parent.name}.hip"
    source.write_text(port.text)
    out = {}
    for level in levels:
        try:
            exe = build_hip_program(source, work / f"{source.stem}{level}", extra_args=[level])
        except CassError as exc:
            out[level] = ("build error", exc.message.splitlines()[-1][:80])
            continue
        run = run_program(exe, spec.get("run", {}).get("args", []), timeout_s=600)
        faults = run.fault_reports
        status = f"fault {faults[0].get('kind')}" if faults else f"exit {run.exit_code}"
        out[level] = (status, run.stdout)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("filters", nargs="+", help="substrings of task paths to run")
    parser.add_argument("--levels", nargs="+", default=["-O0", "-O1", "-O3"])
    opts = parser.parse_args(argv)
    tasks = [
        t
        for t in sorted(TASKS.glob("*/*/main.cu"))
        if any(f in str(t) for f in opts.filters)
        and not tomllib.loads((t.parent / "task.toml").read_text()).get("libraries")
    ]
    reference, table = opts.levels[-1], Table(title=f"outputs per level, against {opts.levels[-1]}")
    table.add_column("task")
    for level in opts.levels:
        table.add_column(level)
    defects = 0
    with tempfile.TemporaryDirectory() as tmp, Progress(transient=True) as progress:
        bar = progress.add_task("tasks", total=len(tasks))
        for main_cu in tasks:
            res = run_levels(main_cu, Path(tmp), opts.levels)
            cells = []
            for level in opts.levels:
                status, stdout = res[level]
                same = level == reference or stdout == res[reference][1] or status == "build error"
                defects += not status.startswith("exit")
                cells.append(status + ("" if same else ", output differs"))
            table.add_row(f"{main_cu.parent.parent.name}/{main_cu.parent.name}", *cells)
            progress.advance(bar)
    Console(width=max(Console().width, 120)).print(table)
    return 1 if defects else 0


if __name__ == "__main__":
    raise SystemExit(main())
