"""`cass dataset build`: aligned, execution-verified CUDA/HIP/SASS/RDNA3 records.

cass dataset build --synthetic 2000 --seed 1 -o data/
cass dataset build ../corpus/rodinia/ https://github.com/org/repo -o data/ -I include/
cass dataset build --synthetic 200 --references refs.json --ray local -o data/
cass dataset build --synthesise-with model.gguf --prompts 100 --seed 1 --run-unreferenced -o data/
cass dataset generate --synthetic 20 --seed 1 -o programs/     # the synthetic programs alone
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from cass.runner.diagnostics import CassError
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

out = Console(emoji=False, highlight=False, soft_wrap=True)
err = Console(emoji=False, stderr=True, highlight=False, soft_wrap=True)


def _synthesis_options(synthesise_with: str, prompts: int, temperature: float, max_tokens: int,
                       timeout: float) -> dict[str, Any]:  # fmt: skip
    """--synthesise-with and its settings, checked (one line each)."""
    if prompts and not synthesise_with:
        raise CassError(
            "--prompts needs --synthesise-with MODEL (bundled, a .gguf file, a checkpoint folder or a URL)"
        )
    if synthesise_with and prompts <= 0:
        raise CassError(
            "--synthesise-with needs --prompts N (how many templated prompts to ask the model)"
        )
    if not 0.0 <= temperature <= 2.0:
        raise CassError(f"--synthesis-temperature takes 0 to 2, got {temperature}")
    if max_tokens < 64 or timeout <= 0:
        raise CassError(
            "--synthesis-max-tokens takes 64 or more and --synthesis-timeout a positive number of seconds"
        )
    return {"synthesise_with": synthesise_with, "prompts": prompts, "synthesis_temperature": temperature,
            "synthesis_max_tokens": max_tokens, "synthesis_timeout_s": timeout}  # fmt: skip


def _build(sources: list[str], output: Path, synthetic: int, seed: int, arch: list[str], engine: str,
           references: Path | None, include: list[Path], workers: int, ray: str | None, no_verify: bool,
           run_unreferenced: bool, limit: int, force: bool, synthesis: dict[str, Any]) -> None:  # fmt: skip
    from cass.models.dataset.pipeline import BuildOptions, build, open_model

    if not sources and not synthetic and not synthesis["synthesise_with"]:
        raise CassError(
            "nothing to build from: give folders or git repositories of CUDA code, --synthetic N, "
            "or --synthesise-with MODEL --prompts N"
        )
    if synthetic < 0 or workers < 0 or limit < 0:
        raise CassError("--synthetic, --workers and --limit take a count of 0 or more")
    options = BuildOptions(list(sources), output, synthetic, seed, tuple(arch or ["sm_80"]), engine, references,
                           list(include), workers, ray, not no_verify, run_unreferenced, limit, force=force,
                           **synthesis)  # fmt: skip
    model = open_model(options)  # a bad model name fails here, before any output
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn(),
               TextColumn("{task.fields[tally]}"))  # fmt: skip
    tally: dict[str, int] = {}
    answers: dict[str, int] = {}
    with Progress(*columns, console=err, transient=False) as progress:
        tasks = {"programs": progress.add_task("collecting", total=None, tally="")}

        def report(stage: str, data: dict[str, Any] | None) -> None:
            if stage == "synthesis" and data:  # the model's prompts get a bar of their own
                tasks["prompts"] = progress.add_task("prompts", total=data["prompts"], tally="")
            elif stage == "answer" and data:
                outcome = (
                    data["extraction"] if data["finish"] in ("stop", "length") else data["finish"]
                )
                answers[outcome] = answers.get(outcome, 0) + 1
                progress.update(tasks["prompts"], advance=1, tally=_tally(answers))
            elif stage == "selected" and data:
                progress.update(tasks["programs"], description="programs", total=data["programs"])
            elif stage == "record" and data:
                status = data["verification"]["status"]
                tally[status] = tally.get(status, 0) + 1
                progress.update(tasks["programs"], advance=1, tally=_tally(tally))

        stats = build(options, report, model)
    _summary(stats, output)


def _tally(counts: dict[str, int]) -> str:
    return " ".join(f"{k} {v}" for k, v in sorted(counts.items()))


def _summary(stats: dict[str, Any], output: Path) -> None:
    from rich.table import Table

    table = Table(title=f"cass dataset: {output}")
    table.add_column("stage")
    table.add_column("programs", justify="right")
    for stage, count in stats["stages"].items():
        table.add_row(stage, str(count))
    out.print(table)
    synthesis = stats.get("synthesis") or {}
    if synthesis:
        out.print(f"model {synthesis['model']}: {synthesis['prompts']} prompts, {synthesis['answered']} answered, "
                  f"{synthesis['code']} with code ({synthesis['cached']} from the cache), {synthesis['compiled-nvidia']} "
                  f"compiled with nvcc, {synthesis['compiled-amd']} ported and compiled for gfx1100, "
                  f"{synthesis['accepted']} accepted")  # fmt: skip
    out.print(f"{stats['kernels']} aligned kernels; instructions: {stats['instructions']['source']} source, "
              f"{stats['instructions']['assembly']} assembly; card: {output / 'README.md'}")  # fmt: skip


def _generate(count: int, seed: int, output: Path, force: bool) -> None:
    from cass.models.dataset.synth import generate
    from cass.runner.outputs import write_output

    if count <= 0:
        raise CassError("--synthetic takes a count of 1 or more")
    for program in generate(count, seed):
        write_output(output / f"{program.ident}.cu", program.source, force=force)
    out.print(f"wrote {count} programs to {output}")


def register(app: typer.Typer) -> None:
    group = typer.Typer(
        help="Build datasets of aligned, execution-verified CUDA/HIP/SASS/RDNA3 records.",
        no_args_is_help=True,
    )
    app.add_typer(group, name="dataset")

    @group.command("build")
    def build_cmd(
        sources: Annotated[
            list[str] | None, typer.Argument(help="Folders or git repositories of CUDA code.")
        ] = None,
        output: Annotated[
            Path, typer.Option("-o", "--output", help="The dataset folder (a rerun resumes in it).")
        ] = Path("data"),
        synthetic: Annotated[
            int, typer.Option("--synthetic", help="Add N generated self-checking programs.")
        ] = 0,
        seed: Annotated[
            int, typer.Option("--seed", help="Seed of the synthetic generator and the prompts.")
        ] = 0,
        arch: Annotated[
            list[str] | None, typer.Option("--arch", help="SASS arch (repeatable; default sm_80).")
        ] = None,
        engine: Annotated[
            str, typer.Option("--engine", help="Port engine (from the engine registry).")
        ] = "rules",
        references: Annotated[
            Path | None,
            typer.Option(
                "--references",
                help="NVIDIA outputs (JSON from benchmarks/bench_dataset_record_nvidia.py).",
            ),
        ] = None,
        include: Annotated[
            list[Path] | None,
            typer.Option("-I", help="Include folder for every source (repeatable)."),
        ] = None,
        workers: Annotated[
            int, typer.Option("--workers", "-j", help="Parallel programs (default: one per core).")
        ] = 0,
        ray: Annotated[
            str | None,
            typer.Option("--ray", help="Run the stages as Ray tasks: auto, ADDRESS, or local."),
        ] = None,
        no_verify: Annotated[
            bool, typer.Option("--no-verify", help="Compile and align only; run nothing.")
        ] = False,
        run_unreferenced: Annotated[
            bool,
            typer.Option(
                "--run-unreferenced",
                help="Run real programs without an NVIDIA reference too (self-check only).",
            ),
        ] = False,
        limit: Annotated[
            int, typer.Option("--limit", help="Process at most N programs (after deduplication).")
        ] = 0,
        force: Annotated[
            bool,
            typer.Option("--force", help="Write into a non-empty folder that is no cass dataset."),
        ] = False,
        synthesise_with: Annotated[
            str,
            typer.Option(
                "--synthesise-with",
                help="A model that writes programs from templated prompts: bundled, a .gguf file, "
                "a checkpoint folder or an http(s):// server URL.",
            ),
        ] = "",
        prompts: Annotated[
            int, typer.Option("--prompts", help="How many templated prompts to ask it (by --seed).")
        ] = 0,
        synthesis_temperature: Annotated[
            float, typer.Option("--synthesis-temperature", help="Its sampling temperature.")
        ] = 0.7,
        synthesis_max_tokens: Annotated[
            int, typer.Option("--synthesis-max-tokens", help="Tokens per answer at most.")
        ] = 2048,
        synthesis_timeout: Annotated[
            float, typer.Option("--synthesis-timeout", help="Seconds per answer at most.")
        ] = 600.0,
    ) -> None:
        """Collect, deduplicate, decontaminate, port, compile, align, verify and write a dataset."""
        synthesis = _synthesis_options(synthesise_with, prompts, synthesis_temperature, synthesis_max_tokens,
                                       synthesis_timeout)  # fmt: skip
        _build(list(sources or []), output, synthetic, seed, list(arch or []), engine, references, list(include or []),
               workers, ray, no_verify, run_unreferenced, limit, force, synthesis)  # fmt: skip

    @group.command("generate")
    def generate_cmd(
        synthetic: Annotated[int, typer.Option("--synthetic", help="How many programs.")] = 20,
        seed: Annotated[int, typer.Option("--seed", help="Seed of the generator.")] = 0,
        output: Annotated[
            Path, typer.Option("-o", "--output", help="Folder for the .cu files.")
        ] = Path("programs"),
        force: Annotated[
            bool, typer.Option("--force", help="Overwrite programs that exist.")
        ] = False,
    ) -> None:
        """Write the synthetic generator's programs as .cu files (to read, or to record on a GPU)."""
        _generate(synthetic, seed, output, force)
