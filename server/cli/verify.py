"""`cass verify`: run the CUDA original and its HIP port, compare, print the verdict.

Exit status: 0 they agree, 1 they differ (or the port does not build / hangs), 2 cannot verify
here (the message names the missing tool, device or record).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from cass.runner.inputs import read_input
from cass.runner.spec import RunSpec, load_run_spec
from cass.server.cli.errors import VERDICT_STATUS
from cass.server.cli.run_options import CpuLimit, FileSizeLimit, MemoryLimit, ProcessLimit, Sandbox
from rich.console import Console

out = Console(emoji=False, highlight=False, soft_wrap=True)
err = Console(emoji=False, stderr=True, highlight=False, soft_wrap=True)

REF_HELP = "Backend for the original: auto (nvidia, else recorded), nvidia, recorded."
PORT_HELP = "Backend for the port: auto (rocm, else emulator), rocm, emulator."


def spec_with_overrides(original: Path, overrides: dict[str, Any]) -> RunSpec:
    """The file's run spec with command-line values on top (validated like config values)."""
    spec = load_run_spec(original)
    given = {k: v for k, v in overrides.items() if v not in (None, [], ())}
    if not given:
        return spec
    merged = {**spec.to_dict(), **given}
    return RunSpec.from_mapping(merged, where="command line")


def _record(original: Path, spec: RunSpec, as_json: bool) -> int:
    from cass.runner.record import record_source

    outcome = record_source(original, spec, force=True)
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "status": outcome.status,
                    "detail": outcome.detail,
                    "source": str(original),
                    "result": outcome.result.to_dict() if outcome.result else None,
                },
                indent=2,
            )
        )
    else:
        out.print(f"{outcome.status}: {original}: {outcome.detail}", markup=False)
    return 0 if outcome.status == "recorded" else 1


def _port_then_verify(
    original: Path,
    spec: RunSpec,
    backends: tuple,
    engine: str,
    port_out: Path | None,
    hip_version: str,
):
    from cass.models.engine import Target
    from cass.models.workflow.porting import port_and_verify

    target = Target(hip_version=hip_version)
    with err.status(f"porting {original} with the {engine} engine, then verifying"):
        outcome = port_and_verify(
            original, engine=engine, output=port_out, spec=spec, backends=backends, target=target
        )
    for d in outcome.translation.diagnostics:
        err.print(d.render(), markup=False)
    if outcome.temporary and outcome.verdict.status in ("match", "unverifiable"):
        outcome.cleanup()
    elif outcome.temporary:
        err.print(f"the port is kept for inspection: {outcome.port_path}", markup=False)
    return outcome.verdict


def register(app: typer.Typer) -> None:
    @app.command("verify")
    def verify_command(
        original: Annotated[Path, typer.Argument(help="The CUDA original (.cu).")],
        port: Annotated[
            Path | None, typer.Argument(help="Its HIP port (.hip); omitted: port it first.")
        ] = None,
        record: Annotated[
            bool,
            typer.Option(
                "--record",
                help="Run ORIGINAL on the local NVIDIA GPU and write ORIGINAL.recorded.toml.",
            ),
        ] = False,
        reference: Annotated[str, typer.Option("--reference", "-r", help=REF_HELP)] = "auto",
        port_backend: Annotated[str, typer.Option("--port-backend", "-p", help=PORT_HELP)] = "auto",
        engine: Annotated[
            str, typer.Option("--engine", help="Engine that ports ORIGINAL when PORT is omitted.")
        ] = "rules",
        port_out: Annotated[
            Path | None,
            typer.Option("--port-out", help="Where to write the port when PORT is omitted."),
        ] = None,
        hip_version: Annotated[
            str,
            typer.Option(
                "--hip-version",
                help="HIP version ORIGINAL is ported for when PORT is omitted (as `cass port`).",
            ),
        ] = "5.2",
        arg: Annotated[
            list[str],
            typer.Option("--arg", help="Program argument (repeatable; replaces the spec's)."),
        ] = [],  # noqa: B006
        rtol: Annotated[
            float | None, typer.Option("--rtol", help="Relative tolerance (default 1e-5).")
        ] = None,
        atol: Annotated[
            float | None, typer.Option("--atol", help="Absolute tolerance (default 1e-8).")
        ] = None,
        int_atol: Annotated[
            int | None,
            typer.Option(
                "--int-atol", help="Integer tokens may differ by this much (default 0: exact)."
            ),
        ] = None,
        int_rtol: Annotated[
            float | None,
            typer.Option(
                "--int-rtol", help="Integer tokens may differ by this fraction (default 0)."
            ),
        ] = None,
        expected_exit_code: Annotated[
            int | None,
            typer.Option(
                "--expected-exit-code",
                help="The original's exit code (default 0; any other: unverifiable).",
            ),
        ] = None,
        runs: Annotated[
            int | None, typer.Option("--runs", help="Runs per side; runtime is their median.")
        ] = None,
        timeout: Annotated[
            float | None,
            typer.Option("--timeout", help="Seconds per run on a GPU (the emulator gets 5x)."),
        ] = None,
        race_check: Annotated[
            bool,
            typer.Option(
                "--race-check",
                help="Run the port on the emulator with its LDS race check; a race it finds is "
                "noted in the verdict whatever its status (a mismatch is checked anyway).",
            ),
        ] = False,
        as_json: Annotated[bool, typer.Option("--json", help="Print the verdict as JSON.")] = False,
        memory_limit: MemoryLimit = None,
        cpu_limit: CpuLimit = None,
        process_limit: ProcessLimit = None,
        file_size_limit: FileSizeLimit = None,
        sandbox: Sandbox = False,
    ) -> None:
        """Build and run ORIGINAL and PORT, compare their outputs with tolerance, print a verdict."""
        read_input(original)  # missing, a directory, a FIFO or unreadable: one line
        overrides = {"args": list(arg), "rtol": rtol, "atol": atol, "int_atol": int_atol, "int_rtol": int_rtol,
                     "expected_exit_code": expected_exit_code, "runs": runs, "timeout_s": timeout}  # fmt: skip
        overrides |= {"memory_limit": memory_limit, "cpu_limit_s": cpu_limit, "process_limit": process_limit,
                      "file_size_limit": file_size_limit, "sandbox": True if sandbox else None}  # fmt: skip
        spec = spec_with_overrides(original, overrides)
        if race_check:  # the emulator's runs inherit it (not the spec: a recording's key)
            import os

            from cass.runner.emulator.races import ENV

            os.environ[ENV] = "1"
        if record:
            raise typer.Exit(_record(original, spec, as_json))
        backends = (reference, port_backend)
        if port is None:
            verdict = _port_then_verify(original, spec, backends, engine, port_out, hip_version)
        else:
            from cass.runner.verify import verify

            with err.status(f"verifying {port} against {original}"):
                verdict = verify(original, port, spec, backends=backends)
        if as_json:
            typer.echo(json.dumps(verdict.to_dict(), indent=2))
        else:
            from cass.runner.report import print_verdict

            print_verdict(verdict, out)
        raise typer.Exit(VERDICT_STATUS[verdict.status])
