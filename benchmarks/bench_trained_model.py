"""A trained model on the benchmark: its held-back split (the tasks of the dataset's `test`
split) or every task, with the model and auto engines (and the rules engine for comparison):

    .venv/bin/python benchmarks/bench_trained_model.py --data .train-data --out bench-model
    .venv/bin/python benchmarks/bench_trained_model.py --model M.gguf --all --engine model --out bench-model-all

The model defaults to the bundled one. Writes results.json, report.md and accuracy.png (the
bench's own reports, one column per engine) into --out; `--resume` reuses finished tasks.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from rich.progress import Progress


def held_back(data: Path) -> set[str]:
    """domain/name of every task whose examples are in the dataset's test split."""
    idents = set()
    for file in sorted((data / "instructions").glob("*.jsonl")):
        for line in file.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if record["split"] == "test":
                idents.add("/".join(record["id"].split("/")[1:3]))
    return idents


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=Path(".train-data"))
    parser.add_argument(
        "--model", default="", help="GGUF, checkpoint or URL (default: the bundled model)"
    )
    parser.add_argument(
        "--engine", action="append", help="model, auto, rules (repeatable; default model and auto)"
    )
    parser.add_argument(
        "--all", action="store_true", help="every task, not only the held-back split"
    )
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    from cass.models.bench.attempt import RunConfig
    from cass.models.bench.harness import run_benchmark
    from cass.models.bench.report import summarize, write_reports
    from cass.models.bench.tasks import discover_tasks
    from cass.models.llm.catalog import resolve_model

    model = resolve_model(args.model)
    tasks = discover_tasks()
    if not args.all:
        keep = held_back(args.data)
        tasks = [t for t in tasks if t.ident in keep]
    engines = tuple(args.engine or ("model", "auto"))
    config = RunConfig(engines, "emulator", "source", args.jobs, args.resume, args.out, None, model)
    with Progress() as progress:
        bar = progress.add_task(
            f"{', '.join(engines)} on {len(tasks)} tasks", total=len(tasks) * len(engines)
        )
        results = run_benchmark(
            tasks,
            config,
            on_result=lambda r: progress.update(
                bar, advance=1, description=f"{r.engine}: {r.task} {r.status}"
            ),
        )
    meta = {"command": "benchmarks/bench_trained_model.py", "backend": "emulator", "level": "source",
            "engines": list(engines), "model": model, "split": "all" if args.all else "test"}  # fmt: skip
    write_reports(results, args.out, meta)
    print(json.dumps(summarize(results), indent=1)[:3000])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
