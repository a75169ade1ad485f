"""`cass dataset build`: the whole pipeline, top to bottom.

    collect -> deduplicate -> decontaminate -> [port -> compile -> align -> verify] per program
            -> write (Parquet, instruction JSONL, card)

The per-program stages run in parallel: local processes by default (one per core), or Ray tasks
on a cluster (`ray="auto"` joins the running cluster, an address joins that one, "local" starts
one on this machine). Every stage is cached under OUT/cache, so running the same command again
after an interruption redoes only the programs that had not finished.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cass.models.dataset import dedup
from cass.models.dataset.collect import collect
from cass.models.dataset.stages import Config, Unit, process_unit
from cass.runner.diagnostics import CassError
from cass.runner.outputs import OutputError, write_atomic
from cass.runner.process import pool_worker_started

if TYPE_CHECKING:
    from cass.models.dataset.prompted import Synthesiser

MARKER = ".cass-dataset"


@dataclass
class BuildOptions:
    sources: list[str]
    out: Path
    synthetic: int = 0
    seed: int = 0
    archs: tuple[str, ...] = ("sm_80",)
    engine: str = "rules"
    references: Path | None = None
    include_dirs: list[Path] = field(default_factory=list)
    workers: int = 0  # 0: one per core
    ray: str | None = None  # None: local processes; "local", "auto" or a cluster address
    verify: bool = True
    run_unreferenced: bool = False
    limit: int = 0  # process at most this many programs (after deduplication); 0: all
    test_fraction: float = 0.05
    force: bool = False
    synthesise_with: str = ""  # a model that writes programs from templated prompts (prompted.py)
    prompts: int = 0
    synthesis_temperature: float = 0.7
    synthesis_max_tokens: int = 2048
    synthesis_timeout_s: float = 600.0


@dataclass
class Funnel:
    """How many programs reached each stage (the card's yields)."""

    counts: dict[str, int] = field(default_factory=dict)
    dropped: dict[str, list[dict[str, str]]] = field(default_factory=dict)
    synthesis: dict[str, Any] = field(default_factory=dict)  # the model's prompts and answers

    def add(self, stage: str, n: int) -> None:
        self.counts[stage] = n


def prepare_out(out: Path, force: bool) -> None:
    """OUT is new, empty, or a dataset folder cass made before (then the run resumes in it)."""
    if out.exists() and not out.is_dir():
        raise OutputError(f"{out}: is a file; give -o a folder for the dataset")
    if out.is_dir() and any(out.iterdir()) and not (out / MARKER).is_file() and not force:
        raise OutputError(
            f"{out}: exists, is not empty and is no cass dataset; choose another -o or pass --force"
        )
    out.mkdir(parents=True, exist_ok=True)
    write_atomic(
        out / MARKER,
        "a dataset folder written by `cass dataset build`; its cache/ makes a rerun resume\n",
    )


def load_references(path: Path | None) -> dict[str, dict[str, Any]]:
    """{CUDA source sha256: NVIDIA record} from the JSON lines benchmarks/bench_dataset_record_nvidia.py
    writes (`.jsonl`, optionally gzipped), or a JSON object of that mapping; {} for None."""
    if path is None:
        return {}
    import gzip

    try:
        raw = (
            gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
        ).decode("utf-8")
        if ".jsonl" in path.name:
            lines = [json.loads(line) for line in raw.splitlines() if line.strip()]
            data = {line["sha256"]: line for line in lines}
        else:
            data = json.loads(raw)
    except FileNotFoundError:
        raise CassError(
            f"{path}: no such references file; record one with benchmarks/bench_dataset_record_nvidia.py"
        ) from None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise CassError(
            f"{path}: not a references file ({exc}); expected JSON mapping source sha256 to a record"
        ) from None
    if not isinstance(data, dict):
        raise CassError(
            f"{path}: not a references file; expected a JSON object mapping source sha256 to a record"
        )
    return data


def select(units: list[Unit], funnel: Funnel) -> list[Unit]:
    """Deduplicate, then drop what overlaps the benchmark's tasks."""
    funnel.add("collected", len(units))
    result = dedup.deduplicate([u.cuda for u in units])
    funnel.dropped["exact-duplicate"] = [
        {"id": units[i].ident, "of": units[j].ident} for i, j in result.exact.items()
    ]
    funnel.dropped["near-duplicate"] = [
        {"id": units[i].ident, "of": units[j].ident} for i, j in result.near.items()
    ]
    kept = [units[i] for i in result.kept]
    funnel.add("unique", len(kept))
    if funnel.synthesis:
        funnel.synthesis["unique"] = sum(u.origin == "model" for u in kept)
    checker = dedup.Decontaminator(dedup.benchmark_tasks())
    clean: list[Unit] = []
    contaminated: list[dict[str, str]] = []
    for unit in kept:
        task = checker.match(unit.cuda)
        if task:
            contaminated.append({"id": unit.ident, "task": task})
        else:
            clean.append(unit)
    funnel.dropped["benchmark-overlap"] = contaminated
    funnel.add("decontaminated", len(clean))
    if funnel.synthesis:
        funnel.synthesis["decontaminated"] = sum(u.origin == "model" for u in clean)
    return clean


def open_model(options: BuildOptions) -> Synthesiser | None:
    """The synthesising model, its name checked before anything is written (None without one)."""
    if not options.synthesise_with:
        return None
    from cass.models.dataset.prompted import open_synthesiser
    from cass.models.llm.backend import ModelOptions

    limits = ModelOptions(
        max_tokens=options.synthesis_max_tokens, timeout_s=options.synthesis_timeout_s
    )
    return open_synthesiser(options.synthesise_with, limits)


def synthesise_units(model, options: BuildOptions, cache: Path, funnel: Funnel,
                     report: Callable[[str, dict[str, Any] | None], None]) -> list[Unit]:  # fmt: skip
    """The programs the model wrote for `options.prompts` templated prompts (its answers cached)."""
    from cass.models.dataset.prompted import synthesise
    from cass.models.dataset.prompts import prompt_specs
    from cass.models.llm.backend import Sampling

    sampling = Sampling(
        temperature=options.synthesis_temperature, max_tokens=options.synthesis_max_tokens
    )
    units, summary = synthesise(
        model, prompt_specs(options.prompts, options.seed), cache, sampling, report
    )
    funnel.synthesis = summary
    return units


def run_units(units: list[Unit], config: Config, options: BuildOptions,
              progress: Callable[[dict[str, Any]], None]) -> list[dict[str, Any]]:  # fmt: skip
    if not units:
        return []
    if options.ray:
        from cass.models.dataset.distributed import run_on_ray

        return run_on_ray(units, config, options.ray, options.workers, progress)
    # After a model ran in this process (llama.cpp's or torch's threads, whose locks a forked
    # worker would inherit held and wait on forever), workers start from a fresh forkserver.
    start = "forkserver" if options.synthesise_with else None
    workers = options.workers or os.cpu_count() or 1
    return list(_run_local(units, config, workers, progress, start))


def _indexed(item: tuple[int, Unit, Config]) -> tuple[int, dict[str, Any]]:
    return item[0], process_unit(item[1], item[2])


def _run_local(units: list[Unit], config: Config, workers: int,
               progress: Callable[[dict[str, Any]], None], start: str | None = None) -> Iterator[dict[str, Any]]:  # fmt: skip
    """Records in input order, computed by `workers` processes. Leaving early (Ctrl-C, SIGTERM)
    terminates the workers: the programs they had not finished are redone by the next run."""
    results: dict[int, dict[str, Any]] = {}
    with multiprocessing.get_context(start).Pool(
        workers, initializer=pool_worker_started
    ) as pool:  # __exit__ terminates them
        for i, record in pool.imap_unordered(
            _indexed, ((i, u, config) for i, u in enumerate(units))
        ):
            results[i] = record
            progress(record)
        # every record is in: the workers end on their own; terminating them (what leaving the
        # block does) could stop one holding the task queue's lock, and its sibling would then
        # wait for that lock forever (a pool exit that hung)
        pool.close()
        pool.join()
    return (results[i] for i in range(len(units)))


def build(
    options: BuildOptions,
    progress: Callable[[str, dict[str, Any] | None], None] | None = None,
    model: Synthesiser | None = None,
) -> dict[str, Any]:
    """Run the pipeline; the summary (counts per stage, paths written). `model`: the synthesising
    model `open_model(options)` opened (opened here when not given)."""
    import datasets

    datasets.disable_progress_bars()
    from cass.models.dataset.write import write_dataset

    started = time.time()
    report = progress or (lambda _stage, _record: None)
    model = model or open_model(options)
    prepare_out(options.out, options.force)
    cache = options.out / "cache"
    references = load_references(options.references)
    funnel = Funnel()
    prompted = synthesise_units(model, options, cache, funnel, report) if model else []
    units = collect(
        options.sources,
        cache,
        synthetic=options.synthetic,
        seed=options.seed,
        include_dirs=options.include_dirs,
    )
    units += prompted
    units = select(units, funnel)
    if options.limit:
        units = units[: options.limit]
    report("selected", {"programs": len(units)})
    config = Config(str(cache), tuple(options.archs), options.engine, options.verify, references,
                    run_unreferenced=options.run_unreferenced)  # fmt: skip
    finished: dict[str, dict[str, Any]] = {}

    def done(record: dict[str, Any]) -> None:
        finished[record["id"]] = record
        report("record", record)

    try:
        records = run_units(units, config, options, done)
    except BaseException:
        # Interrupted (Ctrl-C, SIGTERM, a failure): the programs that finished are written now;
        # the cache keeps them, and the same command resumes with the rest.
        partial = [finished[u.ident] for u in units if u.ident in finished]
        if partial:
            funnel.add("interrupted-after", len(partial))
            write_dataset(options.out, partial, funnel, options, elapsed_s=time.time() - started)
        raise
    return write_dataset(options.out, records, funnel, options, elapsed_s=time.time() - started)
