"""The benchmark's AMD side on the emulator, before and after, task by task in one run: each
task's rules-engine port is built the plain way (one clang++ command) and the precompiled way
(HIP headers precompiled, device and host compiled at once: runner/emulator/precompiled_build.py),
both timed, their device code compared byte for byte; then the program runs under every engine
back to back, so a change of load hits all alike.

    nice .venv/bin/python benchmarks/bench_amd_side.py --json F          # every task
    nice .venv/bin/python benchmarks/bench_amd_side.py --per-domain 4 graph

The AMD side of `cass bench` for a task is building the port plus running it. "Before" is the
plain build and the interpreter, "after" the precompiled build and the JIT (the defaults now).
Every run has a cache folder of its own (`CASS_CACHE_DIR`): no disassembly and no translation
from an earlier run, only the translated kernels' shared entry point (compiled once per
installation); the JIT figures include its tiering and compiling. The first precompiled build of a set of flags makes the headers (about a second,
once): it is counted. The table gives per domain the build and run times and the ratio; the
caption the totals, the identical device code count and the load average.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import tempfile
import time
import tomllib
from collections import defaultdict
from pathlib import Path

from cass.models.engine import Target, TranslationRequest
from cass.models.rules.engine import RulesEngine
from cass.runner.cache import cache_dir
from cass.runner.diagnostics import CassError
from cass.runner.emulator import build_hip_program, run_program
from cass.runner.emulator.jit import native
from cass.runner.outputs import OutputError, check_output, write_output
from emulator_task_sweep import TASKS, pick
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

ENGINES = ("interp", "jit")


def _device_code(exe: Path) -> bytes:
    out = exe.with_suffix(".fatbin")
    subprocess.run(["objcopy", "-O", "binary", "--only-section=.hip_fatbin", exe, out], check=True)
    return out.read_bytes()


def _build(source: Path, exe: Path, opt: str, precompiled: bool) -> float:
    os.environ["CASS_PRECOMPILED_HEADERS"] = "1" if precompiled else "0"
    started = time.perf_counter()
    build_hip_program(source, exe, extra_args=[opt])
    return round(time.perf_counter() - started, 2)


def measure(main_cu: Path, work: Path, opt: str, engines=ENGINES) -> dict:
    """One task: build seconds each way, whether the device code is the same, and per engine
    the run's wall seconds and whether it passed."""
    spec = tomllib.loads((main_cu.parent / "task.toml").read_text())
    rec: dict = {"task": main_cu.parent.name, "domain": main_cu.parent.parent.name}
    target = Target(hip_version=str(spec.get("port", {}).get("hip_version", "5.2")))
    request = TranslationRequest("source", main_cu.read_text(), str(main_cu), target)
    source = work / f"{rec['task']}.hip"
    source.write_text(RulesEngine().translate(request).text)
    plain, exe = work / f"{rec['task']}-plain", work / rec["task"]
    try:
        rec["plain_build_s"] = _build(source, plain, opt, precompiled=False)
        rec["build_s"] = _build(source, exe, opt, precompiled=True)
    except CassError as exc:
        return rec | {"error": exc.message.splitlines()[-1][:120]}
    finally:
        os.environ.pop("CASS_PRECOMPILED_HEADERS", None)
    rec["same_device_code"] = _device_code(plain) == _device_code(exe)
    for engine in engines:
        cache = Path(tempfile.mkdtemp(prefix=f"cache-{engine}-", dir=work))
        # the run's own cache: no disassembly, no translation from an earlier run; only the
        # entry point every translated kernel links (compiled once per installation) is there
        entry = native.entry_object().parent
        shutil.copytree(entry, cache / entry.name)
        env = {**os.environ, "CASS_EMULATOR_ENGINE": engine, "CASS_CACHE_DIR": str(cache)}
        for knob in (
            "CASS_EMULATOR_JIT_WAIT",
            "CASS_EMULATOR_JIT_HOT_S",
            "CASS_EMULATOR_JIT_TIERS",
        ):
            env.pop(knob, None)
        started = time.perf_counter()
        run = run_program(exe, spec.get("run", {}).get("args", []), timeout_s=600, env=env)
        rec[engine] = {
            "run_s": round(time.perf_counter() - started, 2),
            "pass": run.exit_code == 0 and "CHECK PASS" in run.stdout,
            "kernel_s": round(run.stats.emulation_wall_s, 2),
            "translated": run.stats.native_instructions / max(1, run.stats.instructions),
            "compile_s": round(run.stats.compile_s, 2),
        }
    return rec


def _totals(rows: list[dict]) -> dict:
    t = {
        "plain": sum(r["plain_build_s"] for r in rows),
        "precompiled": sum(r["build_s"] for r in rows),
        **{e: sum(r[e]["run_s"] for r in rows) for e in ENGINES},
    }
    t["before"] = t["plain"] + t["interp"]
    t["after"] = t["precompiled"] + t["jit"]
    return t


def render(results: list[dict]) -> Table:
    done = [r for r in results if "build_s" in r]
    t = _totals(done)
    same = sum(bool(r.get("same_device_code")) for r in done)
    caption = (
        f"{len(done)} tasks; AMD side (build + run): before (plain build, interpreter) "
        f"{t['before']:.0f} s, after (precompiled build, JIT) {t['after']:.0f} s: "
        f"{t['after'] / max(1e-9, t['before']):.2f}; builds {t['plain']:.0f} -> "
        f"{t['precompiled']:.0f} s, runs {t['interp']:.0f} -> {t['jit']:.0f} s; identical "
        f"device code {same}/{len(done)}; load average {os.getloadavg()[0]:.1f} on "
        f"{os.cpu_count()} CPUs"
    )
    table = Table(title="cass bench AMD side on the emulator: before and after", caption=caption)
    columns = ("domain", "tasks", "plain build s", "precompiled build s", "interp run s",
               "jit run s", "before s", "after s", "after/before")  # fmt: skip
    for col in columns:
        table.add_column(col, justify="left" if col == "domain" else "right")
    per: dict = defaultdict(list)
    for r in done:
        per[r["domain"]].append(r)
    for domain, rows in sorted(per.items()):
        d = _totals(rows)
        table.add_row(
            domain,
            str(len(rows)),
            *(f"{d[k]:.1f}" for k in ("plain", "precompiled", "interp", "jit", "before", "after")),
            f"{d['after'] / max(1e-9, d['before']):.2f}",
        )
    return table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("filters", nargs="*", help="substrings of task paths to run")
    parser.add_argument("--opt", default="-O2", help="clang optimisation level")
    parser.add_argument("--per-domain", type=int, default=0, help="only the first N per domain")
    parser.add_argument("--json", type=Path, help="also write every task's figures as JSON")
    parser.add_argument("--force", action="store_true", help="overwrite the --json file")
    opts = parser.parse_args(argv)
    if opts.json:
        try:
            check_output(opts.json, force=opts.force)
        except OutputError as exc:
            Console(stderr=True).print(str(exc), highlight=False)
            return 2
    tasks = sorted(TASKS.glob("*/*/main.cu"))
    tasks = [t for t in tasks if not opts.filters or any(f in str(t) for f in opts.filters)]
    tasks = pick(tasks, opts.per_domain, interleave=True)
    for made in cache_dir().glob("hip-pch-*"):  # the first build makes them, counted
        shutil.rmtree(made, ignore_errors=True)
    results = []
    with tempfile.TemporaryDirectory() as tmp, Progress(transient=True) as progress:
        bar = progress.add_task("tasks", total=len(tasks))
        for main_cu in tasks:
            progress.update(bar, description=main_cu.parent.name)
            results.append(measure(main_cu, Path(tmp), opts.opt))
            progress.advance(bar)
            if opts.json:
                write_output(opts.json, json.dumps(results, indent=2) + "\n", force=True)
    Console(width=max(Console().width, 120)).print(render(results))
    failed = [
        r["task"]
        for r in results
        if "error" in r or not all(r[e]["pass"] for e in ENGINES) or not r["same_device_code"]
    ]
    if failed:
        print("not passing under every engine, or other device code:", ", ".join(failed))
    return 0 if not failed else 1


if __name__ == "__main__":
    raise SystemExit(main())
