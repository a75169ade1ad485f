"""What cass adds on top of llama.cpp: tokens/s of the same GGUF, prompt and sampling seed,
once through llama-cpp-python's own streaming chat completion and once through cass's model
backend (`cass.models.llm.backend.generate`: streaming, cancellation checks, loop detection,
token accounting). Target: cass costs under 3% of llama.cpp's tokens/s.

    .venv/bin/python benchmarks/bench_llm_overhead.py                     # a random 8-layer Qwen2 built here
    .venv/bin/python benchmarks/bench_llm_overhead.py --model m.gguf --tokens 256 --rounds 5

Rounds alternate the two paths (llama.cpp first, then cass) so machine load hits both alike; the
table shows each path's median tokens/s and cass's overhead.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from cass.models.llm.backend import ModelOptions, Sampling, generate
from cass.models.llm.llama_gguf import LlamaCppBackend
from cass.models.llm.prompts import chat_messages
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

REPO = Path(__file__).resolve().parents[1]
CUDA = (REPO / "examples" / "verify" / "saxpy.cu").read_text()


def bench_model(folder: Path) -> Path:
    """A random Qwen2 (hidden 256, 8 layers) converted to q8_0: sized so a token costs
    milliseconds, as real models do, rather than microseconds."""
    sys.path.insert(0, str(REPO / "tests" / "models"))
    from cass.models.llm.convert import convert_checkpoint
    from tiny_model import build_checkpoint

    checkpoint = build_checkpoint(folder / "ckpt", hidden=256, layers=8)
    out = folder / "bench-q8_0.gguf"
    convert_checkpoint(checkpoint, out, "q8_0")
    return out


def llama_direct(backend: LlamaCppBackend, messages: list, tokens: int) -> tuple[int, float]:
    started = time.perf_counter()
    count = 0
    for chunk in backend.llm.create_chat_completion(
        messages=messages, temperature=1.0, max_tokens=tokens, seed=0, stream=True
    ):
        if chunk["choices"][0]["delta"].get("content"):
            count += 1
    return count, time.perf_counter() - started


def through_cass(backend: LlamaCppBackend, messages: list, tokens: int) -> tuple[int, float]:
    result = generate(
        backend,
        messages,
        Sampling(temperature=1.0, max_tokens=tokens, seed=0),
        on_piece=lambda piece: None,
    )
    return result.completion_tokens, result.elapsed_s


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--model", type=Path, help="a GGUF (default: a random 8-layer Qwen2 built here)"
    )
    parser.add_argument("--tokens", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    console = Console()
    with tempfile.TemporaryDirectory() as tmp:
        model = args.model or bench_model(Path(tmp))
        backend = LlamaCppBackend(model, ModelOptions(context=4096))
        messages = chat_messages("source", CUDA)
        llama_direct(backend, messages, 8)  # warm-up: caches, threads
        rates: dict[str, list[float]] = {
            "llama.cpp (llama-cpp-python stream)": [],
            "cass backend.generate": [],
        }
        with Progress(console=console, transient=True) as progress:
            task = progress.add_task("rounds", total=args.rounds)
            for _ in range(args.rounds):
                for label, path in zip(rates, (llama_direct, through_cass)):
                    count, seconds = path(backend, messages, args.tokens)
                    rates[label].append(count / seconds)
                progress.advance(task)
    direct, cass = (statistics.median(v) for v in rates.values())
    table = Table(
        title=f"tokens/s, {model.name}, {args.tokens} tokens, median of {args.rounds} rounds"
    )
    for column in ("path", "median tokens/s", "min", "max"):
        table.add_column(column)
    for label, values in rates.items():
        table.add_row(
            label, f"{statistics.median(values):.1f}", f"{min(values):.1f}", f"{max(values):.1f}"
        )
    console.print(table)
    overhead = (direct - cass) / direct * 100
    console.print(f"cass overhead: {overhead:+.2f}% of llama.cpp's tokens/s (target: under 3%)")
    return 0 if overhead < 3 else 1


if __name__ == "__main__":
    sys.exit(main())
