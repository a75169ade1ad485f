"""Record reference outputs on an NVIDIA GPU machine where cass is not installed.

    python3 benchmarks/record_references.py examples/ models/bench/tasks/ [--jobs N] [--force]

The same as `cass record` (cass.runner.record), from a bare checkout: Python 3.11+'s standard
library and nvcc only. Exit status: 0 all recorded, 1 some failed, 2 no NVIDIA GPU / nvcc or a
missing path.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bare_checkout import import_runner  # noqa: E402

import_runner()

from cass.runner.diagnostics import CassError  # noqa: E402
from cass.runner.record import record_paths, summary  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", type=Path, help=".cu files or folders to search")
    parser.add_argument(
        "--jobs", "-j", type=int, default=None, help="builds at once (default: CPU cores)"
    )
    parser.add_argument(
        "--gpu-jobs", type=int, default=1, help="programs running on the GPU at once (default 1)"
    )
    parser.add_argument(
        "--timeout", type=float, default=None, help="seconds per run (default: the run spec's)"
    )
    parser.add_argument(
        "--force", action="store_true", help="re-record programs whose record is up to date"
    )
    args = parser.parse_args(argv)
    try:
        outcomes = record_paths(args.paths, jobs=args.jobs, gpu_jobs=args.gpu_jobs, timeout_s=args.timeout,
                                force=args.force, report=lambda line: print(line, flush=True))  # fmt: skip
    except CassError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        return 2
    print(summary(outcomes))
    return 1 if any(o.status == "failed" for o in outcomes) else 0


if __name__ == "__main__":
    sys.exit(main())
