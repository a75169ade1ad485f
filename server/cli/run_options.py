"""Command-line options shared by the commands that run programs (`verify`, `run-hip`,
`emulate`): resource limits, the network-less sandbox, the output limit; and the streaming of a
run's captured output to the terminal."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, BinaryIO

import typer
from cass.runner.limits import RunLimits, parse_size

MemoryLimit = Annotated[
    str | None,
    typer.Option(
        "--memory-limit",
        metavar="SIZE",
        help="Memory (heap and private mappings) a program may use, e.g. 16G; none for no limit (default: a third of this machine's memory).",
    ),
]
CpuLimit = Annotated[
    float | None,
    typer.Option(
        "--cpu-limit",
        metavar="SECONDS",
        help="CPU seconds a program may use (default: the time limit times the number of cores).",
    ),
]
ProcessLimit = Annotated[
    int | None,
    typer.Option(
        "--process-limit",
        metavar="N",
        help="Processes and threads a program may add (default 512).",
    ),
]
FileSizeLimit = Annotated[
    str | None,
    typer.Option(
        "--file-size-limit",
        metavar="SIZE",
        help="Largest file a program may write, e.g. 8G (default 4G).",
    ),
]
Sandbox = Annotated[
    bool,
    typer.Option(
        "--sandbox",
        help="Run programs without network (Linux user and network namespaces), e.g. for CI on untrusted pull requests.",
    ),
]
MaxOutput = Annotated[
    str,
    typer.Option(
        "--max-output",
        metavar="SIZE",
        help="Output (stdout + stderr) after which the program is stopped.",
    ),
]


def limits_from(
    memory: str | None,
    cpu: float | None,
    processes: int | None,
    file_size: str | None,
    sandbox: bool,
) -> RunLimits:
    """The default limits (with the CASS_RUN_* environment) and the given options on top."""
    base = RunLimits.defaults()
    return base.with_overrides(
        memory_bytes=parse_size(memory, "--memory-limit") if memory is not None else None,
        cpu_s=cpu,
        processes=processes,
        file_bytes=parse_size(file_size, "--file-size-limit") if file_size is not None else None,
        sandbox=True if sandbox else None,
    )


def output_limit(text: str) -> int:
    return parse_size(text, "--max-output") or (1 << 62)


def stream(path: Path | None, to: BinaryIO, limit: int) -> None:
    """Copy up to `limit` bytes of a captured output file to `to`, a chunk at a time (never all
    in memory; the program may have written past the limit before it was stopped)."""
    if path is None or not path.is_file():
        return
    with path.open("rb") as f:
        while limit > 0:
            chunk = f.read(min(limit, 1 << 20))
            if not chunk:
                break
            to.write(chunk)
            limit -= len(chunk)
    to.flush()


def print_captured(stdout: Path | None, stderr: Path | None, limit: int) -> None:
    sys.stdout.flush()
    stream(stdout, sys.stdout.buffer, limit)
    sys.stderr.flush()
    stream(stderr, sys.stderr.buffer, limit)
