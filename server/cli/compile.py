"""`cass compile`: one CUDA, HIP or RDNA3 assembly file through its compiler stack."""

from __future__ import annotations

import json
import shutil
import tempfile
from itertools import zip_longest
from pathlib import Path
from typing import Annotated

import typer
from cass.runner.compile import KernelPair, compile_file, side_by_side
from cass.runner.compile_steps import EMITS, TEXT_EMITS, CompileResult
from cass.runner.diagnostics import CassError
from rich.console import Console
from rich.table import Table
from rich.text import Text

err = Console(emoji=False, stderr=True, highlight=False, soft_wrap=True)

EMIT_HELP = "; ".join(f"{kind}: {', '.join(emits)}" for kind, emits in EMITS.items())


def split_emits(values: list[str]) -> list[str]:
    return [e.strip() for v in values for e in v.split(",") if e.strip()]


def print_texts(result: CompileResult, emits: list[str]) -> None:
    texts = [e for e in emits if e in TEXT_EMITS]
    for emit in texts:
        if len(texts) > 1:
            typer.echo(f"// ===== {emit}: {result.source} ({result.arch}) =====")
        typer.echo(result.texts[emit], nl=not result.texts[emit].endswith("\n"))


def pair_table(pair: KernelPair, arch: str, offload_arch: str) -> Table:
    table = Table(title=pair.name, title_justify="left")
    table.add_column(f"SASS {arch} ({len(pair.sass)} instructions)", overflow="fold")
    table.add_column(f"RDNA3 {offload_arch} ({len(pair.rdna3)} lines)", overflow="fold")
    for left, right in zip_longest(pair.sass, pair.rdna3, fillvalue=""):
        table.add_row(Text(left), Text(right))  # assembly is text, never markup
    return table


def show_side_by_side(
    first: Path, second: Path, arch: str | None, offload_arch: str | None, kernel: str | None
) -> None:
    cuda, hip = (first, second) if first.suffix == ".cu" else (second, first)
    if (cuda.suffix, hip.suffix) != (".cu", ".hip"):
        raise CassError(f"--beside pairs a .cu file with its .hip port (got {first} and {second})")
    pairs = side_by_side(cuda, hip, arch=arch, offload_arch=offload_arch)
    if kernel:
        pairs = [p for p in pairs if kernel in p.name]
    if not pairs:
        raise CassError(
            f"{cuda}: no kernel{f' matching {kernel!r}' if kernel else ''} found in both files"
        )
    out = Console(emoji=False, highlight=False)
    for pair in pairs:
        out.print(pair_table(pair, pair.cuda_arch, pair.hip_arch))


def register(app: typer.Typer) -> None:
    @app.command("compile")
    def compile_command(
        source: Annotated[Path, typer.Argument(help="A .cu, .hip or RDNA3 .s file.")],
        emit: Annotated[
            list[str],
            typer.Option(
                "--emit", "-e", help=f"What to produce (repeat or comma-separate). {EMIT_HELP}."
            ),
        ] = [],  # noqa: B006 - typer needs a literal default
        arch: Annotated[
            str | None,
            typer.Option(
                "--arch",
                help="CUDA arch (sm_80, sm_86, sm_89, sm_90; default: local GPU, else sm_80).",
            ),
        ] = None,
        offload_arch: Annotated[
            str | None,
            typer.Option("--offload-arch", help="AMD arch for .hip/.s (default gfx1100)."),
        ] = None,
        output_dir: Annotated[
            Path | None,
            typer.Option(
                "--output-dir", "-o", help="Folder for the artifacts (default: . for binaries)."
            ),
        ] = None,
        as_json: Annotated[
            bool, typer.Option("--json", help="Print a JSON manifest with one entry per kernel.")
        ] = False,
        include: Annotated[
            list[str], typer.Option("-I", help="Extra include folder (repeatable).")
        ] = [],  # noqa: B006
        beside: Annotated[
            Path | None,
            typer.Option(
                "--beside",
                help="The HIP port (or CUDA original): show both kernels' assembly side by side.",
            ),
        ] = None,
        kernel: Annotated[
            str | None,
            typer.Option("--kernel", help="With --beside: only kernels whose name contains this."),
        ] = None,
        force: Annotated[
            bool,
            typer.Option("--force", help="Replace artifacts that already exist in the folder."),
        ] = False,
    ) -> None:
        """Compile one file: CUDA to PTX/cubin/SASS/host asm/executable, HIP to RDNA3/code
        object/host asm/host object, RDNA3 assembly to a code object."""
        if beside is not None:
            return show_side_by_side(source, beside, arch, offload_arch, kernel)
        emits = split_emits(emit)
        binary = any(e not in TEXT_EMITS for e in emits) or (not emits and source.suffix == ".s")
        temporary = output_dir is None and not binary
        out = Path(tempfile.mkdtemp(prefix="cass-out-")) if temporary else (output_dir or Path("."))
        try:
            result = compile_file(
                source,
                emits,
                arch=offload_arch or arch,
                out_dir=out,
                kernels=as_json,
                extra_flags=[f"-I{d}" for d in include],
                force=force or temporary,
            )
            for d in result.diagnostics:
                err.print(d.render(), markup=False)
            if as_json:
                manifest = result.manifest()
                if temporary:
                    manifest["artifacts"] = {}
                typer.echo(json.dumps(manifest, indent=2))
            else:
                print_texts(result, list(result.artifacts))
            if not temporary:
                for emit_name, path in result.artifacts.items():
                    err.print(f"wrote {path} ({emit_name})", markup=False)
        finally:
            if temporary:
                shutil.rmtree(out, ignore_errors=True)
