"""`cass bench`: list, validate and run the benchmark, and rebuild its reports.

cass bench list [--domain D] [--task GLOB] [--tasks]
cass bench validate [--no-compile] [--arch sm_90 --arch sm_80]
cass bench run --engine rules --backend emulator --level source [--jobs N] [--resume] [--out DIR]
cass bench run --engine lift --level assembly --sass-arch sm_80|sm_90|all
cass bench report [--out DIR]
"""

from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path
from typing import Annotated

import typer
from cass.runner.diagnostics import CassError
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

out = Console(emoji=False, highlight=False, soft_wrap=True)
err = Console(emoji=False, stderr=True, highlight=False, soft_wrap=True)

DomainOpt = Annotated[
    list[str] | None, typer.Option("--domain", "-d", help="Only this domain (repeatable).")
]
TaskOpt = Annotated[
    str | None,
    typer.Option("--task", "-t", help="Only tasks whose name or domain/name matches this glob."),
]
OutOpt = Annotated[
    Path,
    typer.Option(
        "--out", "-o", help="Folder for results.json, report.md, accuracy.png and the cache."
    ),
]
DEFAULT_OUT = Path("bench-results")


def _tasks(domain: list[str] | None, task: str | None) -> list:
    from cass.models.bench.tasks import discover_tasks

    tasks = discover_tasks(domains=domain or None, pattern=task)
    if not tasks:
        raise CassError(
            f"no benchmark task matches (domain={domain or 'any'}, task={task or 'any'})"
        )
    return tasks


def _engines(engine: str, level: str, model: str) -> tuple[str, ...]:
    """The engines to score: one by name, or with `all` every registered engine of this level
    (the model engines only when a model is given)."""
    from cass.models.bench.catalog import ENGINE_LEVELS
    from cass.models.registry import ENGINES, MODEL_ENGINES

    if engine != "all":
        if engine not in ENGINES:
            raise CassError(
                f"the {engine} engine is not available (registered: {', '.join(ENGINES)}, or all)"
            )
        return (engine,)
    has_model = bool(model or os.environ.get("CASS_MODEL"))
    chosen = tuple(
        e
        for e in ENGINES
        if level in ENGINE_LEVELS.get(e, (level,)) and (has_model or e not in MODEL_ENGINES)
    )
    if not chosen:
        raise CassError(f"no registered engine translates at the {level} level")
    return chosen


def _sass_archs(choice: str, level: str) -> tuple[str, ...]:
    """The SASS archs to translate from: one, or both with `all`; only the assembly level has any."""
    from cass.models.bench.attempt import SASS_ARCHS

    if choice != "all" and choice not in SASS_ARCHS:
        raise CassError(f"unknown --sass-arch {choice!r}: choose {', '.join(SASS_ARCHS)} or all")
    if level != "assembly":
        return ("sm_90",)  # unused at the source level: the engines read CUDA source
    return SASS_ARCHS if choice == "all" else (choice,)


def list_command(domain: DomainOpt = None, task: TaskOpt = None,
                 show_tasks: Annotated[bool, typer.Option("--tasks", help="Also list every task.")] = False,
                 as_json: Annotated[bool, typer.Option("--json", help="Print as JSON.")] = False) -> None:  # fmt: skip
    """Tasks per domain and the coverage of the feature vocabulary."""
    from cass.models.bench.tasks import coverage

    tasks = _tasks(domain, task)
    per_domain, per_feature = coverage(tasks)
    if as_json:
        rows = {
            d: {**e, "features": sorted(e["features"]), "libraries": sorted(e["libraries"])}
            for d, e in per_domain.items()
        }
        typer.echo(
            json.dumps(
                {"domains": rows, "features": per_feature, "tasks": [t.ident for t in tasks]},
                indent=1,
            )
        )
        return
    table = Table(title=f"{len(tasks)} tasks in {len(per_domain)} domains")
    for col in ("domain", "tasks", "recorded", "features used", "libraries"):
        table.add_column(col, justify="right" if col in ("tasks", "recorded") else "left")
    for d, e in per_domain.items():
        table.add_row(
            d,
            str(e["tasks"]),
            str(e["recorded"]),
            str(len(e["features"])),
            ", ".join(sorted(e["libraries"])) or "–",
        )
    out.print(table)
    features = Table(title="feature coverage (tasks using each feature)")
    features.add_column("feature")
    features.add_column("tasks", justify="right")
    for name, count in sorted(per_feature.items(), key=lambda kv: (-kv[1], kv[0])):
        features.add_row(name, str(count) if count else "[red]0[/]")
    out.print(features)
    if show_tasks:
        for t in tasks:
            out.print(f"{t.ident}: {t.description}", markup=False)


def validate_command(domain: DomainOpt = None, task: TaskOpt = None,
                     compile_: Annotated[bool, typer.Option("--compile/--no-compile", help="Also compile each main.cu with nvcc.")] = True,
                     arch: Annotated[list[str] | None, typer.Option("--arch", help="nvcc arch (repeatable); default sm_90 and sm_80.")] = None,
                     jobs: Annotated[int, typer.Option("--jobs", "-j", help="Parallel compilations.")] = 2) -> None:  # fmt: skip
    """Check every task.toml and main.cu; compile each with nvcc for sm_90 and sm_80."""
    from cass.models.bench.validate import DEFAULT_ARCHS, validate_tasks

    tasks = _tasks(domain, task)
    with _progress() as progress:
        bar = progress.add_task("validating", total=len(tasks))
        report = validate_tasks(tasks, archs=tuple(arch or DEFAULT_ARCHS), compile=compile_, jobs=jobs,
                                on_task=lambda t, p: progress.advance(bar))  # fmt: skip
    for problem in report.problems:
        out.print(problem.render(), markup=False)
    compiled = f", {report.compiled} compiled with nvcc" if compile_ else ""
    out.print(f"{report.checked} tasks checked{compiled}, {len(report.problems)} problem(s)")
    raise typer.Exit(0 if report.ok else 1)


def run_command(engine: Annotated[str, typer.Option("--engine", "-e", help="rules, lift, model, or all registered engines.")] = "rules",
                backend: Annotated[str, typer.Option("--backend", "-b", help="Where ports run: emulator or rocm.")] = "emulator",
                level: Annotated[str, typer.Option("--level", "-l", help="source (CUDA -> HIP) or assembly (SASS -> RDNA3).")] = "source",
                domain: DomainOpt = None, task: TaskOpt = None,
                jobs: Annotated[int, typer.Option("--jobs", "-j", help="Tasks evaluated in parallel processes.")] = max(1, (os.cpu_count() or 2) // 2),
                resume: Annotated[bool, typer.Option("--resume", help="Reuse cached results whose inputs did not change.")] = False,
                model: Annotated[str, typer.Option("--model", help="For the model engines: a .gguf file, checkpoint folder or URL (default $CASS_MODEL).")] = "",
                timeout: Annotated[float | None, typer.Option("--timeout", help="Seconds per port run (default: each task's timeout_s, x5 on the emulator).")] = None,
                sass_arch: Annotated[str, typer.Option("--sass-arch", help="Assembly level: translate the SASS of sm_80, sm_90, or all (both, reported per arch).")] = "sm_90",
                out_dir: OutOpt = DEFAULT_OUT) -> None:  # fmt: skip
    """Port every task, run the port, compare with the NVIDIA reference; write the reports."""
    from dataclasses import replace

    from cass.models.bench.attempt import LEVELS, PORT_BACKENDS, RunConfig
    from cass.models.bench.harness import run_benchmark
    from cass.models.bench.report import write_reports

    if backend not in PORT_BACKENDS:
        raise CassError(f"unknown backend {backend!r}: choose {' or '.join(PORT_BACKENDS)}")
    if level not in LEVELS:
        raise CassError(f"unknown level {level!r}: choose {' or '.join(LEVELS)}")
    tasks = _tasks(domain, task)
    if timeout is not None and timeout <= 0:
        raise CassError(f"--timeout must be a positive number of seconds, got {timeout}")
    archs = _sass_archs(sass_arch, level)
    config = RunConfig(
        _engines(engine, level, model),
        backend,
        level,
        max(1, jobs),
        resume,
        out_dir,
        timeout,
        model,
    )
    passed = [0, 0]  # passes, results so far

    def advance(result) -> None:
        passed[0] += int(result.passed)
        passed[1] += 1
        progress.update(
            bar,
            advance=1,
            description=f"{engine} on {backend}: {passed[0]}/{passed[1]} pass, last {result.task}",
        )

    with _progress() as progress:
        bar = progress.add_task(
            f"{engine} on {backend}", total=len(tasks) * len(config.engines) * len(archs)
        )
        results = [
            r
            for arch in archs
            for r in run_benchmark(tasks, replace(config, sass_arch=arch), on_result=advance)
        ]
    meta = {"command": "cass " + shlex.join(sys.argv[1:]) if sys.argv[1:] else "cass bench run",
            "backend": backend, "level": level, "engines": list(config.engines)}  # fmt: skip
    if level == "assembly":
        meta["sass_archs"] = list(archs)
    _print_summary(results, write_reports(results, out_dir, meta))


def report_command(out_dir: OutOpt = DEFAULT_OUT) -> None:
    """Rebuild report.md and accuracy.png from an earlier run's results.json."""
    from cass.models.bench.report import load_results, write_reports

    results, meta = load_results(out_dir)
    _print_summary(results, write_reports(results, out_dir, meta))


def _print_summary(results: list, paths: dict[str, Path]) -> None:
    from cass.models.bench.report import summarize

    table = Table(title="accuracy (output matches the NVIDIA reference)")
    table.add_column("engine")
    table.add_column("passed", justify="right")
    table.add_column("tasks", justify="right")
    table.add_column("accuracy", justify="right")
    for engine, s in summarize(results).items():
        o = s["overall"]
        table.add_row(engine, str(o["passed"]), str(o["tasks"]), f"{100 * o['accuracy']:.1f}%")
    out.print(table)
    for kind, path in paths.items():
        out.print(f"{kind}: {path}", markup=False)


def _progress() -> Progress:
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=err, transient=True)  # fmt: skip


def families_command(
    check: Annotated[
        bool,
        typer.Option(
            "--check", help="Only list generated files that are out of date; exit 1 if any."
        ),
    ] = False,
) -> None:
    """(Re)write the task folders generated from models/bench/family_templates/ (fam_* tasks)."""
    from cass.models.bench.families import generate

    stale = generate(check=check)
    for path in stale:
        typer.echo(f"{'out of date' if check else 'wrote'}: {path}")
    raise typer.Exit(1 if check and stale else 0)


def register(app: typer.Typer) -> None:
    bench = typer.Typer(
        help="The benchmark: tasks across GPU domains, scored by execution.", no_args_is_help=True
    )
    bench.command("list")(list_command)
    bench.command("validate")(validate_command)
    bench.command("run")(run_command)
    bench.command("report")(report_command)
    bench.command("families")(families_command)
    app.add_typer(bench, name="bench")
