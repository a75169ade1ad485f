"""Speed of project porting (`cass port DIR -o OUT`): one process for a whole tree.

    .venv/bin/python benchmarks/bench_port_project.py [--files 750] [--repeat 3]

Builds a tree of `--files` files from the benchmark's CUDA programs (models/bench/tasks/**/main.cu,
a third each of `.cu` kernels, `.cpp` host files calling the CUDA runtime through a shared helper
header on the include path, and plain `.c` files that are copied), then times the `cass port`
command end to end (start-up included), and the same for the Rodinia corpus where
`../shared/corpus/rodinia-cuda.tar.gz` exists beside the clone.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CASS = ROOT / ".venv" / "bin" / "cass"
CORPUS = ROOT.parent / "shared" / "corpus" / "rodinia-cuda.tar.gz"
HELPER = (
    "#pragma once\n#include <cuda_runtime.h>\n#define CHECK(x) if ((x) != cudaSuccess) return 1\n"
)
HOST = "#include <helper.h>\nint host{n}(float **p) {{ CHECK(cudaMalloc((void**)p, 64)); return 0; }}\n"


def build_tree(root: Path, files: int) -> None:
    kernels = sorted((ROOT / "models" / "bench" / "tasks").rglob("main.cu")) or sorted(
        (ROOT / "examples").glob("*.cu")
    )
    (root / "common").mkdir(parents=True)
    (root / "common" / "helper.h").write_text(HELPER)
    for n in range(files // 3):
        folder = root / f"app{n // 30}"
        folder.mkdir(exist_ok=True)
        (folder / f"k{n}.cu").write_bytes(kernels[n % len(kernels)].read_bytes())
        (folder / f"host{n}.cpp").write_text(HOST.format(n=n))
        (folder / f"plain{n}.c").write_text(f"int plain{n}(void) {{ return {n}; }}\n" * 20)


def time_port(tree: Path, out: Path, repeat: int, *extra: str) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        subprocess.run(
            [
                str(CASS),
                "port",
                str(tree),
                "-o",
                str(out),
                "--force",
                *extra,
                "--report",
                str(out.parent / "report.json"),
                "--format",
                "json",
                "--force",
            ],
            capture_output=True,
            check=False,
        )
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=750)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "tree"
        build_tree(tree, args.files)
        count = sum(1 for p in tree.rglob("*") if p.is_file())
        seconds = time_port(tree, Path(tmp) / "out", args.repeat, "-I", str(tree / "common"))
        print(f"generated tree: {count} files ported in {seconds:.2f} s (median of {args.repeat})")
        if CORPUS.is_file():
            with tarfile.open(CORPUS) as archive:
                archive.extractall(Path(tmp) / "rodinia", filter="data")
            rodinia = Path(tmp) / "rodinia" / "rodinia-cuda"
            count = sum(1 for p in rodinia.rglob("*") if p.is_file())
            seconds = time_port(rodinia, Path(tmp) / "rodinia-out", args.repeat)
            print(
                f"Rodinia corpus: {count} files ported in {seconds:.2f} s (median of {args.repeat})"
            )
        else:
            print(f"Rodinia corpus: skipped, {CORPUS} is absent")


if __name__ == "__main__":
    main()
