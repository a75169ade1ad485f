"""`cass emulate PROGRAM [ARGS]` and `cass run-hip FILE.hip [ARGS]`: run HIP programs on the
emulated gfx1100 GPU (no AMD GPU needed)."""

from __future__ import annotations

import signal
import sys
import tempfile
from pathlib import Path
from typing import Annotated

import typer
from cass.server.cli.errors import EXIT_TIMEOUT, ProgramEnded
from cass.server.cli.run_options import (
    CpuLimit,
    FileSizeLimit,
    MaxOutput,
    MemoryLimit,
    ProcessLimit,
    Sandbox,
    limits_from,
    output_limit,
    print_captured,
)

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
EngineOpt = Annotated[
    str | None,
    typer.Option(
        "--engine",
        metavar="interp|jit|both",
        help="How kernels run: the interpreter, translated to host code (the interpreter for "
        "what is not translated), or both, compared launch by launch "
        "(default: $CASS_EMULATOR_ENGINE, else jit).",
    ),
]

RaceCheck = Annotated[
    bool,
    typer.Option(
        "--race-check",
        help="Report waves of a workgroup that touch the same LDS bytes between the same "
        "barriers, one writing (a race: the result may depend on the order waves run); "
        "translated waves run on one thread ($CASS_EMULATOR_RACE_CHECK).",
    ),
]


def _engine_env(engine: str | None, race_check: bool = False) -> dict[str, str] | None:
    """The program's environment with CASS_EMULATOR_ENGINE (and CASS_EMULATOR_RACE_CHECK) set,
    or None to inherit ours."""
    if engine is None and not race_check:
        return None
    import os

    from cass.runner.emulator.kinds import Engine
    from cass.runner.emulator.races import ENV

    env = dict(os.environ)
    if engine is not None:
        if engine not in {e.value for e in Engine}:
            raise typer.BadParameter(
                f"{engine!r} is not one of interp, jit, both", param_hint="--engine"
            )
        if engine == Engine.BOTH and race_check:
            raise typer.BadParameter(
                "--race-check runs with the interp or jit engine, not both", param_hint="--engine"
            )
        env["CASS_EMULATOR_ENGINE"] = engine
    if race_check:
        env[ENV] = "1"
    return env


def _finish(run, stats: bool, max_output: int) -> None:
    """After the run's output: the truncation note, the statistics line, how a limit ended it."""
    if run.output_truncated:
        sys.stderr.write(
            f"cass: output truncated at {max_output} bytes: the program was stopped (raise --max-output)\n"
        )
    if stats:
        sys.stderr.write(run.stats.summary() + "\n")
    if run.timed_out:
        raise ProgramEnded(
            "the program ran past its time limit and was stopped (use --timeout)", EXIT_TIMEOUT
        )
    if run.limit:
        sys.stderr.write(f"cass: the program {run.limit}\n")
    number = run.signal or (-run.exit_code if run.exit_code < 0 else None)
    if number and not run.output_truncated:  # a signal ended it: name it, exit 128 + N
        raise ProgramEnded(f"the program was killed by {signal_name(number)}", 128 + number)
    raise typer.Exit(1 if run.output_truncated else run.exit_code)


def signal_name(number: int) -> str:
    """'signal 11 (SIGSEGV)'; the bare number for one Python does not name."""
    try:
        return f"signal {number} ({signal.Signals(number).name})"
    except ValueError:
        return f"signal {number}"


def _run(program: Path, args, timeout: float, trace, max_output: int, limits, env=None):
    """Run on the emulator; its output is captured to files and then streamed to ours."""
    from cass.runner.emulator import run_program

    with tempfile.TemporaryDirectory(prefix="cass-output-") as logs:
        run = run_program(program, args or (), timeout_s=timeout, trace=trace, max_output_bytes=max_output,
                          limits=limits, output_dir=Path(logs), env=env)  # fmt: skip
        print_captured(run.stdout_path, run.stderr_path, max_output)
    run.stdout_path = run.stderr_path = None
    return run


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
        max_output: MaxOutput = "64M",
        memory_limit: MemoryLimit = None,
        cpu_limit: CpuLimit = None,
        process_limit: ProcessLimit = None,
        file_size_limit: FileSizeLimit = None,
        sandbox: Sandbox = False,
        engine: EngineOpt = None,
        race_check: RaceCheck = False,
    ) -> None:
        """Run a HIP program (built with `cass run-hip --output`) on the emulated gfx1100."""
        from cass.runner.inputs import check_program

        env = _engine_env(engine, race_check)
        check_program(program, build_hint=" (build one with `cass run-hip FILE.hip -o PROGRAM`)")
        limits = limits_from(memory_limit, cpu_limit, process_limit, file_size_limit, sandbox)
        cap = output_limit(max_output)
        _finish(_run(program, args, timeout, trace, cap, limits, env), stats, cap)

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
        force: Annotated[
            bool, typer.Option("--force", help="Overwrite an existing --output file.")
        ] = False,
        trace: Trace = None,
        timeout: Timeout = 600,
        stats: Stats = True,
        max_output: MaxOutput = "64M",
        memory_limit: MemoryLimit = None,
        cpu_limit: CpuLimit = None,
        process_limit: ProcessLimit = None,
        file_size_limit: FileSizeLimit = None,
        sandbox: Sandbox = False,
        engine: EngineOpt = None,
        race_check: RaceCheck = False,
    ) -> None:
        """Compile a HIP program with clang-16 for gfx1100, link it against the cass HIP runtime
        and run it on the emulator."""
        from cass.runner.emulator import build_hip_program

        limits = limits_from(memory_limit, cpu_limit, process_limit, file_size_limit, sandbox)
        cap = output_limit(max_output)
        env = _engine_env(engine, race_check)  # a bad --engine is reported before the build

        level = opt if opt.startswith("-O") else f"-O{opt}"
        from cass.runner.inputs import read_input
        from cass.runner.outputs import check_output, install_file

        read_input(source)  # a missing, special or unreadable source is one line
        if output is not None:
            check_output(output, inputs=[source], force=force)
        with tempfile.TemporaryDirectory(prefix="cass-run-hip-") as tmp:
            exe = Path(tmp) / (source.stem or "program")
            build_hip_program(source, exe, extra_args=[level, *(clang_arg or [])])
            if output is not None:
                install_file(exe, output, inputs=[source], force=force)
            run = _run(exe, args, timeout, trace, cap, limits, env)
        _finish(run, stats, cap)
