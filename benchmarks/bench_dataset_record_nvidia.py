"""Record NVIDIA reference outputs for many small CUDA programs at once (the dataset's synthetic
programs) on a machine with an NVIDIA GPU: standard library and nvcc only.

    python3 benchmarks/bench_dataset_record_nvidia.py PROGRAMS_DIR -o references.jsonl [--batch 20] [--jobs 16] [--deadline-s 200]

nvcc's fixed cost per call (two host-compiler passes over the CUDA headers) dominates a small
program's build, so programs are built `--batch` to a translation unit: each program's text,
its `#include` lines hoisted to the top, inside its own `namespace` with `main` renamed, and a
driver `main` that runs program `argv[1]`. Every program still runs in its own process (its
own CUDA context, its exit code and `exit()` calls unchanged). A batch that fails to compile is
rebuilt one program per file, so one bad program costs only itself.

The output has one JSON line per program, written as each run finishes (a call stopped at its
time limit keeps what it recorded; `--deadline-s` stops starting new work in time): the
program's source sha256 (line endings normalised, as cass.runner.spec's source_digest), stdout,
stderr, exit code, GPU, compute capability, driver, CUDA version, date, and how it was built.
`cass dataset build --references references.jsonl` reads it.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
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
        bodies.append(
            f"namespace program_{i} {{\n{body}\n}}  // namespace program_{i}\n#undef CHECK\n"
        )
    calls = "\n".join(
        f"    if (which == {i}) return program_{i}::main_();" for i in range(len(programs))
    )
    driver = f"int main(int argc, char** argv) {{\n    const int which = argc > 1 ? atoi(argv[1]) : -1;\n{calls}\n    return 3;\n}}\n"
    head = "\n".join(dict.fromkeys(["#include <cstdlib>", *includes]))
    return head + "\n" + "\n".join(bodies) + driver


def nvcc(source: Path, exe: Path, arch: str) -> tuple[bool, str]:
    cmd = [
        shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc",
        f"-arch={arch}",
        "-O3",
        "-o",
        str(exe),
        str(source),
    ]
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
        return {
            "exit_code": None,
            "stdout": "",
            "stderr": "does not compile with nvcc: " + "".join(argv)[-800:],
            "built": False,
        }
    try:
        proc = subprocess.run([str(exe), *argv], capture_output=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return {
            "exit_code": None,
            "stdout": "",
            "stderr": f"timed out after {timeout} s",
            "timed_out": True,
            "built": True,
        }
    return {"exit_code": proc.returncode, "stdout": proc.stdout.decode("utf-8", "replace"),
            "stderr": proc.stderr.decode("utf-8", "replace")[-4000:], "built": True}  # fmt: skip


def machine() -> dict:
    def query(field: str) -> str:
        try:
            proc = subprocess.run(
                ["nvidia-smi", f"--query-gpu={field}", "--format=csv,noheader"],
                capture_output=True,
                text=True,
                check=False,
            )
        except OSError:
            return ""
        return (
            proc.stdout.strip().splitlines()[0]
            if proc.returncode == 0 and proc.stdout.strip()
            else ""
        )

    nvcc_path = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    version = subprocess.run(
        [nvcc_path, "--version"], capture_output=True, text=True, check=False
    ).stdout
    cuda = re.search(r"release ([\d.]+), V([\d.]+)", version)
    return {"gpu": query("name"), "compute_capability": query("compute_cap"), "driver": query("driver_version"),
            "cuda": cuda.group(2) if cuda else "", "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    """Size: argument parsing, the build phase and the run phase, each a few lines."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("programs", type=Path)
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        required=True,
        help="JSON lines, one record per line, written as runs finish",
    )
    parser.add_argument("--batch", type=int, default=20)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--gpu-jobs", type=int, default=8)
    parser.add_argument("--arch", default="sm_90")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument(
        "--deadline-s",
        type=float,
        default=0.0,
        help="start no build or run after this many seconds",
    )
    args = parser.parse_args(argv)
    started = time.monotonic()

    def late() -> bool:
        return bool(args.deadline_s) and time.monotonic() - started > args.deadline_s

    sources = sorted(args.programs.rglob("*.cu"))
    batches = [sources[i : i + args.batch] for i in range(0, len(sources), args.batch)]
    info = machine()
    how = f"nvcc -arch={args.arch} -O3, {args.batch} programs per translation unit (each in its own namespace), one process per program"
    print(
        f"{len(sources)} programs in {len(batches)} batches on {info['gpu'] or 'no GPU found'}",
        flush=True,
    )
    lock, counts = threading.Lock(), {"runs": 0, "passed": 0}
    with (
        tempfile.TemporaryDirectory(prefix="cass-record-batch-") as name,
        open(args.output, "w", encoding="utf-8") as sink,
    ):

        def build_one(item: tuple[int, list[Path]]) -> list[tuple[Path, list[str]]]:
            return [] if late() else build(item[1], Path(name), item[0], args.arch)

        def run_one(job: tuple[Path, Path, list[str]]) -> None:
            if late():
                return
            result = run(job[1], job[2], args.timeout)
            line = json.dumps(
                {"sha256": digest(job[0]), "source": job[0].name, **info, "build": how, **result},
                sort_keys=True,
            )
            with lock:
                sink.write(line + "\n")
                sink.flush()
                counts["runs"] += 1
                counts["passed"] += result.get("exit_code") == 0
                if counts["runs"] % 100 == 0:
                    print(
                        f"{counts['runs']} run, {counts['passed']} exited 0, {time.monotonic() - started:.0f} s",
                        flush=True,
                    )

        with ThreadPoolExecutor(args.jobs) as pool:
            built = list(pool.map(build_one, enumerate(batches)))
        print(
            f"built {sum(len(b) for b in built)} programs in {time.monotonic() - started:.0f} s",
            flush=True,
        )
        jobs = [
            (src, exe, rest)
            for batch, outs in zip(batches, built)
            for src, (exe, rest) in zip(batch, outs)
        ]
        with ThreadPoolExecutor(args.gpu_jobs) as gpu:
            list(gpu.map(run_one, jobs))
    print(
        f"{counts['runs']} recorded, {counts['passed']} exited 0, in {time.monotonic() - started:.0f} s: {args.output}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
