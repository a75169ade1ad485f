"""`cass port`: CUDA source -> HIP source for a file, stdin, or a whole project directory."""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer
from cass.models.engine import Target
from cass.models.registry import MODEL_ENGINES, get_engine
from cass.models.rules.engine import check_target
from cass.models.rules.project import (
    port_project,
    read_source,
    read_stdin_source,
    summary,
    translate_text,
)
from cass.models.rules.report import render
from cass.runner.diagnostics import CassError, Diagnostic, Severity
from cass.runner.outputs import check_output, write_atomic
from cass.runner.toolchain import DEFAULT_GFX_ARCH
from rich.console import Console

err = Console(emoji=False, stderr=True)


class Format(str, Enum):
    text = "text"
    json = "json"
    sarif = "sarif"


def _emit_report(
    diagnostics: list[Diagnostic], fmt: Format, report: Path | None, engine_version: str
) -> None:
    text = render(diagnostics, fmt.value, engine_version)
    if report is not None:
        write_atomic(report, text)
    elif text:
        sys.stderr.write(text)


def _exit_code(diagnostics: list[Diagnostic]) -> int:
    return 1 if any(d.severity is Severity.ERROR for d in diagnostics) else 0


def _check_outputs(
    source: Path | None, output: Path | None, report: Path | None, force: bool
) -> None:
    """Refuse before any work: an output or report that is the input, a link, a special file,
    or an existing file without --force; -o and --report naming one file."""
    inputs = [source] if source is not None else []
    if output is not None and not (source is not None and source.is_dir()):
        check_output(output, inputs=inputs, force=force)
    if report is not None:
        if output is not None and report.absolute() == output.absolute():
            raise CassError(f"{report}: is also the -o output; choose another --report path")
        check_output(report, inputs=inputs, force=force)


def _port_file(source: Path | None, output: Path | None, target: Target, engine: str):
    if source is None:
        translation = translate_text(read_stdin_source(sys.stdin.buffer), "<stdin>", target, engine)
    else:
        translation = translate_text(read_source(source), str(source), target, engine)
    if output is None:
        sys.stdout.write(translation.text)
        sys.stdout.flush()
        return translation
    write_atomic(output, translation.text)
    return translation


def port(
    path: Annotated[
        Path | None, typer.Argument(help="A .cu/.cuh file, a project directory, or - (stdin).")
    ] = None,
    output: Annotated[
        Path | None,
        typer.Option(
            "-o", "--output", help="Output file (or directory for a project); - for stdout."
        ),
    ] = None,
    hip_version: Annotated[
        str, typer.Option("--hip-version", help="Target HIP version: 5.2 (Debian), 6.x, 7.x.")
    ] = "5.2",
    arch: Annotated[
        str, typer.Option("--arch", help="Target gfx arch; gfx9xx are wave64.")
    ] = DEFAULT_GFX_ARCH,
    fmt: Annotated[Format, typer.Option("--format", help="Diagnostics format.")] = Format.text,
    report: Annotated[
        Path | None, typer.Option("--report", help="Write diagnostics to this file, not stderr.")
    ] = None,
    engine: Annotated[str, typer.Option("--engine", help="Translation engine.")] = "rules",
    force: Annotated[bool, typer.Option("--force", help="Overwrite existing output.")] = False,
    model: Annotated[
        str,
        typer.Option(
            "--model",
            help="model/auto engines: a GGUF file, a checkpoint directory or an http:// server URL.",
        ),
    ] = "",
    candidates: Annotated[
        int,
        typer.Option("--candidates", help="model/auto engines: candidates to try, each verified."),
    ] = 4,
    include_dirs: Annotated[
        list[Path] | None,
        typer.Option(
            "-I", "--include-dir", help="Project mode: an include directory (repeatable)."
        ),
    ] = None,
    in_place: Annotated[
        bool,
        typer.Option(
            "--in-place",
            help="Replace each changed file by its port; originals go to a backup folder beside it.",
        ),
    ] = False,
    dry_run: Annotated[
        bool,
        typer.Option(
            "--dry-run", help="Write nothing: print what the port changes as a unified diff."
        ),
    ] = False,
    hoist_argument_calls: Annotated[
        bool,
        typer.Option(
            "--hoist-argument-calls",
            help="Evaluate arguments that call the same function (CASS068) into variables first, in nvcc's host compiler's order (right to left).",
        ),
    ] = False,
) -> None:
    """Port CUDA source to HIP. Exit 1 when an error-level construct remains (the port is still written)."""
    target = Target(
        gfx_arch=arch, hip_version=hip_version, hoist_argument_calls=hoist_argument_calls
    )
    check_target(target)
    source = None if path is None or str(path) == "-" else path
    if output is not None and str(output) == "-":  # `-o -`: the port goes to stdout
        if source is not None and source.is_dir():
            raise CassError(f"{source}: a project's port is a directory: give -o OUTDIR, not -o -")
        output = None
    if in_place or dry_run:
        raise typer.Exit(
            _port_where_it_is(
                source, output, target, engine, include_dirs or [], fmt, report, force, dry_run
            )
        )
    _check_outputs(source, output, report, force)
    if engine in MODEL_ENGINES:
        from cass.server.cli.model import port_with_model

        raise typer.Exit(port_with_model(source, output, target, engine, model, candidates, force))
    if source is not None and source.is_dir():
        if output is None:
            raise CassError(f"{source}: is a directory; give -o OUTDIR for the ported project")
        with err.status("porting…") as status:
            project = port_project(
                source,
                output,
                target,
                engine,
                force=force,
                include_dirs=include_dirs or [],
                progress=lambda name: status.update(f"ported {name}"),
            )
        diagnostics = project.diagnostics
        _emit_report(diagnostics, fmt, report, get_engine(engine).version)
        sys.stderr.write(summary(project))
        raise typer.Exit(_exit_code(diagnostics))
    else:
        translation = _port_file(source, output, target, engine)
        diagnostics = list(translation.diagnostics)
    _emit_report(diagnostics, fmt, report, get_engine(engine).version)
    raise typer.Exit(_exit_code(diagnostics))


def _port_where_it_is(
    source: Path | None,
    output: Path | None,
    target: Target,
    engine: str,
    include_dirs: list[Path],
    fmt: Format,
    report: Path | None,
    force: bool,
    dry_run: bool,
) -> int:
    """--in-place / --dry-run: the sources themselves are the output (or nothing is written)."""
    from cass.models.rules import in_place

    what = "--dry-run" if dry_run else "--in-place"
    if source is None:
        raise CassError(f"{what} needs a file or project directory, not stdin")
    if output is not None:
        raise CassError(f"{what} writes no -o output: drop -o {output}")
    if engine in MODEL_ENGINES:
        raise CassError(f"{what} works with the rules engine; model ports go to -o")
    if report is not None:
        check_output(report, inputs=[source], force=force)
    if source.is_dir():
        with err.status("porting…") as status:
            changes, project = in_place.project_changes(
                source, target, engine, include_dirs, lambda name: status.update(f"ported {name}")
            )
        diagnostics = project.diagnostics
    else:
        changes, diagnostics = in_place.file_changes(source, target, engine)
    if dry_run:  # bytes that are not UTF-8 in a source go out as they came in
        sys.stdout.flush()
        sys.stdout.buffer.write(in_place.unified_diff(changes).encode("utf-8", "surrogateescape"))
        sys.stdout.buffer.flush()
    elif changes:
        backup = in_place.backup_folder(source)
        in_place.apply_in_place(changes, backup, single_file=not source.is_dir())
        err.print(
            f"ported in place: {len(changes)} file(s) changed; originals in {backup}",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )
    else:
        err.print("ported in place: nothing to change", markup=False, highlight=False)
    _emit_report(diagnostics, fmt, report, get_engine(engine).version)
    return _exit_code(diagnostics)


def register(app: typer.Typer) -> None:
    app.command("port")(port)
