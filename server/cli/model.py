"""`cass model list|convert|check`, and `cass port --engine model|auto` (verified generation).

Thin: each command parses options, calls one function of cass.models.llm, prints a table.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from cass.models.engine import Target
from cass.runner.diagnostics import CassError
from cass.runner.outputs import check_output
from cass.server.cli.errors import VERDICT_STATUS
from rich.console import Console
from rich.table import Table

out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)


def _size(n: int) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.1f} {unit}" if unit != "B" else f"{n} B"
        n /= 1024
    return str(n)


def list_models(dirs: list[Path]) -> None:
    from cass.models.llm.catalog import CHECKPOINT_FILES, PUBLISHED, locate, model_dirs

    folders = model_dirs(dirs)
    table = Table(title="Published CASS models (Qwen2.5-Coder fine-tunes)")
    for column in ("model", "task", "SASS arch", "base", "you have"):
        table.add_column(column)
    found = {model.name: locate(model, folders) for model in PUBLISHED}
    for model in PUBLISHED:
        have = f"{len(found[model.name])} copy(ies)" if found[model.name] else "-"
        table.add_row(model.name, model.task, model.sass_arch or "-", model.base, have)
    out.print(table)
    for name, paths in found.items():
        for path in paths:
            out.print(f"{name}: {path}", markup=False)
    out.print(
        f"expected files of a checkpoint: {', '.join(CHECKPOINT_FILES)}; looked in: {', '.join(map(str, folders))}",
        markup=False,
    )
    out.print(
        "convert one with `cass model convert CHECKPOINT_DIR --quant q8_0 -o NAME-q8_0.gguf`",
        markup=False,
    )


def convert(checkpoint: Path, output: Path, quant: str, force: bool) -> None:
    from cass.models.llm.convert import convert_checkpoint

    with err.status(f"converting {checkpoint} to {quant}") as status:
        count = convert_checkpoint(
            checkpoint,
            output,
            quant,
            overwrite=force,
            progress=lambda n: status.update(f"{quant}: {n}"),
        )
    out.print(
        f"wrote {output} ({_size(output.stat().st_size)}, {count} tensors, {quant})", markup=False
    )


def check(path: Path, tokens: int, gpu_layers: int) -> None:
    from cass.models.llm.check import check_model

    with err.status(f"loading {path} and generating {tokens} tokens"):
        report = check_model(path, tokens, gpu_layers)
    info = report.info
    table = Table(title=f"{path}: ok")
    table.add_column("property")
    table.add_column("value")
    rows = [
        ("architecture", info.architecture), ("name", info.name), ("file size", _size(info.size_bytes)),
        ("parameters", f"{info.parameters:,}"), ("tensor types", ", ".join(f"{k} x{v}" for k, v in sorted(info.tensor_types.items()))),
        ("training context", str(info.context_length)), ("vocabulary", str(info.vocab_size)),
        ("chat template", f"{len(info.chat_template)} characters"), ("load time", f"{report.load_s:.2f} s"),
        ("prompt tokens", str(report.prompt_tokens)), ("generated tokens", str(report.generated_tokens)),
        ("generation speed", f"{report.tokens_per_s:.1f} tokens/s"),
    ]  # fmt: skip
    for name, value in rows:
        table.add_row(name, value)
    out.print(table)


def _show_attempt(attempt) -> None:
    temperature = "" if attempt.temperature is None else f", temperature {attempt.temperature:g}"
    err.print(
        f"candidate {attempt.number} ({attempt.engine}{temperature}): {attempt.status}: {attempt.message}",
        markup=False,
    )


def port_with_model(source: Path | None, output: Path | None, target: Target, engine: str, model: str,
                    candidates: int, force: bool) -> int:  # fmt: skip
    """`cass port FILE --engine model|auto --model M`: candidates verified, the first match kept.
    The exit status is the delivered port's verdict (0 match, 1 wrong, 2 unverifiable)."""
    from cass.models.workflow.porting import port_and_verify

    if source is None or source.is_dir():
        raise CassError(
            "--engine model/auto verifies each port against its original: give one .cu file (not stdin or a directory)"
        )
    if output is not None:
        check_output(output, inputs=[source], force=force)
    with err.status(
        f"porting {source} with the {engine} engine ({candidates} candidate(s) at most), verifying each"
    ):
        outcome = port_and_verify(source, engine=engine, model=model, candidates=candidates, output=output,
                                  overwrite=force, target=target, on_attempt=_show_attempt)  # fmt: skip
    for note in outcome.notes:
        err.print(f"note: {note}", markup=False)
    for d in outcome.translation.diagnostics:
        err.print(d.render(), markup=False)
    err.print(
        f"delivered: {outcome.translation.engine} port, {outcome.verdict.status}: {outcome.verdict.message}",
        markup=False,
    )
    if output is None:
        sys.stdout.write(outcome.port_path.read_text(encoding="utf-8"))
        sys.stdout.flush()
        outcome.cleanup()
    return VERDICT_STATUS[outcome.verdict.status]


def register(app: typer.Typer) -> None:
    group = typer.Typer(
        help="The published CASS models: list, convert to GGUF, check.", no_args_is_help=True
    )

    @group.command("list")
    def list_command(
        dirs: Annotated[
            list[Path], typer.Option("--dir", help="Another folder holding models (repeatable).")
        ] = [],  # noqa: B006
    ) -> None:
        """The published CASS models, their task and arch, and where you have them."""
        list_models(dirs)

    @group.command("convert")
    def convert_command(
        checkpoint: Annotated[
            Path, typer.Argument(help="A Qwen2 Hugging Face checkpoint directory.")
        ],
        output: Annotated[Path, typer.Option("-o", "--output", help="The GGUF file to write.")],
        quant: Annotated[str, typer.Option("--quant", help="f16, q8_0 or q4_0.")] = "q8_0",
        force: Annotated[
            bool, typer.Option("--force", help="Overwrite an existing output.")
        ] = False,
    ) -> None:
        """Convert a checkpoint (with its tokenizer and chat template) to a quantized GGUF."""
        convert(checkpoint, output, quant, force)

    @group.command("check")
    def check_command(
        model: Annotated[Path, typer.Argument(help="A GGUF file.")],
        tokens: Annotated[
            int, typer.Option("--tokens", help="Tokens to generate for the speed figure.")
        ] = 64,
        gpu_layers: Annotated[
            int, typer.Option("--gpu-layers", help="Layers to offload to a GPU (-1: all).")
        ] = 0,
    ) -> None:
        """Load a GGUF, validate its metadata, report its size and tokens/s."""
        check(model, tokens, gpu_layers)

    app.add_typer(group, name="model")
