"""Compile time of the emulator's translated code (JIT), per code object: the whole code object
as one C++ function in one translation unit (the layout before parts) against parts compiled
as their own translation units in parallel (what `JitEngine` does), at -O2 (the optimised tier)
and at -O0 (the baseline tier); CPU milliseconds per instruction of each tier, the figure the
JIT's thresholds use (jit/kernels.py COMPILE_CPU_PER_INSTRUCTION_S).

    nice .venv/bin/python benchmarks/bench_jit_compile.py                 # the default tasks
    nice .venv/bin/python benchmarks/bench_jit_compile.py bootstrap_mean_ci --json out.json

Each benchmark task (models/bench/tasks/*/NAME) is ported by the rules engine, built with
clang-16 -O2 for gfx1100, its code object translated; each layout and tier is compiled into a
fresh folder (no cache; the entry point shared by every library is compiled once before). Wall seconds and CPU seconds of the compilers (children's user+system
time) are given; on a shared machine the CPU seconds are the steadier figure.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import tempfile
import time
from pathlib import Path

from cass.models.engine import TranslationRequest
from cass.models.rules.engine import RulesEngine
from cass.runner.emulator import build_hip_program, codeobject
from cass.runner.emulator.jit import native, translate
from cass.runner.emulator.program import Program
from cass.runner.outputs import write_output
from cass.runner.tools import run_tool
from elftools.elf.elffile import ELFFile
from rich.console import Console
from rich.table import Table

TASKS = Path(__file__).resolve().parents[1] / "models" / "bench" / "tasks"
DEFAULT = [
    "bootstrap_mean_ci",
    "adaptive_simpson_recursive",
    "binary_heap_topk",
    "binomial_american_shared",
    "cg_poisson_csr_coop",
    "attention_single_head",
]


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def code_object(name: str, work: Path) -> Program:
    main_cu = next(TASKS.glob(f"*/{name}/main.cu"))
    port = RulesEngine().translate(TranslationRequest("source", main_cu.read_text(), str(main_cu)))
    source = work / f"{name}.hip"
    source.write_text(port.text)
    exe = build_hip_program(source, work / name, extra_args=["-O2"])
    with open(exe, "rb") as handle:
        bundle = ELFFile(handle).get_section_by_name(".hip_fatbin").data()
    return Program(codeobject.load(bundle), None)


def one_function(program: Program, out: Path) -> None:
    """The layout before parts: every instruction in one function, one translation unit."""
    pcs = sorted(program.instructions)
    keep = translate.partition
    translate.partition = lambda *_: [pcs]
    try:
        entries = [k.entry for k in program.co.kernels.values()]
        t = translate.translate(program.instructions, entries)
    finally:
        translate.partition = keep
    cpp = out / "one.cpp"
    cpp.write_text("#define CASS_JIT_MAIN\n" + native.PRELUDE.read_text() + t.units[0] + t.main)
    flags = [*native.TIER_FLAGS[native.OPTIMISED], *native.FLAGS]
    run = run_tool([native.CXX, *flags, "-shared", cpp, "-o", out / "one.so"], "one", 900)
    assert run.ok, run.err[-500:]


def parts(program: Program, out: Path, tier: int = native.OPTIMISED) -> int:
    entries = [k.entry for k in program.co.kernels.values()]
    t = translate.translate(program.instructions, entries)
    native.compile_source(t.units, t.main, out / f"parts-t{tier}", tier)
    return len(t.units)


def measure(fn, *args) -> tuple[float, float, object]:
    cpu, wall = _children_cpu(), time.perf_counter()
    value = fn(*args)
    return time.perf_counter() - wall, _children_cpu() - cpu, value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tasks", nargs="*", default=DEFAULT)
    parser.add_argument("--json", type=Path, help="write the results there as JSON")
    parser.add_argument("--force", action="store_true", help="overwrite the --json file")
    opts = parser.parse_args(argv)
    rows = []
    console = Console()
    native.entry_object()  # compiled once per translator, not per kernel: not measured
    with tempfile.TemporaryDirectory() as tmp:
        for name in opts.tasks:
            work = Path(tmp) / name
            work.mkdir()
            program = code_object(name, work)
            with console.status(f"{name}: one function"):
                b_wall, b_cpu, _ = measure(one_function, program, work)
            with console.status(f"{name}: parts"):
                a_wall, a_cpu, n = measure(parts, program, work)
            with console.status(f"{name}: parts, baseline tier"):
                c_wall, c_cpu, _ = measure(parts, program, work, native.BASELINE)
            rows.append(
                {
                    "task": name,
                    "instructions": len(program.instructions),
                    "kernels": len(program.co.kernels),
                    "parts": n,
                    "one_function_wall_s": round(b_wall, 2),
                    "one_function_cpu_s": round(b_cpu, 2),
                    "parts_wall_s": round(a_wall, 2),
                    "parts_cpu_s": round(a_cpu, 2),
                    "baseline_wall_s": round(c_wall, 2),
                    "baseline_cpu_s": round(c_cpu, 2),
                }
            )
            console.print(rows[-1])
    table = Table(
        title=f"JIT compile time per code object ({native.JOBS} jobs, "
        f"load {os.getloadavg()[0]:.1f}, {os.cpu_count()} CPUs)"
    )
    columns = ("task", "instr.", "parts", "one fn wall/cpu s", "parts wall/cpu s", "wall ratio",
               "-O0 parts wall/cpu s", "ms CPU per instr. -O2 / -O0")  # fmt: skip
    for col in columns:
        table.add_column(col)
    for r in rows:
        table.add_row(
            r["task"],
            str(r["instructions"]),
            str(r["parts"]),
            f"{r['one_function_wall_s']:.1f} / {r['one_function_cpu_s']:.1f}",
            f"{r['parts_wall_s']:.1f} / {r['parts_cpu_s']:.1f}",
            f"{r['one_function_wall_s'] / max(r['parts_wall_s'], 1e-9):.2f}x",
            f"{r['baseline_wall_s']:.1f} / {r['baseline_cpu_s']:.1f}",
            f"{1000 * r['parts_cpu_s'] / r['instructions']:.1f} / "
            f"{1000 * r['baseline_cpu_s'] / r['instructions']:.1f}",
        )
    console.print(table)
    if opts.json:
        report = {"jobs": native.JOBS, "cpus": os.cpu_count(), "results": rows}
        write_output(opts.json, json.dumps(report, indent=1) + "\n", force=opts.force)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
