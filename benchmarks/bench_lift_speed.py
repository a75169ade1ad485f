"""Lifter speed: time to translate a synthetic N-instruction SASS kernel (default 5,000) to gfx1100,
split into parse+lift (Python) and opt-16+llc-16 (LLVM). Issue 10's target: under 2 s for 5,000.

    .venv/bin/python benchmarks/bench_lift_speed.py [--instructions 5000] [--repeat 3]

The kernel is a realistic sm_90 mix (index math, 64-bit address pairs, loads, FFMA chains,
compares, predicated updates, a loop back-edge, stores), repeated in blocks of 16 instructions.
"""

from __future__ import annotations

import argparse
import statistics
import time

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


def measure(instructions: int) -> tuple[float, float]:
    from cass.models.lift.module import compile_module
    from cass.models.lift.pipeline import lift_sass
    from cass.models.lift.targets import AMDGCN

    text = synthetic_sass(instructions)
    start = time.perf_counter()
    result = lift_sass(text, path="synthetic.sass", arch="sm_90", compile=False)
    lifted = time.perf_counter()
    assert result.ok, [d.render() for d in result.diagnostics]
    compile_module(result.llvm_ir, AMDGCN)
    return lifted - start, time.perf_counter() - lifted


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instructions", type=int, nargs="+", default=[500, 2000, 5000])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    table = Table(title="SASS -> gfx1100 translation time (median of runs)")
    for column in ("instructions", "parse + lift (s)", "opt + llc (s)", "total (s)"):
        table.add_column(column, justify="right")
    for n in args.instructions:
        runs = [measure(n) for _ in range(args.repeat)]
        lift = statistics.median(r[0] for r in runs)
        llvm = statistics.median(r[1] for r in runs)
        table.add_row(str(n), f"{lift:.2f}", f"{llvm:.2f}", f"{lift + llvm:.2f}")
    Console().print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
