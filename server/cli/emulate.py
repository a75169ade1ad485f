"""`cass emulate PROGRAM [ARGS]` and `cass run-hip FILE.hip [ARGS]`: run HIP programs on the
emulated gfx1100 GPU (no AMD GPU needed)."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Annotated

import typer
from cass.runner.diagnostics import CassError

_PASS_THROUGH = {"allow_extra_args": True, "ignore_unknown_options": True}
Args = Annotated[list[str] | None, typer.Argument(help="Arguments passed to the program.")]
Trace = Annotated[
    str | None,
    typer.Option(
        "--trace",
        metavar="KERNEL[:WAVE]",
        help="Print every instruction of KERNEL (optionally one wave of each workgroup).",
    ),
]
Timeout = Annotated[float, typer.Option(help="Seconds before the program is stopped.")]
Stats = Annotated[bool, typer.Option(help="Print the emulator statistics line on stderr.")]


def _finish(run, stats: bool) -> None:
    sys.stdout.write(run.stdout)
    sys.stdout.flush()
    sys.stderr.write(run.stderr)
    if stats:
        sys.stderr.write(run.stats.summary() + "\n")
    if run.timed_out:
        raise CassError(
            "the program ran past its time limit and was stopped (use --timeout)", exit_code=124
        )
    raise typer.Exit(run.exit_code)


def register(app: typer.Typer) -> None:
    @app.command("emulate", context_settings=_PASS_THROUGH)
    def emulate(
        program: Annotated[
            Path, typer.Argument(help="HIP program built against the cass runtime.")
        ],
        args: Args = None,
        trace: Trace = None,
        timeout: Timeout = 600,
        stats: Stats = True,
    ) -> None:
        """Run a HIP program (built with `cass run-hip --output`) on the emulated gfx1100."""
        from cass.runner.emulator import run_program

        _finish(run_program(program, args or (), timeout_s=timeout, trace=trace), stats)

    @app.command("run-hip", context_settings=_PASS_THROUGH)
    def run_hip(
        source: Annotated[Path, typer.Argument(help="HIP source file (.hip/.cpp).")],
        args: Args = None,
        opt: Annotated[str, typer.Option("--opt", "-O", help="clang optimisation level.")] = "-O2",
        output: Annotated[
            Path | None, typer.Option("--output", "-o", help="Keep the executable here.")
        ] = None,
        clang_arg: Annotated[
            list[str] | None, typer.Option("--clang-arg", help="Extra clang argument (repeatable).")
        ] = None,
        trace: Trace = None,
        timeout: Timeout = 600,
        stats: Stats = True,
    ) -> None:
        """Compile a HIP program with clang-16 for gfx1100, link it against the cass HIP runtime
        and run it on the emulator."""
        from cass.runner.emulator import build_hip_program, run_program

        level = opt if opt.startswith("-O") else f"-O{opt}"
        with tempfile.TemporaryDirectory(prefix="cass-run-hip-") as tmp:
            exe = output or Path(tmp) / (source.stem or "program")
            build_hip_program(source, exe, extra_args=[level, *(clang_arg or [])])
            run = run_program(exe, args or (), timeout_s=timeout, trace=trace)
        _finish(run, stats)
