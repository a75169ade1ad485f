"""Lifter speed: time to translate SASS kernels to gfx1100, split into parse+lift (Python) and
opt-16+llc-16 (LLVM). Issue 10's target: a 5,000-instruction kernel in under 2 s.

    .venv/bin/python benchmarks/bench_lift_speed.py [--instructions 500 2000 5000] [--repeat 3]
        [--task crypto_hashing/sha512_chains ...] [--arch sm_90] [--opt-o3]

Two kinds of kernel: a synthetic sm_90 mix (index math, 64-bit address pairs, loads, FFMA chains,
compares, predicated updates, a loop back-edge, stores; blocks of 16 instructions repeated to N),
and the real kernels of benchmark tasks (`--task`, compiled with nvcc -cubin here; by default the
largest one, sha512_chains, ~7,400 instructions). Each row gives wall time and CPU time (this
process plus its opt/llc children): on a shared machine the wall time mostly measures the
other load, the CPU time what the translation costs. `--opt-o3` times the earlier `opt -O3`
pipeline instead of the lifter's pass list (targets.OPT_PASSES), for comparison.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.table import Table

PROLOGUE = ["LDC R1, c[0x0][0x28]", "S2R R0, SR_TID.X", "S2UR UR4, SR_CTAID.X", "LDC R9, c[0x0][RZ]",
            "IMAD R9, R9, UR4, R0", "LDC.64 R2, c[0x0][0x210]", "LDC.64 R4, c[0x0][0x218]",
            "ULDC UR5, c[0x0][0x220]", "ULDC.64 UR6, c[0x0][0x208]", "MOV R20, RZ"]  # fmt: skip
BLOCK = ["IMAD.WIDE R6, R9, 0x4, R2", "LDG.E R10, desc[UR6][R6.64]", "IADD3 R11, R9, 0x7, RZ",
         "LOP3.LUT R12, R11, 0xff, RZ, 0xc0, !PT", "I2FP.F32.S32 R13, R12", "FFMA R14, R10, R13, 0.5",
         "FMUL R15, R14, R14", "FADD R20, R20, R15", "ISETP.GT.AND P0, PT, R12, 0x40, PT",
         "@P0 FADD R20, R20, -1", "SHF.R.U32.HI R16, RZ, 0x3, R11", "LEA R17, P1, R16, R4, 0x2",
         "LEA.HI.X R18, R16, R5, RZ, 0x2, P1", "VIADD R9, R9, 0x1", "SEL R19, R12, R16, P0",
         "STG.E desc[UR6][R6.64], R20"]  # fmt: skip
DEFAULT_TASKS = ["crypto_hashing/sha512_chains"]
TASKS_ROOT = Path(__file__).resolve().parents[1] / "models" / "bench" / "tasks"
NVCC = "/usr/local/cuda/bin/nvcc"


def synthetic_sass(instructions: int) -> str:
    body = list(PROLOGUE)
    while len(body) < instructions - 3:
        body += BLOCK
    body = body[: instructions - 3]
    loop_start = len(PROLOGUE) * 16
    body += ["ISETP.LT.AND P2, PT, R9, UR5, PT", f"@P2 BRA {loop_start:#x}", "EXIT"]
    lines = ["\tcode for sm_90", "\t\tFunction : _Z5synthPfS_i"]
    lines += [f"        /*{16 * i:04x}*/                   {text} ;" for i, text in enumerate(body)]
    return "\n".join(lines) + "\n"


def cpu_seconds() -> float:
    own, kids = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def timed(step: Callable[[], object]) -> tuple[object, float, float]:
    wall, cpu = time.perf_counter(), cpu_seconds()
    value = step()
    return value, time.perf_counter() - wall, cpu_seconds() - cpu


def measure(text: str, path: str, arch: str, cubin=None) -> tuple[int, float, float, float, float]:
    """(instructions, lift wall, lift cpu, llvm wall, llvm cpu) for one translation."""
    from cass.models.lift.module import compile_module
    from cass.models.lift.pipeline import lift_sass
    from cass.models.lift.targets import AMDGCN

    result, lift_wall, lift_cpu = timed(
        lambda: lift_sass(text, path=path, arch=arch, compile=False, cubin=cubin)
    )
    assert result.ok, [d.render() for d in result.diagnostics]
    _, llvm_wall, llvm_cpu = timed(lambda: compile_module(result.llvm_ir, AMDGCN))
    return sum(k.instructions for k in result.kernels), lift_wall, lift_cpu, llvm_wall, llvm_cpu


def task_listing(task: str, arch: str, work: Path) -> tuple[str, Path]:
    """A benchmark task's SASS listing and cubin (nvcc -cubin -O3 -arch=ARCH)."""
    from cass.models.lift.inputs import disassemble

    source = TASKS_ROOT / task / "main.cu"
    if not source.is_file():
        raise SystemExit(f"{task}: no such benchmark task ({source} is missing)")
    cubin = work / f"{task.replace('/', '__')}.{arch}.cubin"
    proc = subprocess.run([NVCC, "-cubin", "-O3", f"-arch={arch}", "-o", str(cubin), str(source)],
                          capture_output=True, text=True, timeout=600, check=False)  # fmt: skip
    if proc.returncode:
        raise SystemExit(f"{task}: nvcc -cubin failed: {proc.stderr[-400:]}")
    return disassemble(cubin, None), cubin


def row(table: Table, label: str, runs: list[tuple[int, float, float, float, float]]) -> None:
    med = [statistics.median(r[i] for r in runs) for i in range(1, 5)]
    table.add_row(
        label,
        str(runs[0][0]),
        *(f"{v:.2f}" for v in med),
        f"{med[0] + med[2]:.2f}",
        f"{med[1] + med[3]:.2f}",
    )


def main(argv: list[str] | None = None) -> int:
    from cass.models.lift.elfinfo import read_cubin

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instructions", type=int, nargs="*", default=[500, 2000, 5000])
    parser.add_argument(
        "--task",
        nargs="*",
        default=DEFAULT_TASKS,
        help="benchmark tasks (domain/name) whose kernels to time",
    )
    parser.add_argument("--arch", default="sm_90", help="SASS arch of the task kernels")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--opt-o3", action="store_true", help="opt -O3 instead of the lifter's pass list"
    )
    args = parser.parse_args(argv)
    if args.opt_o3:
        from cass.models.lift import module

        module.OPT_FLAGS = ("-O3", "--simplifycfg-hoist-common=false")
    table = Table(
        title="SASS -> gfx1100 translation time in seconds (median of runs; cpu = this process + opt/llc)"
    )
    for column in ("kernel", "SASS instructions", "lift wall", "lift cpu", "opt+llc wall", "opt+llc cpu",
                   "total wall", "total cpu"):  # fmt: skip
        table.add_column(column, justify="left" if column == "kernel" else "right")
    for n in args.instructions:
        text = synthetic_sass(n)
        row(
            table,
            f"synthetic {n}",
            [measure(text, "synthetic.sass", "sm_90") for _ in range(args.repeat)],
        )
    with tempfile.TemporaryDirectory(prefix="cass-lift-speed-") as work:
        for task in args.task:
            text, cubin = task_listing(task, args.arch, Path(work))
            info = read_cubin(cubin.read_bytes(), str(cubin))
            row(
                table,
                f"{task} ({args.arch})",
                [measure(text, str(cubin), args.arch, info) for _ in range(args.repeat)],
            )
    Console(width=160).print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
