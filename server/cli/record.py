"""`cass record PATH...`: record reference outputs on this machine's NVIDIA GPU.

The work is `cass.runner.record`; on a GPU machine where cass is not installed,
`python3 benchmarks/record_references.py PATH...` runs the same from a bare checkout.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from cass.runner.record import record_paths, summary


def register(app: typer.Typer) -> None:
    @app.command()
    def record(
        paths: Annotated[
            list[Path],
            typer.Argument(help=".cu files or folders to search for programs with a main()."),
        ],
        jobs: Annotated[
            int | None, typer.Option("--jobs", "-j", help="Builds at once (default: CPU cores).")
        ] = None,
        gpu_jobs: Annotated[
            int, typer.Option("--gpu-jobs", help="Programs running on the GPU at once.")
        ] = 1,
        timeout: Annotated[
            float | None,
            typer.Option("--timeout", help="Seconds per run (default: the run spec's)."),
        ] = None,
        force: Annotated[
            bool, typer.Option("--force", help="Re-record programs whose record is up to date.")
        ] = False,
    ) -> None:
        """Record the reference output of every CUDA program under PATHS on the local NVIDIA GPU
        (SOURCE.cu.recorded.toml beside each). Exit 1 when some failed, 2 without a GPU or nvcc."""
        outcomes = record_paths(paths, jobs=jobs, gpu_jobs=gpu_jobs, timeout_s=timeout, force=force,
                                report=lambda line: typer.echo(line))  # fmt: skip
        typer.echo(summary(outcomes))
        raise typer.Exit(1 if any(o.status == "failed" for o in outcomes) else 0)
