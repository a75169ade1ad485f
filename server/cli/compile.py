"""`cass compile`: one CUDA, HIP or RDNA3 assembly file through its compiler stack."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console

from cass.runner.compile import EMITS, TEXT_EMITS, CompileResult, compile_file

err = Console(stderr=True, highlight=False, soft_wrap=True)

EMIT_HELP = "; ".join(f"{kind}: {', '.join(emits)}" for kind, emits in EMITS.items())


def split_emits(values: list[str]) -> list[str]:
    return [e.strip() for v in values for e in v.split(",") if e.strip()]


def print_texts(result: CompileResult, emits: list[str]) -> None:
    texts = [e for e in emits if e in TEXT_EMITS]
    for emit in texts:
        if len(texts) > 1:
            typer.echo(f"// ===== {emit}: {result.source} ({result.arch}) =====")
        typer.echo(result.texts[emit], nl=not result.texts[emit].endswith("\n"))


def register(app: typer.Typer) -> None:
    @app.command("compile")
    def compile_command(
        source: Annotated[Path, typer.Argument(help="A .cu, .hip or RDNA3 .s file.")],
        emit: Annotated[
            list[str], typer.Option("--emit", "-e", help=f"What to produce (repeat or comma-separate). {EMIT_HELP}.")
        ] = [],  # noqa: B006 - typer needs a literal default
        arch: Annotated[
            Optional[str], typer.Option("--arch", help="CUDA arch (sm_80, sm_86, sm_89, sm_90; default: local GPU, else sm_80).")
        ] = None,
        offload_arch: Annotated[
            Optional[str], typer.Option("--offload-arch", help="AMD arch for .hip/.s (default gfx1100).")
        ] = None,
        output_dir: Annotated[
            Optional[Path], typer.Option("--output-dir", "-o", help="Folder for the artifacts (default: . for binaries).")
        ] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print a JSON manifest with one entry per kernel.")] = False,
        include: Annotated[list[str], typer.Option("-I", help="Extra include folder (repeatable).")] = [],  # noqa: B006
    ) -> None:
        """Compile one file: CUDA to PTX/cubin/SASS/host asm/executable, HIP to RDNA3/code object/host
        asm/host object, RDNA3 assembly to a code object."""
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
