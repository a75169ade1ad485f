"""How long each compiler stack takes on the bundled examples (a table; run it, don't assert it).

    .venv/bin/python benchmarks/compile_stacks.py [--repeat 3]

Per example: CUDA -> SASS (nvcc -cubin + cuobjdump), CUDA -> executable, HIP -> RDNA3 assembly,
HIP -> code object, HIP -> host object; plus the per-kernel manifest's extra cost, the
set-up check on a complete machine (`plan_setup`) and a full `check_environment` (what doctor runs).
Median wall time of `--repeat` runs; peak RSS of the child processes.
"""

from __future__ import annotations

import argparse
import functools
import resource
import statistics
import tempfile
import time
from pathlib import Path

from cass.runner import setup as runner_setup
from cass.runner import toolchain
from cass.runner.compile import compile_file
from rich.console import Console
from rich.progress import track
from rich.table import Table

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
NAMES = ("vector_add", "reduce_shared", "templated_scale", "two_kernels", "constant_poly")
JOBS = (
    ("CUDA -> SASS", ".cu", ["sass"], "sm_80", False),
    ("CUDA -> SASS + manifest", ".cu", ["sass"], "sm_80", True),
    ("CUDA -> executable", ".cu", ["exe"], "sm_80", False),
    ("HIP -> RDNA3 asm", ".hip", ["rdna3"], "gfx1100", False),
    ("HIP -> RDNA3 + manifest", ".hip", ["rdna3"], "gfx1100", True),
    ("HIP -> code object", ".hip", ["code-object"], "gfx1100", False),
    ("HIP -> host object", ".hip", ["host-object"], "gfx1100", False),
)


def median_time(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    toolchain.hip_device_lib_dir("gfx1100")  # build outside the timings
    table = Table(title=f"compile time, median of {args.repeat} (seconds)")
    table.add_column("job")
    for name in NAMES:
        table.add_column(name, justify="right")
    with tempfile.TemporaryDirectory() as out:
        for label, suffix, emits, arch, kernels in track(JOBS, description="compiling"):
            row = []
            for name in NAMES:
                src = EXAMPLES / f"{name}{suffix}"
                job = functools.partial(
                    compile_file, src, emits, arch=arch, out_dir=out, kernels=kernels, force=True
                )
                row.append(f"{median_time(job, args.repeat):.2f}")
            table.add_row(label, *row)
    checks = Table(title="set-up and doctor on a complete machine (seconds)")
    checks.add_column("step")
    checks.add_column("median", justify="right")
    checks.add_row(
        "plan_setup (dpkg + tool discovery)", f"{median_time(_fresh_plan, args.repeat):.2f}"
    )
    checks.add_row("check_environment (doctor)", f"{median_time(_fresh_check, args.repeat):.2f}")
    console = Console()
    console.print(table)
    console.print(checks)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    console.print(f"peak RSS of one compiler process: {peak:.0f} MiB")


def _fresh_plan() -> None:
    toolchain.forget_tools()
    runner_setup.plan_setup()


def _fresh_check() -> None:
    toolchain.forget_tools()
    toolchain.detect_gpus.cache_clear()
    runner_setup.check_environment()


if __name__ == "__main__":
    main()
