"""`cass tables generate` (the mapping tables from real CUDA and HIP headers), `cass tables docs`
(the support matrix and the diagnostic codes table generated from them) and `cass tables facts`
(the identifiers of a header that cannot be installed here, as a committed facts file)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from cass.runner.diagnostics import CassError


def generate(
    cuda: Annotated[Path, typer.Option("--cuda", help="CUDA include folder.")] = Path(
        "/usr/local/cuda/include"
    ),
    hip: Annotated[Path, typer.Option("--hip", help="HIP include folder (hip/).")] = Path(
        "/usr/include/hip"
    ),
    api_headers: Annotated[
        Path | None,
        typer.Option(
            "--api-headers",
            help="hipBLAS/hipFFT/hipSOLVER include folder (default: what `cass setup --rocm-api-headers` installed).",
        ),
    ] = None,
) -> None:
    """Write the generated mapping tables (models/rules/tables) from the CUDA and HIP headers."""
    from cass.models.rules.generate import generate_tables

    for folder, what in ((cuda, "--cuda"), (hip, "--hip")):
        if not folder.is_dir():
            raise CassError(f"{folder}: no such folder; give the headers' folder with {what}")
    for path in generate_tables(cuda, hip, api_headers):
        typer.echo(str(path))


def docs(
    check: Annotated[
        bool, typer.Option("--check", help="Only check: exit 1 when a committed document is stale.")
    ] = False,
) -> None:
    """Write docs/rules-support-matrix.md and docs/rules-diagnostics.md from the tables."""
    from cass.models.rules.docs import stale_documents, write_documents

    if check:
        stale = stale_documents()
        if stale:
            typer.echo(f"stale: {', '.join(stale)}; run cass tables docs", err=True)
            raise typer.Exit(1)
        return
    for path in write_documents():
        typer.echo(str(path))


def facts(
    text: Annotated[Path, typer.Argument(help="A header's text, as read from its repository.")],
    repository: Annotated[str, typer.Option("--repository", help="owner/name of the repository.")],
    path: Annotated[str, typer.Option("--path", help="The header's path in the repository.")],
    commit: Annotated[str, typer.Option("--commit", help="The full 40-digit commit read.")],
    tag: Annotated[
        str, typer.Option("--tag", help="The release tag of that commit, or 'not established'.")
    ],
    label: Annotated[
        str, typer.Option("--label", help="What the support matrix calls this header.")
    ],
    output: Annotated[
        Path,
        typer.Option("-o", "--output", help="The facts file to write (tables/facts/NAME.ids)."),
    ],
    force: Annotated[
        bool, typer.Option("--force", help="Overwrite an existing facts file.")
    ] = False,
) -> None:
    """Write a facts file: the identifiers a header's code declares (read with cass's lexer) and
    where the header came from, for the rows checked against a header that cannot be installed."""
    from cass.models.rules.hipify_facts import write_facts

    fields = {"repository": repository, "path": path, "commit": commit, "tag": tag, "label": label}
    write_facts(text, fields, output, force)
    typer.echo(str(output))


def register(app: typer.Typer) -> None:
    group = typer.Typer(
        help="The rules engine's mapping tables and the documents made from them.",
        no_args_is_help=True,
    )
    group.command("generate")(generate)
    group.command("docs")(docs)
    group.command("facts")(facts)
    app.add_typer(group, name="tables")
