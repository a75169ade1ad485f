"""A small instruction dataset from the benchmark's tasks, in the format `cass dataset build`
writes (OUT/instructions/source.jsonl and assembly.jsonl), for `cass model train`:

    .venv/bin/python benchmarks/train_dataset_from_bench.py -o .train-data [--assembly] [--limit N]

One line per example: {"id", "task": "source"|"assembly", "domain", "split", "messages"}, the
messages from `cass.models.llm.prompts.training_messages`. Source examples: a task's main.cu and
its rules-engine port (which passes the benchmark on the emulator). Assembly examples (with
`--assembly`): per kernel, its sm_90 SASS (nvcc -cubin, cuobjdump) and the gfx1100 assembly that
clang-16 makes of the same kernel in that port. The split is by task: a stable hash puts about one
task in eight into `test`, so the held-back tasks can be benchmarked apart
(`--task` globs printed at the end).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
from pathlib import Path

from rich.progress import Progress

TEST_EVERY = 8


def split_of(ident: str) -> str:
    digest = hashlib.sha256(ident.encode()).digest()
    return "test" if digest[0] % TEST_EVERY == 0 else "train"


def source_example(task, port: str) -> dict:
    from cass.models.llm.prompts import training_messages

    text = task.source.read_text(encoding="utf-8")
    return {"id": f"source/{task.ident}", "task": "source", "domain": task.domain,
            "split": split_of(task.ident), "messages": training_messages("source", text, port)}  # fmt: skip


def assembly_examples(task, port: str) -> list[dict]:
    """Per kernel: its SASS (sm_90) -> the gfx1100 assembly of the same kernel in the port."""
    from cass.models.llm.prompts import training_messages
    from cass.runner.compile import compile_file

    with tempfile.TemporaryDirectory(prefix="cass-train-data-") as work:
        hip = Path(work) / "main.hip"
        hip.write_text(port, encoding="utf-8")
        cuda = compile_file(
            task.source, ["sass"], arch="sm_90", out_dir=Path(work) / "cu", kernels=True
        )
        amd = compile_file(hip, ["rdna3"], out_dir=Path(work) / "hip", kernels=True)
    by_name = {k.name: k for k in amd.kernels}
    examples = []
    for kernel in cuda.kernels:
        other = by_name.get(kernel.name)
        if other is None or not kernel.asm.strip() or not other.asm.strip():
            continue
        examples.append({
            "id": f"assembly/{task.ident}/{kernel.name}", "task": "assembly", "domain": task.domain,
            "split": split_of(task.ident),
            "messages": training_messages("assembly", kernel.asm, other.asm),
        })  # fmt: skip
    return examples


def build(
    out: Path, assembly: bool, limit: int | None, force: bool, every: int = 1
) -> dict[str, int]:
    from cass.models.bench.tasks import discover_tasks
    from cass.models.workflow.porting import translate_source
    from cass.runner.diagnostics import CassError
    from cass.runner.outputs import check_output, write_atomic

    targets = {"source": out / "instructions" / "source.jsonl"}
    if assembly:
        targets["assembly"] = out / "instructions" / "assembly.jsonl"
    for path in targets.values():
        check_output(path, force=force)
    tasks = discover_tasks()[:limit] if limit else discover_tasks()
    lines: dict[str, list[str]] = {kind: [] for kind in targets}
    with Progress(transient=True) as progress:
        bar = progress.add_task("tasks", total=len(tasks))
        for number, task in enumerate(tasks):
            progress.update(bar, description=task.ident)
            try:
                port = translate_source(task.source, "rules").text
                lines["source"].append(json.dumps(source_example(task, port)))
                if assembly and number % every == 0:
                    lines["assembly"] += [json.dumps(e) for e in assembly_examples(task, port)]
            except CassError as exc:
                print(f"{task.ident}: skipped ({exc.message})", file=sys.stderr)
            progress.advance(bar)
    for kind, path in targets.items():
        write_atomic(path, "".join(line + "\n" for line in lines[kind]))
    held = sorted({t.ident for t in tasks if split_of(t.ident) == "test"})
    print("held-back tasks (split test):", " ".join(f"--task '{t.split('/')[1]}'" for t in held))
    return {kind: len(v) for kind, v in lines.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-o", "--out", type=Path, required=True)
    parser.add_argument("--assembly", action="store_true", help="also SASS -> RDNA3 per kernel")
    parser.add_argument("--limit", type=int, default=None, help="first N tasks only")
    parser.add_argument(
        "--assembly-every",
        type=int,
        default=1,
        help="assembly examples from every Nth task only (they take ~10 s a task)",
    )
    parser.add_argument("--force", action="store_true")
    args = parser.parse_args()
    counts = build(args.out, args.assembly, args.limit, args.force, args.assembly_every)
    for kind, n in counts.items():
        print(f"{kind}: {n} examples -> {args.out / 'instructions' / (kind + '.jsonl')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
