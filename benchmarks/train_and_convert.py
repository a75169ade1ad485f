"""Train a model with `cass model train`'s library, convert it to GGUF, time both: here on the
CPU or on a bare GPU machine where cass is not installed (run from a checkout; the `cass`
namespace is made from its folders, as benchmarks/bare_checkout.py does for the runner).

    .venv/bin/python benchmarks/train_and_convert.py --data .train-data --size tiny --max-steps 20 --out /tmp/t
    python3 benchmarks/train_and_convert.py --data .train-data --size 10m --time-limit 300 --out $OUT/run

Writes OUT/{loss.png, README.md, run.json} (the run card), OUT/model/ (the checkpoint) and
OUT/MODEL-q8_0.gguf, OUT/MODEL-q4_0.gguf; prints the throughput and the conversion times.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def import_cass() -> None:
    try:
        import cass.models.training  # noqa: F401
    except ImportError:
        ns = Path(tempfile.mkdtemp(prefix="cass-ns-")) / "cass"
        ns.mkdir()
        for part in ("runner", "models", "server", "hooks"):
            (ns / part).symlink_to(ROOT / part)
        sys.path.insert(0, str(ns.parent))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, action="append", required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--size", default="10m")
    parser.add_argument("--name", default="cass-scratch")
    parser.add_argument("--max-length", type=int, default=2048)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--epochs", type=float, default=1.0)
    parser.add_argument("--max-steps", type=int, default=-1)
    parser.add_argument("--learning-rate", type=float, default=None)
    parser.add_argument(
        "--time-limit", type=float, default=None, help="seconds of training at most"
    )
    parser.add_argument("--resume", action="store_true")
    args = parser.parse_args()
    import_cass()
    from cass.models.llm.convert import convert_checkpoint
    from cass.models.training.run import TrainOptions, train

    options = TrainOptions(data=args.data, output=args.out, scratch_size=args.size, max_length=args.max_length,
                           batch_size=args.batch, epochs=args.epochs, max_steps=args.max_steps,
                           learning_rate=args.learning_rate, time_limit_s=args.time_limit,
                           save_steps=10**9, resume=args.resume, force=not args.resume)  # fmt: skip
    last = [0.0]

    def progress(step: int, total: int, loss: float | None) -> None:
        if time.monotonic() - last[0] > 10:
            last[0] = time.monotonic()
            print(f"step {step}/{total} loss {loss:.4f}", flush=True)

    result = train(options, progress=progress, note=lambda text: print(text, flush=True))
    print((args.out / "README.md").read_text(), flush=True)
    for quant in ("q8_0", "q4_0"):
        started = time.perf_counter()
        target = args.out / f"{args.name}-{args.size}-{quant}.gguf"
        convert_checkpoint(result.model_dir, target, quant, overwrite=True)
        print(
            f"{target.name}: {target.stat().st_size / 2**20:.2f} MiB in {time.perf_counter() - started:.1f} s"
        )
    shutil.rmtree(args.out / "checkpoints", ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
