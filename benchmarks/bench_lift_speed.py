"""Lifter speed: time to translate SASS kernels to gfx1100, split into parse+lift (Python),
opt-16 and llc-16. Target (issue 25): every lift under 2 s.

    .venv/bin/python benchmarks/bench_lift_speed.py [--instructions 500 2000 5000] [--repeat 3]
        [--task crypto_hashing/sha512_chains ...] [--arch sm_90] [--opt-o3]
        [--rodinia myocyte heartwall] [--rodinia-arch sm_80 sm_90]
        [--corpus ../shared/corpus/rodinia-cuda.tar.gz]
        [--baseline NAMESPACE_DIR] [--json OUT]

Two kinds of kernel: a synthetic sm_90 mix (index math, 64-bit address pairs, loads, FFMA chains,
compares, predicated updates, a loop back-edge, stores; blocks of 16 instructions repeated to N),
and the real kernels of benchmark tasks (`--task`, compiled with nvcc -cubin here; by default the
largest one, sha512_chains, ~7,400 instructions). Each row gives wall time and CPU time (this
process plus its opt/llc children) of the translation as the lifter runs it (`lift_sass`: the
parts of a multi-kernel module compiled while the next kernels are lifted; what a user waits
for after disassembly) and of its stages timed one after another: on a shared machine the wall
time mostly measures the other load, the CPU time what the translation costs. `--opt-o3` times the earlier `opt -O3`
pipeline instead of the lifter's pass list (targets.OPT_PASSES), for comparison. opt and llc
are timed as compile_module runs them: opt-16 writes bitcode, and a module of several kernels
is cut into parts (models/lift/parts.py) compiled by concurrent opt-16 and llc-16 processes (the
`llc jobs` column; module.SPLIT_MIN): its opt and llc CPU times are their sums, their wall times
about those of the largest part. A module whose kernels share a global is optimised whole and
split after opt-16 by llvm-split-16 (module.codegen_parts), as a --baseline from before the cut
may do.

`--rodinia APP ...` adds the largest kernels of the Rodinia corpus (myocyte: 20,500 SASS
instructions in one file; heartwall: 5,700), compiled for sm_80 (`--rodinia-arch sm_80 sm_90`:
each arch) as benchmarks/lift_rodinia.py does; without the corpus they are skipped with a message. `--baseline DIR` times the same
kernels, in the same run, with another version of cass: DIR holds a `cass` package (a
`git worktree` of an older commit with `cass/{runner,models,server,hooks}` symlinks), and the
table shows both and their ratio. Every run is timed in a child process of its own (a cold
start, as a lift is), the versions taking turns run by run, so that a load that changes during
the benchmark weighs on both alike. The 1-minute load average before and after each run is
printed under the table and kept in the JSON (`load_average`): on a shared machine CPU seconds
grow with the load too.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
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
ROOT = Path(__file__).resolve().parents[1]
TASKS_ROOT = ROOT / "models" / "bench" / "tasks"
CORPUS = ROOT.parent / "shared" / "corpus" / "rodinia-cuda.tar.gz"
DEFAULT_RODINIA = ["myocyte", "heartwall"]
STAGES = ("lift", "opt", "llc")
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


def measure(text: str, path: str, arch: str, cubin=None) -> dict[str, float]:
    """Wall and CPU seconds of one translation as the lifter runs it (`lift_sass`: parts compiled
    while later kernels are lifted), then of each of its stages timed apart: parse + IR build
    (Python), opt-16, llc-16; and the SASS instruction count."""
    from cass.models.lift.pipeline import lift_sass

    result, wall, cpu = timed(lambda: lift_sass(text, path=path, arch=arch, cubin=cubin))
    assert result.ok, [d.render() for d in result.diagnostics]
    return {
        "translation_wall": wall,
        "translation_cpu": cpu,
        **measure_stages(text, path, arch, cubin),
    }


def measure_stages(text: str, path: str, arch: str, cubin=None) -> dict[str, float]:
    from cass.models.lift import module
    from cass.models.lift.pipeline import lift_sass
    from cass.models.lift.targets import AMDGCN

    result, lift_wall, lift_cpu = timed(
        lambda: lift_sass(text, path=path, arch=arch, compile=False, cubin=cubin)
    )
    assert result.ok, [d.render() for d in result.diagnostics]
    sizes = [k.instructions for k in result.kernels]
    if len(getattr(result, "parts", ())) > 1:  # cut by the lifter: one opt-16 | llc-16 per part
        return {"instructions": sum(sizes), "lift_wall": lift_wall, "lift_cpu": lift_cpu,
                **measure_parts(list(result.parts))}  # fmt: skip
    linked = module.link_device_libs(result.llvm_ir, AMDGCN)
    largest = max(sizes)
    if hasattr(module, "codegen_parts"):  # compile_module's path: bitcode, parts in parallel
        jobs = module.split_jobs(linked, AMDGCN, len(sizes), sum(sizes))
        with tempfile.TemporaryDirectory(prefix="cass-lift-speed-") as name:
            bitcode = Path(name) / "module.bc"
            _, opt_wall, opt_cpu = timed(
                lambda: module.optimize_to_bitcode(linked, AMDGCN, bitcode, largest)
            )
            _, llc_wall, llc_cpu = timed(
                lambda: module.codegen_parts(bitcode, AMDGCN, largest, jobs)
            )
        return {"instructions": sum(sizes), "lift_wall": lift_wall, "lift_cpu": lift_cpu,
                "opt_wall": opt_wall, "opt_cpu": opt_cpu, "llc_wall": llc_wall, "llc_cpu": llc_cpu,
                "llc_jobs": jobs}  # fmt: skip
    optimized, opt_wall, opt_cpu = timed(lambda: module.optimize(linked, AMDGCN))
    if hasattr(AMDGCN, "llc_argv"):  # the options compile_module uses (a --baseline may lack it)
        llc = AMDGCN.llc_argv(largest)
    else:
        llc = ["llc-16", "-O3", *AMDGCN.llc_args, "-o", "-", "-"]
    _, llc_wall, llc_cpu = timed(lambda: module._run(llc, str(optimized), "llc-16"))
    return {"instructions": sum(k.instructions for k in result.kernels),
            "lift_wall": lift_wall, "lift_cpu": lift_cpu, "opt_wall": opt_wall, "opt_cpu": opt_cpu,
            "llc_wall": llc_wall, "llc_cpu": llc_cpu}  # fmt: skip


def measure_parts(parts: list) -> dict[str, float]:
    """opt-16 and llc-16 over a module the lifter cut into parts (module.compile_parts): the
    parts' opt-16 processes run concurrently, then their llc-16 processes, so that each stage is
    timed apart (compile_module runs each part's pair in turn, the parts concurrently: the same
    CPU time, its wall time at most this one)."""
    from concurrent.futures import ThreadPoolExecutor

    from cass.models.lift import module
    from cass.models.lift.targets import AMDGCN

    with tempfile.TemporaryDirectory(prefix="cass-lift-speed-") as name, \
            ThreadPoolExecutor(len(parts)) as pool:  # fmt: skip
        texts = module.part_modules(parts, AMDGCN)
        files = [Path(name) / f"part{k}.bc" for k in range(len(parts))]
        _, opt_wall, opt_cpu = timed(lambda: list(pool.map(
            lambda k: module.optimize_to_bitcode(texts[k], AMDGCN, files[k], parts[k].largest_kernel),
            range(len(parts)))))  # fmt: skip
        _, llc_wall, llc_cpu = timed(lambda: module.merge_assembly(list(pool.map(
            lambda k: module.part_assembly(files[k], AMDGCN, parts[k].largest_kernel),
            range(len(parts))))))  # fmt: skip
    return {"opt_wall": opt_wall, "opt_cpu": opt_cpu, "llc_wall": llc_wall, "llc_cpu": llc_cpu,
            "llc_jobs": len(parts)}  # fmt: skip


def task_listing(task: str, arch: str, work: Path) -> Path:
    """A benchmark task's cubin (nvcc -cubin -O3 -arch=ARCH)."""
    source = TASKS_ROOT / task / "main.cu"
    if not source.is_file():
        raise SystemExit(f"{task}: no such benchmark task ({source} is missing)")
    cubin = work / f"{task.replace('/', '__')}.{arch}.cubin"
    proc = subprocess.run([NVCC, "-cubin", "-O3", f"-arch={arch}", "-o", str(cubin), str(source)],
                          capture_output=True, text=True, timeout=600, check=False)  # fmt: skip
    if proc.returncode:
        raise SystemExit(f"{task}: nvcc -cubin failed: {proc.stderr[-400:]}")
    return cubin


def rodinia_cubins(
    apps: list[str], corpus: Path, work: Path, archs: tuple[str, ...] = ("sm_80",)
) -> list[tuple[str, Path, str]]:
    """(label, cubin, arch) of each application's main.cu per arch, compiled with the flags
    benchmarks/lift_rodinia.py uses; [] with a message when the corpus is absent."""
    if not apps:
        return []
    if not corpus.exists():
        print(
            f"skipped the Rodinia kernels: {corpus} is absent (the corpus lives beside the clone)"
        )
        return []
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import lift_rodinia as lr

    tree = lr.pr.extract_corpus(corpus, work)
    compat = work / "cuda_compat.h"
    compat.write_text("#include <cuda_runtime.h>\n#define cudaThreadSynchronize cudaDeviceSynchronize\n"
                      "#define cudaThreadExit cudaDeviceReset\n")  # fmt: skip
    found = []
    for app in apps:
        for arch in archs:
            folder = tree / "cuda" / app
            source = folder / "main.cu"
            cubin = work / f"rodinia_{app}.{arch}.cubin"
            flags = lr.nvcc_flags(tree, folder, source, compat)
            ok, why = lr.cubin_of(source, flags, arch, cubin)[:2]  # (ok, first error, ...)
            if not ok:
                raise SystemExit(f"rodinia {app}: nvcc -cubin failed: {why}")
            found.append((f"rodinia {app}/main.cu ({arch})", cubin, arch))
    return found


def child(spec_path: Path) -> int:
    """Time every kernel of a spec file in this process (the cass it imports is the version
    measured) and print the figures as JSON."""
    from cass.models.lift.elfinfo import read_cubin
    from cass.models.lift.inputs import disassemble

    spec = json.loads(spec_path.read_text())
    if spec["opt_o3"]:
        from cass.models.lift import module

        module.OPT_FLAGS = ("-O3", "--simplifycfg-hoist-common=false")  # type: ignore[misc]
    rows = []
    for item in spec["kernels"]:
        if item["cubin"]:
            cubin = Path(item["cubin"])
            text, info = disassemble(cubin, None), read_cubin(cubin.read_bytes(), str(cubin))
        else:
            text, info = Path(item["sass"]).read_text(), None
        load = [os.getloadavg()[0]]
        runs = [measure(text, item["label"], item["arch"], info) for _ in range(spec["repeat"])]
        load.append(os.getloadavg()[0])
        rows.append({"label": item["label"], "runs": runs, "load": load})
    print(json.dumps(rows))
    return 0


def run_version(spec: Path, namespace: Path | None) -> list[dict]:
    env = dict(os.environ)
    if namespace is not None:
        env["PYTHONPATH"] = str(namespace)
    proc = subprocess.run([sys.executable, __file__, "--child", str(spec)], env=env,
                          capture_output=True, text=True, check=False)  # fmt: skip
    if proc.returncode:
        raise SystemExit(f"timing {namespace or 'this version'} failed:\n{proc.stderr[-2000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def timed_in_turns(kernels: list[dict], repeat: int, opt_o3: bool, work: Path,
                   baseline: Path | None) -> dict[str, list[dict]]:  # fmt: skip
    """Each kernel's runs under each version, one child process per run, the versions taking
    turns (this version, the baseline, this version...): a load that changes while the
    benchmark runs weighs on both alike. Every run is a cold start, as a lift is."""
    versions: dict[str, Path | None] = {"this version": None}
    if baseline is not None:
        versions["baseline"] = baseline
    results: dict[str, list[dict]] = {version: [] for version in versions}
    spec = work / "spec.json"
    for item in kernels:
        rows = {version: {"label": item["label"], "runs": [], "load": []} for version in versions}
        for _ in range(repeat):
            for version, namespace in versions.items():
                spec.write_text(json.dumps({"kernels": [item], "repeat": 1, "opt_o3": opt_o3}))
                (row,) = run_version(spec, namespace)
                rows[version]["runs"] += row["runs"]
                rows[version]["load"] += row["load"]
        for version in versions:
            results[version].append(rows[version])
    return results


def medians(runs: list[dict]) -> dict[str, float]:
    keys = [f"{s}_{k}" for s in (*STAGES, "translation") for k in ("wall", "cpu")]
    out = {k: statistics.median(r[k] for r in runs) for k in keys}
    out["total_wall"] = sum(out[f"{s}_wall"] for s in STAGES)
    out["total_cpu"] = sum(out[f"{s}_cpu"] for s in STAGES)
    out["instructions"] = runs[0]["instructions"]
    out["llc_jobs"] = runs[0].get("llc_jobs", 1)
    return out


def table(results: dict[str, list[dict]]) -> Table:
    table = Table(title="SASS -> gfx1100 translation time in seconds (median of runs; cpu = "
                        "this process + opt/llc; translation = lift_sass as the lifter runs it, "
                        "the stages overlapping; lift = parse + IR build, each stage timed "
                        "apart)")  # fmt: skip
    columns = ["kernel", "version", "SASS instructions", "translation wall", "translation cpu",
               "lift cpu", "opt cpu", "llc cpu", "llc jobs", "stages cpu", "stages wall"]  # fmt: skip
    if "baseline" in results:
        columns += ["wall vs baseline", "cpu vs baseline"]
    for column in columns:
        table.add_column(column, justify="left" if column in ("kernel", "version") else "right")
    base = {r["label"]: medians(r["runs"]) for r in results.get("baseline", [])}
    for k, row in enumerate(results["this version"]):
        for version in results:
            m = medians(results[version][k]["runs"])
            cells = [row["label"] if version == "this version" else "", version, str(m["instructions"]),
                     f"{m['translation_wall']:.2f}", f"{m['translation_cpu']:.2f}",
                     *(f"{m[f'{s}_cpu']:.2f}" for s in STAGES), str(m["llc_jobs"]), f"{m['total_cpu']:.2f}",
                     f"{m['total_wall']:.2f}"]  # fmt: skip
            if "baseline" in results:
                b = base[row["label"]]
                ratios = (
                    m["translation_wall"] / b["translation_wall"],
                    m["total_cpu"] / b["total_cpu"],
                )
                cells += [f"{r:.2f}x" if version == "this version" else "" for r in ratios]
            table.add_row(*cells)
    return table


def main(argv: list[str] | None = None) -> int:
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
    parser.add_argument("--rodinia", nargs="*", default=DEFAULT_RODINIA,
                        help="Rodinia applications whose main.cu kernels to time")  # fmt: skip
    parser.add_argument("--rodinia-arch", nargs="+", default=["sm_80"],
                        help="SASS archs of the Rodinia kernels")  # fmt: skip
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--baseline", type=Path,
                        help="a directory holding another cass version's package")  # fmt: skip
    parser.add_argument("--json", type=Path, help="write the figures here")
    parser.add_argument("--force", action="store_true", help="replace an existing --json file")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return child(args.child)
    if args.json:
        from cass.runner.diagnostics import CassError
        from cass.runner.outputs import check_output

        try:
            check_output(args.json, force=args.force)
        except CassError as exc:
            print(f"error: {exc.message}", file=sys.stderr)
            return 1
    with tempfile.TemporaryDirectory(prefix="cass-lift-speed-") as name:
        work = Path(name)
        kernels = []
        for n in args.instructions:
            sass = work / f"synthetic{n}.sass"
            sass.write_text(synthetic_sass(n))
            kernels.append(
                {"label": f"synthetic {n}", "sass": str(sass), "cubin": "", "arch": "sm_90"}
            )
        for task in args.task:
            cubin = task_listing(task, args.arch, work)
            kernels.append(
                {"label": f"{task} ({args.arch})", "cubin": str(cubin), "arch": args.arch}
            )
        for label, cubin, arch in rodinia_cubins(
            args.rodinia, args.corpus, work, tuple(args.rodinia_arch)
        ):
            kernels.append({"label": label, "cubin": str(cubin), "arch": arch})
        results = timed_in_turns(kernels, args.repeat, args.opt_o3, work, args.baseline)
    Console(width=200).print(table(results))
    loads = [x for rows in results.values() for r in rows for x in r.get("load", ())]
    if loads:  # CPU seconds grow with the machine's load (shared caches, SMT siblings)
        print(
            f"1-minute load average while timing: {min(loads):.1f} to {max(loads):.1f} "
            f"on {os.cpu_count()} CPUs"
        )
    if args.json:
        from cass.runner.outputs import write_atomic

        figures = {v: [{"label": r["label"], **medians(r["runs"]), "load_average": r.get("load")}
                       for r in rows]
                   for v, rows in results.items()}  # fmt: skip
        write_atomic(args.json, json.dumps(figures, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
