"""What a training run leaves for people: the loss curve (PNG) and the run card (README.md,
with run.json beside it for scripts), both in the training folder."""

from __future__ import annotations

import io
import json
from dataclasses import asdict
from typing import TYPE_CHECKING

from cass.runner.outputs import write_atomic

if TYPE_CHECKING:
    from cass.models.training.run import TrainOptions, TrainResult


def loss_png(losses: list[tuple[int, float]], eval_loss: float | None, title: str) -> bytes:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 3.6), dpi=110)
    steps, values = zip(*losses) if losses else ((), ())
    ax.plot(steps, values, label="training loss (per step)", linewidth=1)
    if eval_loss is not None and steps:
        ax.axhline(
            eval_loss, color="tab:red", linestyle="--", label=f"test split, end: {eval_loss:.3f}"
        )
    ax.set_xlabel("optimizer step")
    ax.set_ylabel("cross-entropy (nats/token)")
    ax.set_yscale("log")
    ax.set_title(title, fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    plt.close(fig)
    return buffer.getvalue()


def _rows(o: TrainOptions, r: TrainResult, counts: dict[str, int]) -> list[tuple[str, str]]:
    first = r.losses[0][1] if r.losses else float("nan")
    last = r.losses[-1][1] if r.losses else float("nan")
    model = (
        f"from scratch, size {o.scratch_size}"
        if o.scratch_size
        else f"{o.base}" + (" + LoRA" if o.lora else "")
    )
    return [
        ("model", model), ("parameters", f"{r.parameters:,} ({r.trainable:,} trained)"),
        ("data", ", ".join(map(str, o.data))), ("examples", ", ".join(f"{k} {v}" for k, v in counts.items())),
        ("sequence length", f"{o.max_length} ({'packed' if o.packing else 'padded'})"),
        ("batch", f"{o.batch_size} x {o.grad_accum} accumulation"), ("steps", str(r.steps)),
        ("device", r.device), ("training time", f"{r.train_s:.1f} s" + (" (stopped at the time limit)" if r.stopped_early else "")),
        ("tokens seen", f"{r.tokens_seen:,}"), ("throughput", f"{r.tokens_seen / r.train_s:,.0f} tokens/s" if r.train_s else "-"),
        ("loss, first -> last step", f"{first:.3f} -> {last:.3f}"),
        ("test-split loss", "-" if r.eval_loss is None else f"{r.eval_loss:.3f}"),
        ("resumed from", r.resumed_from or "-"),
    ]  # fmt: skip


def write_card(o: TrainOptions, r: TrainResult, counts: dict[str, int]) -> None:
    """OUT/loss.png, OUT/README.md and OUT/run.json (replaced at each run: they are the run's)."""
    title = f"cass model train: {o.scratch_size or o.base} on {', '.join(p.name for p in o.data)}"
    write_atomic(o.output / "loss.png", loss_png(r.losses, r.eval_loss, title))
    lines = [f"# {title}", "", "| | |", "| --- | --- |"]
    lines += [f"| {k} | {v} |" for k, v in _rows(o, r, counts)]
    lines += ["", "![loss](loss.png)", "", f"Next: `cass model convert {o.output / 'model'} --quant q8_0 -o MODEL.gguf`, "
              "then `cass bench run --engine model --model MODEL.gguf`.", ""]  # fmt: skip
    write_atomic(o.output / "README.md", "\n".join(lines))
    facts = {"options": asdict(o), "result": asdict(r), "examples": counts}
    write_atomic(o.output / "run.json", json.dumps(facts, default=str, indent=2) + "\n")
