"""Record NVIDIA reference outputs for many small CUDA programs at once (the dataset's synthetic
programs) on a machine with an NVIDIA GPU: standard library and nvcc only.

    python3 benchmarks/bench_dataset_record_nvidia.py PROGRAMS_DIR -o references.json [--batch 20] [--jobs 16]

nvcc's fixed cost per call (two host-compiler passes over the CUDA headers) dominates a small
program's build, so programs are built `--batch` to a translation unit: each program's text,
its `#include` lines hoisted to the top, inside its own `namespace` with `main` renamed, and a
driver `main` that runs program `argv[1]`. Every program still runs in its own process (its
own CUDA context, its exit code and `exit()` calls unchanged). A batch that fails to compile is
rebuilt one program per file, so one bad program costs only itself.

The output maps each program's source sha256 (line endings normalised, as cass.runner.spec's
source_digest) to its record: stdout, stderr, exit code, GPU, compute capability, driver, CUDA
version, date, and how it was built. `cass dataset build --references references.json` reads it.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

INCLUDE = re.compile(r"^\s*#\s*include\s*[<\"].*$", re.M)
MAIN = re.compile(r"\bint\s+main\s*\(\s*\)")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes().replace(b"\r\n", b"\n")).hexdigest()


def batch_source(programs: list[Path]) -> str:
    """One translation unit running program `argv[1]` of `programs`."""
    includes: list[str] = []
    bodies = []
    for i, path in enumerate(programs):
        text = path.read_text(encoding="utf-8")
        includes += [m.group(0).strip() for m in INCLUDE.finditer(text)]
        body = MAIN.sub("int main_()", INCLUDE.sub("", text))
        bodies.append(f"namespace program_{i} {{\n{body}\n}}  // namespace program_{i}\n#undef CHECK\n")
    calls = "\n".join(f"    if (which == {i}) return program_{i}::main_();" for i in range(len(programs)))
    driver = f"int main(int argc, char** argv) {{\n    const int which = argc > 1 ? atoi(argv[1]) : -1;\n{calls}\n    return 3;\n}}\n"
    head = "\n".join(dict.fromkeys(["#include <cstdlib>", *includes]))
    return head + "\n" + "\n".join(bodies) + driver


def nvcc(source: Path, exe: Path, arch: str) -> tuple[bool, str]:
    cmd = ["nvcc", f"-arch={arch}", "-O3", "-o", str(exe), str(source)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600, check=False)
    return proc.returncode == 0, proc.stderr[-2000:]


def build(programs: list[Path], work: Path, index: int, arch: str) -> list[tuple[Path, list[str]]]:
    """[(executable, argv suffix)] per program; a failed batch falls back to one build each."""
    unit = work / f"batch_{index}.cu"
    unit.write_text(batch_source(programs), encoding="utf-8")
    exe = work / f"batch_{index}.out"
    ok, _ = nvcc(unit, exe, arch)
    if ok:
        return [(exe, [str(i)]) for i in range(len(programs))]
    out = []
    for j, path in enumerate(programs):
        single = work / f"single_{index}_{j}.out"
        built, log = nvcc(path, single, arch)
        out.append((single if built else Path(""), [] if built else [log]))
    return out


def run(exe: Path, argv: list[str], timeout: float) -> dict:
    if not exe.name:
        return {"exit_code": None, "stdout": "", "stderr": "does not compile with nvcc: " + "".join(argv)[-800:], "built": False}
    try:
        proc = subprocess.run([str(exe), *argv], capture_output=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return {"exit_code": None, "stdout": "", "stderr": f"timed out after {timeout} s", "timed_out": True, "built": True}
    return {"exit_code": proc.returncode, "stdout": proc.stdout.decode("utf-8", "replace"),
            "stderr": proc.stderr.decode("utf-8", "replace")[-4000:], "built": True}  # fmt: skip


def machine() -> dict:
    def query(field: str) -> str:
        proc = subprocess.run(["nvidia-smi", f"--query-gpu={field}", "--format=csv,noheader"], capture_output=True, text=True, check=False)
        return proc.stdout.strip().splitlines()[0] if proc.returncode == 0 and proc.stdout.strip() else ""

    version = subprocess.run(["nvcc", "--version"], capture_output=True, text=True, check=False).stdout
    cuda = re.search(r"release ([\d.]+), V([\d.]+)", version)
    return {"gpu": query("name"), "compute_capability": query("compute_cap"), "driver": query("driver_version"),
            "cuda": cuda.group(2) if cuda else "", "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("programs", type=Path)
    parser.add_argument("-o", "--output", type=Path, required=True)
    parser.add_argument("--batch", type=int, default=20)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--gpu-jobs", type=int, default=8)
    parser.add_argument("--arch", default="sm_90")
    parser.add_argument("--timeout", type=float, default=60.0)
    args = parser.parse_args(argv)
    sources = sorted(args.programs.rglob("*.cu"))
    batches = [sources[i : i + args.batch] for i in range(0, len(sources), args.batch)]
    info = machine()
    print(f"{len(sources)} programs in {len(batches)} batches on {info['gpu'] or 'no GPU found'}", flush=True)
    with tempfile.TemporaryDirectory(prefix="cass-record-batch-") as name, ThreadPoolExecutor(args.jobs) as pool:
        built = list(pool.map(lambda ib: build(ib[1], Path(name), ib[0], args.arch), enumerate(batches)))
        print(f"built in {sum(len(b) for b in built)} program slots", flush=True)
        jobs = [(src, exe, rest) for batch, outs in zip(batches, built) for src, (exe, rest) in zip(batch, outs)]
        with ThreadPoolExecutor(args.gpu_jobs) as gpu:
            results = list(gpu.map(lambda job: run(job[1], job[2], args.timeout), jobs))
    how = f"nvcc -arch={args.arch} -O3, {args.batch} programs per translation unit (each in its own namespace), one process per program"
    records = {digest(src): {"source": src.name, **info, "build": how, **res} for (src, _, _), res in zip(jobs, results)}
    args.output.write_text(json.dumps(records, indent=1, sort_keys=True), encoding="utf-8")
    passed = sum(r.get("exit_code") == 0 for r in records.values())
    print(f"{len(records)} recorded, {passed} exited 0, written to {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
