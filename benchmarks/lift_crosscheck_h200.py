"""NVIDIA cross-check of the lifter (run on a machine with an NVIDIA GPU, e.g. the H200).

For each benchmark task: build the original program with nvcc (sm_90), then rebuild it with the
device code replaced by the lifted NVPTX of its sm_80 SASS and of its sm_90 SASS (nvcc's own
build steps replayed from `nvcc --dryrun`, the fatbinary step fed the lifted PTX instead of the
cubin), run all three on identical inputs and compare stdout and exit code byte for byte.

    .venv/bin/python benchmarks/lift_crosscheck_h200.py [--task GLOB] [--jobs 4] [--out lift-crosscheck]

Writes lift-crosscheck/results.json and prints per-domain agreement rates.

The lift needs LLVM 16 (opt-16, llc-16), which a GPU machine may lack: lift here first with
`--lift-only DIR` (writes DIR/<domain>__<task>.<arch>.ptx), carry DIR there and run with
`--ptx-dir DIR`.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import re
import shlex
import subprocess
import tempfile
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from rich.console import Console
from rich.table import Table

NVCC = "/usr/local/cuda/bin/nvcc"
ARCHS = ("sm_80", "sm_90")
LIBS = {"cublas": "-lcublas", "curand": "-lcurand", "cufft": "-lcufft", "cusparse": "-lcusparse"}
TIMEOUT_S = 600
PTX_DIR: Path | None = None  # --ptx-dir: PTX lifted earlier on another machine


def ptx_name(source: Path, arch: str) -> str:
    return f"{source.parent.parent.name}__{source.parent.name}.{arch}.ptx"


def sh(cmd: list[str] | str, cwd: Path, timeout: float = TIMEOUT_S) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          shell=isinstance(cmd, str), executable="/bin/bash" if isinstance(cmd, str) else None)


def lifted_ptx(source: Path, arch: str, work: Path) -> str:
    if PTX_DIR is not None:
        lifted = PTX_DIR / ptx_name(source, arch)
        if not lifted.is_file():
            raise RuntimeError(f"not lifted: no {lifted.name} in {PTX_DIR}")
        return lifted.read_text()
    from cass.models.lift.elfinfo import read_cubin
    from cass.models.lift.inputs import disassemble
    from cass.models.lift.pipeline import lift_sass

    cubin = work / f"k.{arch}.cubin"
    proc = sh([NVCC, "-cubin", "-O3", f"-arch={arch}", "-o", str(cubin), str(source)], source.parent)
    if proc.returncode:
        raise RuntimeError(f"nvcc -cubin: {proc.stderr[-300:]}")
    result = lift_sass(disassemble(cubin, None), path=str(cubin), arch=arch, target="nvptx",
                       cubin=read_cubin(cubin.read_bytes()))  # fmt: skip
    if not result.ok:
        raise RuntimeError("lift: " + next(d.message for d in result.diagnostics if d.severity.value == "error"))
    return result.assembly


def build_with_ptx(source: Path, ptx: Path, exe: Path, flags: list[str]) -> None:
    """Replay nvcc's build with the device fatbin made from `ptx` only."""
    dry = sh([NVCC, "--dryrun", "-O3", "-arch=sm_90", *flags, str(source), "-o", str(exe)], source.parent)
    lines = [ln[3:] if ln.startswith("#$ ") else ln for ln in dry.stderr.splitlines()]
    script, replaced = [], False
    for line in lines:
        if re.match(r"^[A-Za-z_]+=", line):  # nvcc's variable lines: quote the whole value
            name, value = line.split("=", 1)
            line = f"{name}={shlex.quote(value)}"
        if line.startswith("rm "):
            line = "rm -f " + line[3:]
        if line.startswith("fatbinary") and " -link " not in line and not replaced:
            line = re.sub(r'"--image3=[^"]*"', "", line)
            line = line.replace("fatbinary -64", f"fatbinary -64 \"--image3=kind=ptx,sm=90,file={ptx}\"", 1)
            replaced = True
        script.append(line)
    if not replaced:
        raise RuntimeError("no fatbinary step in nvcc --dryrun")
    proc = sh("set -e\n" + "\n".join(script), source.parent)
    if proc.returncode:
        raise RuntimeError(f"replayed nvcc build failed: {proc.stderr[-400:]}")


def check_task(task_dir: str) -> dict:
    import tomllib

    d = Path(task_dir)
    source = d / "main.cu"
    meta = tomllib.loads((d / "task.toml").read_text())
    flags = [LIBS[lib] for lib in meta.get("libraries", []) if lib in LIBS]
    args = [str(a) for a in meta.get("run", {}).get("args", [])]
    row = {"task": f"{d.parent.name}/{d.name}", "domain": d.parent.name}
    with tempfile.TemporaryDirectory(prefix="cass-xcheck-") as name:
        work = Path(name)
        orig = work / "orig"
        proc = sh([NVCC, "-O3", "-arch=sm_90", *flags, str(source), "-o", str(orig)], d)
        if proc.returncode:
            return {**row, "error": f"original does not build: {proc.stderr[-300:]}"}
        ref = sh([str(orig), *args], d)
        for arch in ARCHS:
            try:
                ptx = work / f"lifted.{arch}.ptx"
                ptx.write_text(lifted_ptx(source, arch, work))
                exe = work / f"lifted.{arch}"
                build_with_ptx(source, ptx, exe, flags)
                run = sh([str(exe), *args], d)
                same = run.returncode == ref.returncode and run.stdout == ref.stdout
                row[arch] = "agree" if same else "differ"
                if not same:
                    row[f"{arch}_detail"] = f"exit {run.returncode} vs {ref.returncode}; stderr {run.stderr[-200:]}"
            except (RuntimeError, subprocess.TimeoutExpired, Exception) as exc:  # noqa: BLE001 - reported per task
                row[arch] = "not-lifted"
                row[f"{arch}_detail"] = str(exc)[:300]
    return row


def lift_only(task_dir: str, out: Path) -> list[str]:
    """Lift one task's SASS for every arch into `out`; returns the failures."""
    source = Path(task_dir) / "main.cu"
    failures = []
    for arch in ARCHS:
        with tempfile.TemporaryDirectory(prefix="cass-xlift-") as name:
            try:
                (out / ptx_name(source, arch)).write_text(lifted_ptx(source, arch, Path(name)))
            except Exception as exc:  # noqa: BLE001 - reported per task
                failures.append(f"{ptx_name(source, arch)}: {str(exc)[:200]}")
    return failures


def main(argv: list[str] | None = None) -> int:
    global PTX_DIR
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", default="*", help="glob on domain/name")
    parser.add_argument("--jobs", type=int, default=4)
    parser.add_argument("--out", type=Path, default=Path("lift-crosscheck"))
    parser.add_argument("--lift-only", type=Path, help="only lift, writing PTX into this folder")
    parser.add_argument("--ptx-dir", type=Path, help="use PTX lifted earlier with --lift-only")
    args = parser.parse_args(argv)
    PTX_DIR = args.ptx_dir
    root = Path(__file__).resolve().parents[1] / "models" / "bench" / "tasks"
    tasks = [str(p.parent) for p in sorted(root.glob("*/*/main.cu"))
             if fnmatch.fnmatch(f"{p.parent.parent.name}/{p.parent.name}", args.task)]  # fmt: skip
    if args.lift_only:
        args.lift_only.mkdir(parents=True, exist_ok=True)
        with ProcessPoolExecutor(args.jobs) as pool:
            failures = [f for fs in pool.map(lift_only, tasks, [args.lift_only] * len(tasks)) for f in fs]
        print(f"lifted {2 * len(tasks) - len(failures)} of {2 * len(tasks)}", *failures, sep="\n")
        return 0
    with ProcessPoolExecutor(args.jobs) as pool:
        rows = list(pool.map(check_task, tasks))
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "results.json").write_text(json.dumps(rows, indent=1))
    table = Table(title="lifted NVPTX vs original cubin (identical stdout and exit code)")
    for col in ("domain", "tasks", *(f"{a} lift agrees" for a in ARCHS)):
        table.add_column(col, justify="right" if col != "domain" else "left")
    by_domain = defaultdict(list)
    for r in rows:
        by_domain[r["domain"]].append(r)
    for domain, rs in sorted(by_domain.items()) + [("all", rows)]:
        cells = [f"{sum(r.get(a) == 'agree' for r in rs)}/{len(rs)}" for a in ARCHS]
        table.add_row(domain, str(len(rs)), *cells)
    Console().print(table)
    print(shlex.join(["results:", str(args.out / "results.json")]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
