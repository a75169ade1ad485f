"""NVIDIA cross-check of the lifter (run on a machine with an NVIDIA GPU, e.g. the H200).

For each benchmark task: build the original program with nvcc (sm_90), then rebuild it with the
device code replaced by the lifted NVPTX of its sm_80 SASS and of its sm_90 SASS (nvcc's own
build steps replayed from `nvcc --dryrun`, the fatbinary step fed the lifted PTX instead of the
cubin), run all three on identical inputs and compare them with cass's own comparator
(cass.runner.compare: integers exact, floats within the task's rtol/atol, exit codes equal) under
the task's run spec, as a verdict would.

The lift needs LLVM 16 (opt-16, llc-16), which the GPU machine lacks, so it runs in two halves:

    # here (LLVM 16): lift every task's sm_80 and sm_90 SASS to NVPTX, all 19 domains
    .venv/bin/python benchmarks/lift_crosscheck_h200.py --lift-only .xcheck [--task GLOB] [--jobs 2]
    # on the GPU machine (nvcc + driver, Python 3.11; rich optional): build, run, compare
    python3 benchmarks/lift_crosscheck_h200.py --ptx-dir .xcheck --jobs 16 --out lift-crosscheck

`--lift-only` writes DIR/<domain>__<task>.<arch>.ptx and DIR/manifest.json (which lifts failed and
why, the lifter's commit); stale PTX of the selected tasks is removed first, so the GPU side never
runs an old lift. The GPU side writes OUT/results.json and prints per-domain agreement rates.
"""

from __future__ import annotations

import argparse
import datetime as dt
import fnmatch
import json
import re
import shlex
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bare_checkout import import_runner  # noqa: E402

NVCC = "/usr/local/cuda/bin/nvcc"
ARCHS = ("sm_80", "sm_90")
LIBS = {"cublas": "-lcublas", "curand": "-lcurand", "cufft": "-lcufft", "cusparse": "-lcusparse"}
BUILD_TIMEOUT_S = 600
RUN_TIMEOUT_S = (
    30,
    10,
)  # a lifted program may run for max(30 s, 10 x the original) before it is stopped
ROOT = Path(__file__).resolve().parents[1]
TASKS_ROOT = ROOT / "models" / "bench" / "tasks"
MANIFEST = "manifest.json"


def ptx_name(source: Path, arch: str) -> str:
    return f"{source.parent.parent.name}__{source.parent.name}.{arch}.ptx"


def task_ident(task_dir: Path) -> str:
    return f"{task_dir.parent.name}/{task_dir.name}"


def sh(
    cmd: list[str] | str, cwd: Path, timeout: float = BUILD_TIMEOUT_S
) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False,
                          shell=isinstance(cmd, str), executable="/bin/bash" if isinstance(cmd, str) else None)  # fmt: skip


# ---------------------------------------------------------------- the lift (LLVM 16 machine)


def lift_to_ptx(source: Path, arch: str) -> str:
    """nvcc -cubin (the lifter's cubin cache: built once per source and arch) -> SASS -> NVPTX."""
    from cass.models.lift.elfinfo import read_cubin
    from cass.models.lift.inputs import _cached_cubin, disassemble  # the lifter's own cubin cache
    from cass.models.lift.pipeline import lift_sass

    cubin = _cached_cubin(source, source.read_bytes(), arch)
    if cubin is None:
        raise RuntimeError(f"nvcc -cubin -arch={arch} failed for {source}")
    result = lift_sass(disassemble(cubin, None), path=str(cubin), arch=arch, target="nvptx",
                       cubin=read_cubin(cubin.read_bytes(), str(cubin)))  # fmt: skip
    if not result.ok:
        raise RuntimeError(
            "lift: " + next(d.message for d in result.diagnostics if d.severity.value == "error")
        )
    return result.assembly


def lift_only(task_dir: str, out: Path) -> tuple[str, dict[str, str]]:
    """Lift one task's SASS for every arch into `out`: (task, {arch: "lifted" or why not})."""
    source = Path(task_dir) / "main.cu"
    outcome = {}
    for arch in ARCHS:
        (out / ptx_name(source, arch)).unlink(
            missing_ok=True
        )  # never leave an earlier lift where this one fails
        try:
            (out / ptx_name(source, arch)).write_text(lift_to_ptx(source, arch))
            outcome[arch] = "lifted"
        except Exception as exc:  # noqa: BLE001 - reported per task in the manifest
            outcome[arch] = " ".join(str(exc).split())[:400] or type(exc).__name__
    return task_ident(Path(task_dir)), outcome


def lifter_commit() -> str:
    head = sh(["git", "rev-parse", "--short", "HEAD"], ROOT, 30).stdout.strip()
    dirty = sh(["git", "status", "--porcelain", "--", "models/lift"], ROOT, 30).stdout.strip()
    return head + ("+uncommitted models/lift changes" if dirty else "")


def now() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")


def write_manifest(path: Path, manifest: dict) -> None:
    manifest["tasks"] = dict(sorted(manifest["tasks"].items()))
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(manifest, indent=1))
    tmp.replace(path)


def prepare(tasks: list[str], out: Path, jobs: int) -> int:
    """Lift `tasks` into `out`, the manifest updated after each task (an interrupted run leaves
    every PTX next to its own entry); tasks that failed or were lifted longest ago go first."""
    out.mkdir(parents=True, exist_ok=True)
    manifest_path = out / MANIFEST
    manifest = json.loads(manifest_path.read_text()) if manifest_path.is_file() else {"tasks": {}}
    lifter = lifter_commit()

    def staleness(t: str) -> tuple[bool, str]:
        entry = manifest["tasks"].get(task_ident(Path(t)), {})
        return all(entry.get(a) == "lifted" for a in ARCHS), entry.get("at", "")

    start = time.perf_counter()
    with ProcessPoolExecutor(jobs) as pool:
        futures = [pool.submit(lift_only, t, out) for t in sorted(tasks, key=staleness)]
        for task, outcome in progress(
            as_completed(futures), len(futures), "lifting", lambda f: f.result()
        ):
            manifest["tasks"][task] = {**outcome, "lifter": lifter, "at": now()}
            write_manifest(manifest_path, manifest)
    manifest.update(lifter=lifter, date=now(), lift_s=round(time.perf_counter() - start, 1))
    write_manifest(manifest_path, manifest)
    rows = {t: {a: manifest["tasks"][task_ident(Path(t))][a] for a in ARCHS} for t in tasks}
    lifted = sum(v == "lifted" for o in rows.values() for v in o.values())
    print(f"lifted {lifted} of {len(ARCHS) * len(tasks)} ({len(tasks)} tasks x {', '.join(ARCHS)}) into {out} "
          f"in {time.perf_counter() - start:.0f} s; lifter {manifest['lifter']}")  # fmt: skip
    for task, outcome in sorted((task_ident(Path(t)), o) for t, o in rows.items()):
        for arch, why in outcome.items():
            if why != "lifted":
                print(f"  {task} {arch}: {why}")
    return 0


# ---------------------------------------------------------------- the check (GPU machine)


def build_with_ptx(source: Path, ptx: Path, exe: Path, flags: list[str]) -> None:
    """Replay nvcc's build with the device fatbin made from `ptx` only (ptxas is skipped: its
    cubin is what the lifted PTX replaces)."""
    dry = sh(
        [NVCC, "--dryrun", "-O3", "-arch=sm_90", *flags, str(source), "-o", str(exe)], source.parent
    )
    lines = [ln.removeprefix("#$ ") for ln in dry.stderr.splitlines()]
    script, replaced = [], False
    for line in lines:
        if re.match(r"^[A-Za-z_]+=", line):  # nvcc's variable lines: quote the whole value
            name, value = line.split("=", 1)
            line = f"{name}={shlex.quote(value)}"
        if line.startswith("rm "):
            line = "rm -f " + line[3:]
        if line.startswith("ptxas "):
            continue
        if line.startswith("fatbinary") and " -link " not in line and not replaced:
            line = re.sub(r'"--image3=[^"]*"', "", line)
            line = line.replace(
                "fatbinary -64", f'fatbinary -64 "--image3=kind=ptx,sm=90,file={ptx}"', 1
            )
            replaced = True
        script.append(line)
    if not replaced:
        raise RuntimeError("no fatbinary step in nvcc --dryrun")
    proc = sh("set -e\n" + "\n".join(script), source.parent)
    if proc.returncode:
        raise RuntimeError(f"replayed nvcc build failed: {proc.stderr[-400:]}")


def not_lifted_reason(ptx_dir: Path, source: Path, arch: str) -> str:
    manifest = ptx_dir / MANIFEST
    task = task_ident(source.parent)
    why = (
        json.loads(manifest.read_text()).get("tasks", {}).get(task, {}).get(arch)
        if manifest.is_file()
        else None
    )
    return why or f"no {ptx_name(source, arch)} in {ptx_dir} (run --lift-only there first)"


def differences(
    source: Path, ref: subprocess.CompletedProcess, run: subprocess.CompletedProcess
) -> list[str]:
    """What a verdict would report between the original's run and the lifted one's (the task's
    run spec: tolerances, ignored lines), rendered; [] when they agree."""
    import_runner()
    from cass.runner.compare import compare_results
    from cass.runner.results import RunResult
    from cass.runner.spec import load_run_spec

    spec = load_run_spec(source)
    expected = RunResult("nvidia", ref.returncode, ref.stdout, ref.stderr)
    return [
        m.render()
        for m in compare_results(
            expected, RunResult("nvidia", run.returncode, run.stdout, run.stderr), spec
        )
    ]


def check_task(task_dir: str, ptx_dir: Path) -> dict:
    import tomllib

    d = Path(task_dir)
    source = d / "main.cu"
    meta = tomllib.loads((d / "task.toml").read_text())
    flags = [LIBS[lib] for lib in meta.get("libraries", []) if lib in LIBS]
    args = [str(a) for a in meta.get("run", {}).get("args", [])]
    row = {"task": task_ident(d), "domain": d.parent.name}
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="cass-xcheck-") as name:
        work = Path(name)
        orig = work / "orig"
        proc = sh([NVCC, "-O3", "-arch=sm_90", *flags, str(source), "-o", str(orig)], d)
        if proc.returncode:
            return {**row, "error": f"original does not build: {proc.stderr[-300:]}"}
        ran = time.perf_counter()
        ref = sh([str(orig), *args], d)
        row["original_s"] = round(time.perf_counter() - ran, 2)
        if ref.returncode != 0:  # a failing original proves nothing about a lift
            return {
                **row,
                "error": f"the original exited with code {ref.returncode}: {ref.stderr[-300:]}",
            }
        limit = max(RUN_TIMEOUT_S[0], RUN_TIMEOUT_S[1] * row["original_s"])
        for arch in ARCHS:
            ptx = ptx_dir / ptx_name(source, arch)
            if not ptx.is_file():
                row[arch], row[f"{arch}_detail"] = (
                    "not-lifted",
                    not_lifted_reason(ptx_dir, source, arch),
                )
                continue
            try:
                exe = work / f"lifted.{arch}"
                build_with_ptx(source, ptx.resolve(), exe, flags)
                run = sh([str(exe), *args], d, timeout=limit)
                found = differences(source, ref, run)
                row[arch] = "differ" if found else "agree"
                if found:
                    row[f"{arch}_detail"] = f"{found[0][:300]}; stderr {run.stderr[-200:]}"
            except subprocess.TimeoutExpired:
                row[arch], row[f"{arch}_detail"] = (
                    "differ",
                    f"still running after {limit:.0f} s (the original: {row['original_s']} s)",
                )
            except Exception as exc:  # noqa: BLE001 - reported per task
                row[arch], row[f"{arch}_detail"] = "build-error", str(exc)[:300]
    row["seconds"] = round(time.perf_counter() - start, 1)
    return row


def gpu_name() -> str:
    try:
        out = sh(
            ["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"], ROOT, 60
        ).stdout
    except (FileNotFoundError, subprocess.TimeoutExpired):
        return "unknown"
    return out.strip().splitlines()[0] if out.strip() else "unknown"


def check(tasks: list[str], ptx_dir: Path, out: Path, jobs: int) -> int:
    start = time.perf_counter()
    with ProcessPoolExecutor(jobs) as pool:
        futures = [pool.submit(check_task, t, ptx_dir) for t in tasks]
        rows = sorted(progress(as_completed(futures), len(futures), "cross-check", lambda f: f.result()),
                      key=lambda r: r["task"])  # fmt: skip
    manifest = ptx_dir / MANIFEST
    lift = json.loads(manifest.read_text()) if manifest.is_file() else {}
    meta = {"gpu": gpu_name(), "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "lifter": sorted({e.get("lifter", "?") for e in lift.get("tasks", {}).values()}),
            "lifted": lift.get("date", "?"), "jobs": jobs,
            "seconds": round(time.perf_counter() - start, 1),
            "command": "python3 " + shlex.join(["benchmarks/lift_crosscheck_h200.py", *sys.argv[1:]])}  # fmt: skip
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.json").write_text(json.dumps({**meta, "rows": rows}, indent=1))
    by_domain: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        by_domain[r["domain"]].append(r)
    table = [("domain", "tasks", *(f"{a} lift agrees" for a in ARCHS))]
    for domain, rs in [*sorted(by_domain.items()), ("all", rows)]:
        table.append(
            (
                domain,
                str(len(rs)),
                *(f"{sum(r.get(a) == 'agree' for r in rs)}/{len(rs)}" for a in ARCHS),
            )
        )
    print_table("lifted NVPTX vs original cubin (cass comparator, task tolerances)", table)
    print(
        f"{meta['gpu']}; {len(rows)} tasks in {meta['seconds']:.0f} s with {jobs} jobs; results: {out / 'results.json'}"
    )
    return 0


# ---------------------------------------------------------------- output (rich when installed)


def progress(items: Iterable, total: int, what: str, value: Callable) -> Iterable:
    """Each item's value, with a progress bar (rich) or a line every 10% (plain Python)."""
    try:
        from rich.progress import track
    except ImportError:
        for done, item in enumerate(items, 1):
            if done == total or done % max(1, total // 10) == 0:
                print(f"{what}: {done}/{total}", flush=True)
            yield value(item)
        return
    for item in track(items, total=total, description=what, transient=True):
        yield value(item)


def print_table(title: str, rows: list[tuple[str, ...]]) -> None:
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        print(title)
        for r in rows:
            print(
                "  ".join(
                    c.ljust(w) if i == 0 else c.rjust(w)
                    for i, (c, w) in enumerate(zip(r, widths, strict=True))
                )
            )
        return
    table = Table(title=title)
    for i, col in enumerate(rows[0]):
        table.add_column(col, justify="left" if i == 0 else "right")
    for r in rows[1:]:
        table.add_row(*r)
    Console().print(table)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--task", default="*", help="glob on domain/name (default: every task of all domains)"
    )
    parser.add_argument("--jobs", type=int, default=4)
    parser.add_argument("--out", type=Path, default=Path("lift-crosscheck"))
    parser.add_argument(
        "--lift-only", type=Path, help="only lift, writing PTX and manifest.json into this folder"
    )
    parser.add_argument(
        "--ptx-dir",
        type=Path,
        help="use PTX lifted earlier with --lift-only (required on the GPU machine)",
    )
    args = parser.parse_args(argv)
    tasks = [str(p.parent) for p in sorted(TASKS_ROOT.glob("*/*/main.cu"))
             if fnmatch.fnmatch(task_ident(p.parent), args.task)]  # fmt: skip
    if not tasks:
        parser.error(f"no benchmark task matches {args.task!r}")
    if args.lift_only:
        return prepare(tasks, args.lift_only, max(1, args.jobs))
    if not args.ptx_dir:
        parser.error(
            "give --lift-only DIR (on the LLVM 16 machine) or --ptx-dir DIR (on the GPU machine)"
        )
    return check(tasks, args.ptx_dir, args.out, max(1, args.jobs))


if __name__ == "__main__":
    raise SystemExit(main())
