"""`cass model list|train|convert|check`, and `cass port --engine model|auto` (verified generation).

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

out = Console(emoji=False, highlight=False, soft_wrap=True)
err = Console(emoji=False, stderr=True, highlight=False, soft_wrap=True)


def _size(n: int) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.1f} {unit}" if unit != "B" else f"{n} B"
        n /= 1024
    return str(n)


def list_models(dirs: list[Path]) -> None:
    from cass.models.llm.catalog import (
        BUNDLED,
        CHECKPOINT_FILES,
        PUBLISHED,
        bundled_model_path,
        locate,
        model_dirs,
    )

    folders = model_dirs(dirs)
    table = Table(title="CASS models: the published Qwen2.5-Coder fine-tunes, and the bundled one")
    for column in ("model", "task", "SASS arch", "base", "you have"):
        table.add_column(column)
    found = {model.name: locate(model, folders) for model in PUBLISHED}
    for model in PUBLISHED:
        have = f"{len(found[model.name])} copy(ies)" if found[model.name] else "-"
        table.add_row(model.name, model.task, model.sass_arch or "-", model.base, have)
    bundled = bundled_model_path()
    table.add_row(BUNDLED.name, "source, assembly", "sm_90", f"none ({BUNDLED.parameters}, from scratch)",
                  "installed (bundled, the default)" if bundled else "-")  # fmt: skip
    out.print(table)
    if bundled:
        out.print(f"{BUNDLED.name}: {bundled} (trained on {BUNDLED.trained_on})", markup=False)
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


def train(options, show_steps: bool = True) -> None:
    """`cass model train`: progress as it trains, then the run card's figures."""
    from cass.models.training.run import train as run_training
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=err, transient=not show_steps) as progress:
        bar = progress.add_task("preparing (tokenizer, packing)", total=None)

        def step(done: int, total: int, loss: float | None) -> None:
            progress.update(
                bar, completed=done, total=total, description=f"training, loss {loss:.4f}"
            )

        result = run_training(
            options, progress=step, note=lambda text: err.print(text, markup=False)
        )
    out.print((options.output / "README.md").read_text(encoding="utf-8"), markup=False)
    out.print(f"model: {result.model_dir}; loss curve: {options.output / 'loss.png'}", markup=False)


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


def train_command(
    data: Annotated[list[Path], typer.Option("--data", help="The dataset folder (its instructions/*.jsonl) or JSONL files (repeatable).")],
    output: Annotated[Path, typer.Option("-o", "--output", help="The training folder: checkpoints/, model/, loss.png, README.md.")],
    base: Annotated[Path | None, typer.Option("--base", help="A Hugging Face checkpoint folder to fine-tune.")] = None,
    from_scratch: Annotated[str | None, typer.Option("--from-scratch", help="A new Qwen2 model: tiny, 2m, 10m, 30m, 100m or 300m.")] = None,
    task: Annotated[str, typer.Option("--task", help="source, assembly or all.")] = "all",
    lora: Annotated[bool, typer.Option("--lora", help="Train LoRA adapters (peft) on --base, merged at the end.")] = False,
    lora_rank: Annotated[int, typer.Option("--lora-rank")] = 16,
    max_length: Annotated[int, typer.Option("--max-length", help="Tokens per packed sequence (the training context).")] = 2048,
    epochs: Annotated[float, typer.Option("--epochs")] = 1.0,
    max_steps: Annotated[int, typer.Option("--max-steps", help="Stop after this many steps (-1: the epochs decide).")] = -1,
    batch_size: Annotated[int, typer.Option("--batch-size", help="Sequences per device and step.")] = 4,
    grad_accum: Annotated[int, typer.Option("--grad-accum", help="Gradient accumulation steps.")] = 1,
    learning_rate: Annotated[float | None, typer.Option("--learning-rate", help="Default: 1e-3 from scratch, 2e-4 LoRA, 2e-5 full.")] = None,
    loss_on: Annotated[str, typer.Option("--loss-on", help="answer, all, or auto (all from scratch, answer otherwise).")] = "auto",
    no_packing: Annotated[bool, typer.Option("--no-packing", help="One example per sequence, padded.")] = False,
    gradient_checkpointing: Annotated[bool, typer.Option("--gradient-checkpointing")] = False,
    precision: Annotated[str, typer.Option("--precision", help="auto (bf16 on a GPU that has it), bf16, fp16, fp32.")] = "auto",
    deepspeed: Annotated[str | None, typer.Option("--deepspeed", help="zero2, zero3 or a DeepSpeed JSON config (launch with accelerate).")] = None,
    optim: Annotated[str, typer.Option("--optim", help="A transformers optimizer name, e.g. paged_adamw_8bit.")] = "adamw_torch",
    save_steps: Annotated[int, typer.Option("--save-steps", help="A resumable checkpoint every N steps.")] = 200,
    time_limit: Annotated[float | None, typer.Option("--time-limit", help="Seconds: then save a checkpoint and finish (continue with --resume).")] = None,
    seed: Annotated[int, typer.Option("--seed")] = 0,
    resume: Annotated[bool, typer.Option("--resume", help="Continue from the newest checkpoint in OUTPUT.")] = False,
    force: Annotated[bool, typer.Option("--force", help="Start again in a folder that holds an earlier run.")] = False,
) -> None:  # fmt: skip
    """Supervised fine-tuning (TRL) on the dataset's instruction JSONL; a model from scratch
    (with its own tokenizer) when there is no base checkpoint."""
    from cass.models.training.data import TASKS
    from cass.models.training.run import TrainOptions

    if task not in (*TASKS, "all"):
        raise CassError(f"unknown --task {task!r}; choose source, assembly or all")
    options = TrainOptions(
        data=data, output=output, base=base, scratch_size=from_scratch,
        tasks=TASKS if task == "all" else (task,), max_length=max_length, epochs=epochs,
        max_steps=max_steps, batch_size=batch_size, grad_accum=grad_accum, learning_rate=learning_rate,
        lora=lora, lora_rank=lora_rank, packing=not no_packing, loss_on=loss_on,
        gradient_checkpointing=gradient_checkpointing, precision=precision, deepspeed=deepspeed,
        optim=optim, save_steps=save_steps, time_limit_s=time_limit, seed=seed, resume=resume, force=force,
    )  # fmt: skip
    train(options)


def register(app: typer.Typer) -> None:
    group = typer.Typer(
        help="CASS models: list, train, convert to GGUF, check.", no_args_is_help=True
    )

    @group.command("list")
    def list_command(
        dirs: Annotated[
            list[Path], typer.Option("--dir", help="Another folder holding models (repeatable).")
        ] = [],  # noqa: B006
    ) -> None:
        """The published CASS models, their task and arch, and where you have them."""
        list_models(dirs)

    group.command("train")(train_command)

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
