"""Port the Rodinia CUDA corpus as a project and build every application for gfx1100.

    .venv/bin/python benchmarks/port_rodinia.py [--jobs 2] [--apps bfs,nw]
    .venv/bin/python benchmarks/port_rodinia.py --verify RECORDED.json [--apps cfd --merge]

Reads ../shared/corpus/rodinia-cuda.tar.gz (beside the clone; skipped with a message where
absent), extracts it to a temporary folder, ports the whole tree with one `cass port DIR -o OUT`,
then per application (cuda/*): runs `make` with its ported Makefile; where that fails, a generic
build compiles each of its ported CUDA files alone with clang-16 for gfx1100 (`-c`). Writes
benchmarks/results/port-rodinia.md (and .json): per application, error diagnostics, whether the
ported Makefile builds, whether every CUDA file compiles, and the first located reason.
Runs are out of scope here (no AMD GPU; the emulator needs recorded NVIDIA outputs).
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from rodinia_inputs import GENERATORS  # noqa: E402  (each run-table entry's generated inputs)

ROOT = Path(__file__).resolve().parents[1]
CASS = ROOT / ".venv" / "bin" / "cass"
CORPUS = ROOT.parent / "shared" / "corpus" / "rodinia-cuda.tar.gz"
RESULTS = ROOT / "benchmarks" / "results"
OWN_HEADERS = ROOT / "benchmarks" / "rodinia_include"  # CUDA Samples helpers cfd needs (cass's)


def first_error(text: str) -> str:
    for line in text.splitlines():
        if "error" in line.lower() and ":" in line:
            return line.strip()[:200]
    return (text.strip().splitlines() or [""])[-1][:200]


def generic_build(app: Path, hipcc: list[str]) -> tuple[bool, str]:
    for source in sorted(app.rglob("*.cu")):
        proc = subprocess.run(
            [
                *hipcc,
                "-I",
                str(source.parent),
                "-I",
                str(app),
                "-c",
                str(source),
                "-o",
                "/dev/null",
            ],
            capture_output=True,
            text=True,
            check=False,
            timeout=600,
        )
        if proc.returncode != 0:
            return False, f"{source.relative_to(app)}: {first_error(proc.stderr)}"
    return True, ""


def build_app(app: Path, jobs: int, hipcc: list[str]) -> dict:
    row: dict = {"app": app.name}
    started = time.perf_counter()
    proc = subprocess.run(
        ["make", f"-j{jobs}", "-k"],
        cwd=app,
        capture_output=True,
        text=True,
        check=False,
        timeout=900,
    )
    row["make"] = proc.returncode == 0
    row["make_reason"] = "" if row["make"] else first_error(proc.stdout + proc.stderr)
    row["compiles"], row["compile_reason"] = generic_build(app, hipcc)
    row["seconds"] = round(time.perf_counter() - started, 1)
    return row


# ---------------------------------------------------------------------------------------------
# Runs: the applications whose inputs come from the command line or from a small generator.
# The same table drives `--record-nvidia` (the CUDA originals, built with nvcc, on an NVIDIA
# GPU; standard library only) and `--verify` (the ports, built for gfx1100, on the emulator).
# Paths are relative to cuda/<dir>; `defines` apply to both sides (they switch on the result
# printing an application already has); `ignore` are regexes for lines holding timings.
# ---------------------------------------------------------------------------------------------

TIMING = (r"(?i)time|elapsed|\bms\b|msec|seconds|throughput|GB/s",)
RTOL, ATOL = 1e-4, 1e-6  # float tokens: NVIDIA and AMD may round and contract differently

# the meschach library as leukocyte's Makefile builds it (`configure --with-all`: its makefile's
# LIST1, LIST2, LIST3, ZLIST1 and ZLIST2; its memory accounting refers to all of them)
MESCHACH = (
    "copy err matrixio memory vecop matop pxop submat init otherio machine matlab ivecop version "
    "meminfo memstat lufactor bkpfacto chfactor qrfactor solve hsehldr givens update norm hessen "
    "symmeig schur svd fft mfunc bdfactor sparse sprow sparseio spchfctr splufctr spbkp spswap "
    "iter0 itersym iternsym zmachine zcopy zmatio zmemory zvecop zmatop znorm zfunc zlufctr "
    "zsolve zmatlab zhsehldr zqrfctr zgivens zhessen zschur"
).split()

RUN_TABLE: dict[str, dict[str, Any]] = {
    "backprop": {
        "sources": ["backprop.c", "facetrain.c", "imagenet.c", "backprop_cuda.cu"],
        "args": ["1024"],
    },
    "bfs": {
        "sources": ["bfs.cu"],
        "args": ["graph256.txt"],
        "inputs": "bfs_graph",
        "outputs": ["result.txt"],
    },
    "gaussian": {
        "sources": ["gaussian.cu"],
        "args": ["-s", "16"],
        # it prints the device's properties first; CUDA 13 removed two of the fields it reads
        "nvcc_flags": ["-DclockRate=memoryBusWidth", "-DdeviceOverlap=asyncEngineCount"],
        "ignore": [
            r"^(Total Device found|Device Name|\*+\s*$|Total Global Memory|Shared memory avail"
            r"|Number of registers|Warp size|Memory Pitch|Maximum Thread|Total constant memory"
            r"|CUDA ver|Clock rate|Texture Alignment|Device Overlap|Number of Multi)",
        ],
    },
    "hotspot": {
        "sources": ["hotspot.cu"],
        "args": ["64", "2", "4", "temp_64", "power_64", "output.out"],
        "inputs": "hotspot_grid",
        "outputs": ["output.out"],
    },
    "hotspot3D": {
        "sources": ["3D.cu"],
        "args": ["64", "4", "3", "power_64x4", "temp_64x4", "output.out"],
        "inputs": "hotspot3d_grid",
        "outputs": ["output.out"],
    },
    # texture references: nvcc 13 refuses the original; it is built with CUDA 11.8's nvcc
    # (benchmarks/legacy_cuda.sh; NVCC_APPEND_FLAGS="-allow-unsupported-compiler -cudart shared
    # -cudadevrt none": that folder has no libcudadevrt.a, which no Rodinia program needs) and
    # that binary recorded (--builds). clang-16 has no omp.h without libomp-16-dev: the port's
    # CUDA file includes it (for nothing but pragmas); lift_rodinia's --include gives its folder.
    "kmeans": {
        "sources": [
            "kmeans.c",
            "cluster.c",
            "getopt.c",
            "kmeans_clustering.c",
            "rmse.c",
            "kmeans_cuda.cu",
        ],
        "args": ["-i", "points.txt", "-m", "5", "-n", "5", "-o", "-r"],
        "inputs": "kmeans_points",
        "legacy_cuda": True,
    },  # fmt: skip
    # texture references, built and recorded as kmeans. The original's host C++ calls read() and
    # lseek() without <unistd.h> (host_flags, both builds), omp_set_num_threads (libgomp) and
    # cuMemGetInfo (a link stub of the driver library: the GPU machine's own libcuda.so.1 runs it);
    # its C++ files are built at -O1 without strict aliasing or null-check deletion (host_opt: -O1
    # and -O2 builds of its unchanged suffix-tree.cpp crash flattening the tree, in its CPU mode
    # too; at -O0 its `inline id2addr` is not inlined and links to nvcc's host stub of the
    # __device__ id2addr, which exits) and by g++, as its Makefile does (cxx_host: nvcc 11.8
    # cannot parse gcc 12's <map>)
    "mummergpu": {
        "sources": [
            "src/mummergpu_main.cpp",
            "src/mummergpu_gold.cpp",
            "src/suffix-tree.cpp",
            "src/PoolMalloc.cpp",
            "src/mummergpu.cu",
        ],
        "include": ["src"],
        "args": ["ref.fa", "qry.fa"],
        "inputs": "mummer_fasta",
        "legacy_cuda": True,
        "host_flags": ["-include", "unistd.h"],
        "host_opt": ["-O1", "-fno-strict-aliasing", "-fno-delete-null-pointer-checks"],
        "cxx_host": True,
        "libs": ["-lgomp"],
        "driver_stub": ["cuMemGetInfo_v2"],
    },  # fmt: skip
    # texture references, built and recorded as kmeans. bucketsort.cu includes GL/glew.h and
    # GL/glut.h, which it does not use, and CUDA Samples' helper_cuda.h comes with it: the nvcc
    # build needs Debian's GL headers (--include, as lift_rodinia's), the port the same folder
    # (--hip-include). VERIFY makes it check its sort against qsort() and print PASSED/FAILED.
    "hybridsort": {
        "sources": ["main.cu", "bucketsort.cu", "mergesort.cu"],
        "defines": ["VERIFY"],
        "args": ["values.txt"],
        "inputs": "hybridsort_values",
        "legacy_cuda": True,
    },
    # leukocyte: a video (gen_leukocyte_video: an uncompressed 8-bit AVI its avilib reads) and
    # the meschach library from its folder (MESCHACH, built by gcc as its makefile does); texture
    # references, built and recorded as kmeans. OUTPUT makes its tracking write result.txt. It
    # tracks one frame (gen_leukocyte_video says why); its tracking kernel races (DIFFERENCES).
    "leukocyte": {
        "dir": "leukocyte/CUDA",
        "sources": [
            "avilib.c",
            "detect_main.c",
            "find_ellipse.c",
            "misc_math.c",
            "track_ellipse.c",
            "find_ellipse_kernel.cu",
            "track_ellipse_kernel.cu",
            *(f"../meschach_lib/{name}.c" for name in MESCHACH),
        ],
        "include": ["../meschach_lib"],
        "defines": ["OUTPUT"],
        "args": ["cells.avi", "1"],
        "inputs": "leukocyte_video",
        "outputs": ["result.txt"],
        "legacy_cuda": True,
    },  # fmt: skip
    "lud": {
        "dir": "lud/cuda",
        "sources": ["lud.cu", "lud_kernel.cu", "../common/common.c"],
        "include": ["../common"],
        "args": ["-s", "64", "-v"],
    },
    "nn": {
        "sources": ["nn_cuda.cu"],
        "args": ["filelist.txt", "-r", "5", "-lat", "30", "-lng", "90"],
        "inputs": "nn_records",
    },
    "nw": {
        "sources": ["needle.cu"],
        "defines": ["TRACEBACK"],
        "args": ["64", "10"],
        "outputs": ["result.txt"],
    },
    "pathfinder": {
        "sources": ["pathfinder.cu"],
        "defines": ["BENCH_PRINT"],
        "args": ["256", "20", "5"],
    },
    "srad_v2": {
        "dir": "srad/srad_v2",
        "sources": ["srad.cu"],
        "defines": ["OUTPUT"],
        "args": ["64", "64", "0", "31", "0", "31", "0.5", "2"],
    },
    # cfd: four programs in one folder (float and double, fluxes redundant or precomputed), each
    # reading a mesh (gen_cfd_mesh) and running its fixed 2,000 iterations (`#define iterations`,
    # no argument sets it); CUDA Samples headers from benchmarks/rodinia_include (`helpers`: as
    # they are for nvcc, ported by `cass port` for the HIP build). "Name:" prints the device.
    **{
        name: {
            "dir": "cfd",
            "sources": [source],
            "args": ["mesh.txt"],
            "inputs": "cfd_mesh",
            "outputs": ["density", "momentum", "density_energy"],
            "helpers": True,
            "ignore": [r"^Name:"],
        }
        for name, source in (
            ("cfd", "euler3d.cu"),
            ("cfd_double", "euler3d_double.cu"),
            ("pre_cfd", "pre_euler3d.cu"),
            ("pre_cfd_double", "pre_euler3d_double.cu"),
        )
    },
    "streamcluster": {
        "sources": ["streamcluster_cuda_cpu.cpp", "streamcluster_cuda.cu"],
        "args": ["3", "6", "8", "256", "256", "50", "none", "output.txt", "1"],
        "outputs": ["output.txt"],
    },
    # b+tree: a tree of 36,000 keys, 128 point and 128 range queries, one block of 256 threads
    # each; output.txt holds every answer (gen_btree_keys: its command file ends with a NUL)
    "b+tree": {
        "sources": [
            "main.c",
            "kernel/kernel_gpu_cuda_wrapper.cu",
            "kernel/kernel_gpu_cuda_wrapper_2.cu",
            "util/timer/timer.c",
            "util/num/num.c",
            "util/cuda/cuda.cu",
        ],
        "args": ["file", "keys.txt", "command", "command.txt"],
        "inputs": "btree_keys",
        "outputs": ["output.txt"],
        "ignore": [r"^Tree transformation took", r"^\s*\d+\.\d+ s(,|$)"],
    },
    # huffman: 64 KiB of bytes encoded on the CPU and the GPU, then compared (PASS or FAIL and
    # the differing words). CUDA 13 removed cudaDeviceProp::deviceOverlap, as for gaussian.
    "huffman": {
        "sources": ["main_test_cu.cu", "cpuencode.cpp"],
        "nvcc_flags": ["-DdeviceOverlap=asyncEngineCount"],
        "args": ["input.bin"],
        "inputs": "huffman_bytes",
    },
    # heartwall: a generated 600x512 video (gen_heartwall_video) whose scene moves by whole
    # pixels; it tracks the 51 points its main.cu hard-codes from frame 0 over one frame (the
    # argument counts the template frame) and writes their integer positions (OUTPUT)
    "heartwall": {
        "sources": ["main.cu", "AVI/avilib.c", "AVI/avimod.c"],
        "include": ["AVI"],
        "defines": ["OUTPUT"],
        "args": ["heart.avi", "2"],
        "inputs": "heartwall_video",
        "outputs": ["result.txt"],
    },
    # myocyte: the cardiac myocyte model from Rodinia's own initial state, read from the fixed
    # ../../data/myocyte/: it runs in cuda/myocyte of the run folder (`cwd`). Mode 0 (the only one
    # that writes its results), 5 ms: 195 launches; from about the 6th step on its solver's step
    # size turns on last-bit differences. Its stage timings: "0.0012 s, ...". Its two blocks
    # race: block 1's CAM code writes its calcium flux into finavalu[0..2] (kernel_cam.cu:348,
    # meant for its com array), which block 0's ECC code writes its sodium gates' rates to
    # (kernel_ecc.cu:694-696), so which value y[0..2] integrate is the later block's; the
    # H200 keeps ECC's, the emulator (block 1 after block 0) CAM's. Those three of the 91 values
    # are left out of the comparison.
    "myocyte": {
        "sources": ["main.cu"],
        "cwd": "cuda/myocyte",
        "args": ["5", "1", "0"],
        "inputs": "myocyte_state",
        "outputs": ["cuda/myocyte/output.txt"],
        "ignore": [r"^\s*\S+ s(, |$)", r"^\s*y\[\d+\]\[\d+\]\[[012]\]="],
    },
    # dwt2d opens ../../data/dwt2d/ + the name it is given: it runs in cuda/dwt2d of the run
    # folder (`cwd`), its image (raw interleaved RGB) at data/dwt2d/rgb.bin. The integer 5/3
    # transform (-5): the 9/7 one truncates floats to the bytes it writes. 96x128, 2 levels: a
    # level 32 pixels wide or less reads before its buffer (its loader mirrors once, unchecked).
    # OUTPUT makes it write each component's coefficients. Its main.cu copies a file name into
    # malloc(strlen(name)), a byte short (dwt.cu's output names too): Ubuntu's gcc, nvcc's host
    # compiler on the GPU machine, fortifies strcpy by default and aborts there; it is built
    # without, as Debian's gcc and clang build the port.
    "dwt2d": {
        "sources": [
            "main.cu",
            "dwt.cu",
            "components.cu",
            "dwt_cuda/fdwt53.cu",
            "dwt_cuda/fdwt97.cu",
            "dwt_cuda/common.cu",
            "dwt_cuda/rdwt97.cu",
            "dwt_cuda/rdwt53.cu",
        ],
        "defines": ["OUTPUT"],
        "nvcc_flags": ["-Xcompiler", "-U_FORTIFY_SOURCE"],
        "cwd": "cuda/dwt2d",
        "args": ["rgb.bin", "-d", "96x128", "-f", "-5", "-l", "2"],
        "inputs": "dwt2d_rgb",
        "outputs": [f"cuda/dwt2d/rgb.bin.dwt.{c}" for c in "rgb"],
        "ignore": [r"^Using device"],
    },
    # srad_v1 reads the fixed ../../../data/srad/image.pgm (502x458): it runs in
    # cuda/srad/srad_v1 of the run folder (`cwd`) and crops 30x34 of the image, 2 blocks of 512
    # threads (its reduction adds the wrong partial sums when the block count is not a power of
    # two). It truncates log(I)*255 to integers: this input keeps every value at least 3e-3 from
    # an integer through its 4 iterations (a float32 model), far more than last bits move it.
    "srad_v1": {
        "dir": "srad/srad_v1",
        "sources": ["main.cu"],
        "cwd": "cuda/srad/srad_v1",
        "args": ["4", "0.5", "30", "34"],
        "inputs": "srad_v1_image",
        "outputs": ["cuda/srad/srad_v1/image_out.pgm"],
        "ignore": [r"^\s*\S+ s(, |$)"],  # its stage timings: "0.000012000000 s, 1.2 % : ..."
    },
    # lavaMD: particles at random positions (`srand(time(NULL))`: fixed_clock makes them the same
    # on both machines); 2x2x2 boxes of 100 particles; OUTPUT writes every particle's force
    "lavaMD": {
        "sources": [
            "main.c",
            "kernel/kernel_gpu_cuda_wrapper.cu",
            "util/num/num.c",
            "util/timer/timer.c",
            "util/device/device.cu",
        ],
        "defines": ["OUTPUT"],
        "fixed_clock": True,
        "args": ["-boxes1d", "2"],
        "outputs": ["result.txt"],
        "ignore": [r"^\s*[0-9.]+ s\b"],  # its stage timings: "0.000140999997 s,  0.0061 % : ..."
    },
    # particlefilter: two programs in one folder, each tracking a disk through a generated noisy
    # video (its own, from seeds `time(0) * i`: fixed_clock). The float program's weights are
    # normalised by block 0 alone while other blocks read them (no grid-wide barrier): with 500
    # particles it runs one block of 512 threads, where that is ordered by __syncthreads.
    **{
        name: {
            "dir": "particlefilter",
            "sources": [source],
            "fixed_clock": True,
            "args": ["-x", "128", "-y", "128", "-z", "10", "-np", particles],
            "ignore": [r"\bTOOK\b", r"^(GPU Execution|SEND ARRAY [XY] BACK|SEND WEIGHTS BACK):"],
        }
        for name, source, particles in (
            ("particlefilter_naive", "ex_particle_CUDA_naive_seq.cu", "1000"),
            ("particlefilter_float", "ex_particle_CUDA_float_seq.cu", "500"),
        )
    },
}


def app_dir(tree: Path, app: str) -> Path:
    return tree / "cuda" / RUN_TABLE[app].get("dir", app)


NVCC_INCLUDE: list[Path] = []  # --include: folders every nvcc build sees (hybridsort's GL headers)


def nvcc_build(tree: Path, app: str, build_dir: Path, nvcc: str, arch: str) -> tuple[bool, str]:
    """Build one CUDA original with nvcc as its Makefile would (objects, then one link)."""
    entry, src = RUN_TABLE[app], app_dir(tree, app)
    flags = [f"-I{src}", f"-I{tree / 'cuda' / 'util'}", f"-I{build_dir}"]
    flags += [f"-I{(src / inc).resolve()}" for inc in entry.get("include", [])]
    flags += [f"-I{folder}" for folder in NVCC_INCLUDE]
    flags += [f"-I{OWN_HEADERS}"] if entry.get("helpers") else []
    flags += [f"-D{d}" for d in entry.get("defines", [])]
    cu_flags = [
        "-include",
        "cuda_compat.h",
        *entry.get("nvcc_flags", []),
        *entry.get("host_flags", []),
    ]
    # CUDA 12+ removed the cudaThread* calls Rodinia was written with; the ports get HIP's own
    (build_dir / "cuda_compat.h").write_text(
        "#include <cuda_runtime.h>\n"
        "#define cudaThreadSynchronize cudaDeviceSynchronize\n"
        "#define cudaThreadExit cudaDeviceReset\n"
    )
    objects, log = [], []
    for index, source in enumerate(entry["sources"]):
        path = (src / source).resolve()
        obj = build_dir / f"{index}_{path.stem}.o"
        if path.suffix == ".cu":
            cmd = [nvcc, f"-arch={arch}", "-O2", *cu_flags, *flags, "-c", str(path)]
            cmd += ["-o", str(obj)]
        elif path.suffix == ".c":
            cmd = ["gcc", "-O2", *flags, "-c", str(path), "-o", str(obj)]
        elif path.suffix == ".cpp" and entry.get("cxx_host"):  # g++, as its Makefile does
            toolkit = Path(nvcc).resolve().parents[1] / "include"
            cmd = ["g++", *entry.get("host_opt", ["-O2"]), *entry.get("host_flags", []), *flags]
            cmd += [f"-I{toolkit}", "-c", str(path), "-o", str(obj)]
        else:  # host C++ that uses the CUDA runtime API: nvcc compiles it as CUDA
            cmd = [
                nvcc,
                f"-arch={arch}",
                "-O2",
                "-x",
                "cu",
                *cu_flags,
                *flags,
                "-c",
                str(path),
                "-o",
                str(obj),
            ]
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=600)
        log.append(" ".join(cmd) + "\n" + proc.stdout + proc.stderr)
        if proc.returncode != 0:
            return False, "\n".join(log)
        objects.append(str(obj))
    cmd = [
        nvcc,
        f"-arch={arch}",
        *objects,
        *clock_objects(entry, build_dir),
        "-o",
        str(build_dir / "app"),
        "-lm",
        *entry.get("libs", []),
    ]
    cmd += driver_stub(entry.get("driver_stub", []), build_dir / "stub")
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=600)
    log.append(" ".join(cmd) + "\n" + proc.stdout + proc.stderr)
    return proc.returncode == 0, "\n".join(log)


def clock_objects(entry: dict[str, Any], build_dir: Path) -> list[str]:
    """Objects to link into a program whose entry says `fixed_clock`: benchmarks/rodinia_include/
    fixed_clock.c (its time() one fixed instant, before the C library's), for programs that seed
    their random numbers from the clock; both builds link it."""
    if not entry.get("fixed_clock"):
        return []
    obj = build_dir / "fixed_clock.o"
    subprocess.run(["gcc", "-O2", "-c", str(OWN_HEADERS / "fixed_clock.c"), "-o", str(obj)],
                   check=True, timeout=120)  # fmt: skip
    return [str(obj)]


def driver_stub(symbols: list[str], folder: Path) -> list[str]:
    """Link flags for a libcuda.so stub defining `symbols` (soname libcuda.so.1): what NVIDIA's
    toolkits ship as lib64/stubs for linking without a driver; the driver's library runs it."""
    if not symbols:
        return []
    folder.mkdir(parents=True, exist_ok=True)
    source = folder / "stub.c"
    source.write_text("".join(f"int {name}(void) {{ return 999; }}\n" for name in symbols))
    subprocess.run(["gcc", "-shared", "-fPIC", "-Wl,-soname,libcuda.so.1", str(source), "-o",
                    str(folder / "libcuda.so")], check=True, timeout=120)  # fmt: skip
    return [f"-L{folder}", "-lcuda"]


def work_dir(app: str, run_dir: Path) -> Path:
    """Where a program runs: its run folder, or the run table's `cwd` below it (for a program
    that opens its input at a fixed path leaving its working folder, `../../data/<app>/...`:
    the run folder mirrors Rodinia's tree, the input under data/, outputs named from run_dir)."""
    return run_dir / RUN_TABLE[app].get("cwd", "")


def prepare_run_dir(app: str, run_dir: Path) -> None:
    work_dir(app, run_dir).mkdir(parents=True, exist_ok=True)
    generator = RUN_TABLE[app].get("inputs")
    if generator:
        GENERATORS[generator](run_dir)


def collect_outputs(app: str, run_dir: Path) -> dict[str, str]:
    """Output files, base64-encoded (absent ones left out)."""
    found = {}
    for name in RUN_TABLE[app].get("outputs", []):
        path = run_dir / name
        if path.is_file():
            found[name] = base64.b64encode(path.read_bytes()).decode()
    return found


def nvidia_gpu() -> str:
    """The first NVIDIA GPU's name from nvidia-smi, or '' when there is none."""
    try:
        proc = subprocess.run(
            ["nvidia-smi", "--query-gpu=name,driver_version,compute_cap", "--format=csv,noheader"],
            capture_output=True,
            text=True,
            check=False,
            timeout=60,
        )
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return (
        proc.stdout.strip().splitlines()[0] if proc.returncode == 0 and proc.stdout.strip() else ""
    )


def extract_corpus(corpus: Path, into: Path) -> Path:
    """The Rodinia tree: `corpus` itself when it is a folder, else the archive extracted."""
    if corpus.is_dir():
        return corpus
    with tarfile.open(corpus) as archive:
        archive.extractall(into, filter="data")
    return into / "rodinia-cuda"


def record_nvidia(
    out: Path, corpus: Path, apps: list[str], build_only: bool, arch: str,
    nvcc: str = "", builds: Path | None = None,
) -> int:  # fmt: skip
    """Build every runnable original with nvcc, run it on the NVIDIA GPU, store what it printed.
    With `builds`, a build-only run keeps each binary as builds/<app>/app and a recording run
    uses the binary found there instead of building (an original built elsewhere, e.g. with
    CUDA 11's nvcc, which the GPU machine lacks)."""
    nvcc = (
        nvcc
        or shutil.which("nvcc")
        or ("/usr/local/cuda/bin/nvcc" if Path("/usr/local/cuda/bin/nvcc").exists() else "")
    )
    if not nvcc:
        print("error: nvcc not found (PATH or /usr/local/cuda/bin)", file=sys.stderr)
        return 2
    gpu = nvidia_gpu()
    if not gpu and not build_only:
        print("error: no NVIDIA GPU (nvidia-smi lists none); --build-only builds without one",
              file=sys.stderr)  # fmt: skip
        return 2
    version = subprocess.run([nvcc, "--version"], capture_output=True, text=True, check=False)
    record: dict[str, Any] = {
        "format": 1,
        "gpu": gpu,
        "arch": arch,
        "nvcc": (version.stdout.strip().splitlines() or [""])[-1],
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "apps": {},
    }
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        tree = extract_corpus(corpus, Path(tmp))
        for app in apps:
            build_dir, run_dir = Path(tmp) / "build" / app, Path(tmp) / "run" / app
            build_dir.mkdir(parents=True)
            started = time.perf_counter()
            kept = builds / app / "app" if builds is not None else None
            if kept is not None and kept.is_file() and not build_only:
                shutil.copy2(kept, build_dir / "app")
                built, log = True, f"prebuilt {kept}"
            else:
                built, log = nvcc_build(tree, app, build_dir, nvcc, arch)
                if built and kept is not None:
                    kept.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(build_dir / "app", kept)
            entry: dict[str, Any] = {"args": RUN_TABLE[app]["args"], "built": built}
            if log.startswith("prebuilt"):
                entry["prebuilt"] = True  # built elsewhere (RUN_TABLE's legacy_cuda)
            entry["ignore_lines"] = [*TIMING, *RUN_TABLE[app].get("ignore", [])]
            entry["build_s"] = round(time.perf_counter() - started, 1)
            if not built:
                entry["build_log"] = log[-4000:]
                failures += 1
            elif not build_only:
                prepare_run_dir(app, run_dir)
                started = time.perf_counter()
                try:
                    proc = subprocess.run([str(build_dir / "app"), *RUN_TABLE[app]["args"]],
                                          cwd=work_dir(app, run_dir), capture_output=True, check=False,
                                          timeout=300)  # fmt: skip
                    entry["exit_code"] = proc.returncode
                    entry["stdout"] = proc.stdout.decode(errors="replace")[-2_000_000:]
                    entry["stderr"] = proc.stderr.decode(errors="replace")[-20_000:]
                except subprocess.TimeoutExpired:
                    entry["exit_code"], entry["stdout"], entry["stderr"] = None, "", "timed out"
                entry["run_s"] = round(time.perf_counter() - started, 2)
                entry["output_files"] = collect_outputs(app, run_dir)
                failures += entry["exit_code"] != 0
            record["apps"][app] = entry
            state = "built" if built else "BUILD FAILED"
            if "exit_code" in entry:
                state += f", exit {entry['exit_code']} in {entry['run_s']} s"
            print(f"{app:14} {state}", flush=True)
            if not built:
                print(log[-1500:], flush=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(record, indent=1) + "\n")
    print(f"wrote {out} ({len(apps)} applications, {failures} failed)")
    return 1 if failures else 0


RUNS_MARKER = "## Runs: ports on the RDNA3 emulator against outputs recorded on NVIDIA"


def port_tree(tree: Path, out: Path, report: Path) -> tuple[float, str, list[dict]]:
    """Port the whole tree with one `cass port` process: seconds, its summary, diagnostics."""
    started = time.perf_counter()
    cmd = [
        str(CASS),
        "port",
        str(tree),
        "-o",
        str(out),
        "--format",
        "json",
        "--report",
        str(report),
    ]
    port = subprocess.run(cmd, capture_output=True, text=True, check=False)
    return time.perf_counter() - started, port.stderr, json.loads(report.read_text())


def hip_build(
    hip_tree: Path,
    app: str,
    build_dir: Path,
    device: Callable[[str], tuple[str, ...]] | None = None,
    extra_flags: tuple[str, ...] = (),
) -> tuple[bool, str]:
    """Build one port for gfx1100 from the run table's sources, linked to the emulator's runtime.
    `device(source)` gives extra clang arguments for a CUDA source (benchmarks/lift_rodinia.py:
    host-only, with the lifted kernels' code object embedded); `extra_flags` go to every compile
    (include folders for headers clang-16 lacks: libomp-16-dev's omp.h for kmeans)."""
    from cass.runner.emulator.build import hip_compile_command, runtime_library

    entry, src = RUN_TABLE[app], hip_tree / "cuda" / RUN_TABLE[app].get("dir", app)
    flags = ["-Wno-everything", f"-I{src}", f"-I{hip_tree / 'cuda' / 'util'}"]
    flags += [f"-I{(src / inc).resolve()}" for inc in entry.get("include", [])]
    if entry.get("helpers"):  # cass's CUDA Samples helpers, ported as a user would port them
        helpers = build_dir / "helpers"
        port = subprocess.run([str(CASS), "port", str(OWN_HEADERS), "-o", str(helpers)],
                              capture_output=True, text=True, check=False, timeout=300)  # fmt: skip
        if port.returncode != 0:
            return False, f"cass port {OWN_HEADERS.name}: {first_error(port.stderr)}"
        flags.append(f"-I{helpers}")
    flags += [f"-D{d}" for d in entry.get("defines", [])]
    flags += [*extra_flags, *entry.get("host_flags", [])]
    objects = []
    for index, source in enumerate(entry["sources"]):
        path = (src / source).resolve()
        obj = build_dir / f"{index}_{path.stem}.o"
        if path.suffix == ".c":  # plain C, built by gcc as the Makefiles do (nvcc's host compiler);
            # the platform macro hipcc gives every file: a ported C file calling the runtime API
            # includes hip_runtime.h, which needs it
            cmd = ["gcc", "-O2", "-D__HIP_PLATFORM_AMD__", *flags, "-c", str(path), "-o", str(obj)]
        else:  # CUDA sources and host C++ calling the runtime API, as nvcc compiled them
            extra = device(source) if device else ()
            opt = entry.get("host_opt", ["-O2"]) if path.suffix == ".cpp" else ["-O2"]
            cmd = hip_compile_command(path, obj, "gfx1100", (*opt, "-c", *flags, *extra))
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=900)
        if proc.returncode != 0:
            return False, f"{source}: {first_error(proc.stderr)}"
        objects.append(str(obj))
    lib = runtime_library()
    cmd = ["clang++-16", *objects, *clock_objects(entry, build_dir), "-o", str(build_dir / "app")]
    cmd += [
        f"-L{lib.parent}",
        f"-Wl,-rpath,{lib.parent}",
        "-lcasship",
        "-lm",
        *entry.get("libs", []),
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=300)
    return proc.returncode == 0, "" if proc.returncode == 0 else f"link: {first_error(proc.stderr)}"


def verify_ports(
    recorded_path: Path, corpus: Path, apps: list[str], timeout_s: float,
    include: tuple[Path, ...] = (), merge: bool = False, hip_flags: tuple[str, ...] = (),
) -> None:  # fmt: skip
    """Port the corpus, build each runnable port for gfx1100, run it on the emulator with the
    recorded arguments and compare with the NVIDIA outputs (cass's verdict comparator)."""
    recorded = json.loads(recorded_path.read_text())
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tree, out = extract_corpus(corpus, Path(tmp)), Path(tmp) / "hip"
        port_s, _, diagnostics = port_tree(tree, out, Path(tmp) / "report.json")
        print(f"ported the corpus in {port_s:.1f} s", flush=True)
        for app in apps:
            folder = f"cuda/{RUN_TABLE[app].get('dir', app)}/"
            errors = [
                d for d in diagnostics if d["severity"] == "error" and d["path"].startswith(folder)
            ]
            row: dict[str, Any] = {"app": app, "ported": not errors, "built": False, "ran": False}
            row["matches"], row["reason"] = None, ""
            build_dir, run_dir = Path(tmp) / "build" / app, Path(tmp) / "run" / app
            build_dir.mkdir(parents=True)
            row["built"], row["reason"] = hip_build(out, app, build_dir, None,
                                                    (*(f"-I{d}" for d in include), *hip_flags))  # fmt: skip
            if row["built"]:
                run_and_judge(app, build_dir / "app", run_dir, recorded, row, timeout_s)
            rows.append(row)
            print(f"{app:14} ported={row['ported']!s:5} built={row['built']!s:5} "
                  f"ran={row['ran']!s:5} matches={row['matches']!s:5} {row['reason']}", flush=True)  # fmt: skip
    if set(apps) != set(RUN_TABLE):  # a subset replaces only its own rows, and only with --merge
        if not merge:
            print(f"--apps: {RESULTS / 'port-rodinia.md'} left as it is (run without --apps, or "
                  "with --merge, to refresh it)")  # fmt: skip
            return
        rows = merged_runs(rows, RESULTS / "port-rodinia-runs.json")
    write_runs(rows, recorded)


def merged_runs(rows: list[dict], committed: Path) -> list[dict]:
    """The committed runs table with `rows` replacing (or adding) their applications' rows, in
    the run table's order."""
    old = json.loads(committed.read_text()) if committed.is_file() else []
    by_app = {r["app"]: r for r in old} | {r["app"]: r for r in rows}
    return [by_app[app] for app in RUN_TABLE if app in by_app]


def run_and_judge(
    app: str, exe: Path, run_dir: Path, recorded: dict, row: dict, timeout_s: float
) -> None:
    """Run one built application on the emulator with the run table's arguments and generated
    inputs, then compare with the NVIDIA recording: fills row's run fields, `matches`, `reason`."""
    from cass.runner.emulator.process import run_program

    prepare_run_dir(app, run_dir)
    started = time.perf_counter()
    run = run_program(exe, RUN_TABLE[app]["args"], cwd=work_dir(app, run_dir), timeout_s=timeout_s)
    row["run_s"] = round(time.perf_counter() - started, 1)
    row["exit_code"], row["stdout"] = run.exit_code, run.stdout[-200_000:]
    row["output_files"] = collect_outputs(app, run_dir)
    row["ran"] = run.exit_code == 0 and not run.timed_out and not run.faulted
    if not row["ran"]:
        end = "timed out" if run.timed_out else f"exit {run.exit_code}"
        row["reason"] = f"{end}: {(run.stderr.strip().splitlines() or [''])[-1][:160]}"
    judge_run(app, run, run_dir, recorded, row)
    row["race"] = race_report(run.stderr, exe, app, run_dir, timeout_s, row)
    row["reason"] += (
        f"{'; ' if row['reason'] else ''}race check: {row['race']}" if row["race"] else ""
    )
    if row["matches"] is False and row["ran"] and not row["race"]:
        order = wave_order_report(app, exe, run, run_dir, recorded, timeout_s)
        row["reason"] += f"; {order}" if order else ""


def race_report(
    stderr: str, exe: Path, app: str, run_dir: Path, timeout_s: float, row: dict
) -> str:
    """The first LDS race the emulator's race check reports, or '': from the run's own `stderr`
    when it ran with the check (CASS_EMULATOR_RACE_CHECK set for the whole benchmark), else, when
    the run ended but does not match, from one more run of `exe` with it."""
    from cass.runner.emulator.process import run_program
    from cass.runner.emulator.races import ENV, enabled, reports

    if not enabled():
        if row["matches"] is not False or not row["ran"]:
            return ""
        env = {**os.environ, ENV: "1"}
        stderr = run_program(
            exe, RUN_TABLE[app]["args"], cwd=work_dir(app, run_dir), timeout_s=timeout_s, env=env
        ).stderr
    found = reports(stderr)
    return found[0] if found else ""


def judge_run(app: str, run: Any, run_dir: Path, recorded: dict, row: dict) -> None:
    """Compare one emulator run (`cass.runner.emulator.process.run_program`'s result) with the
    NVIDIA recording by cass's verdict comparator: fills row's `matches` and `reason`."""
    from cass.runner.compare import compare_results

    reference = recorded["apps"].get(app)
    if reference is None or "exit_code" not in reference:
        row["reason"] = row["reason"] or "no NVIDIA recording"
        return
    mismatches = compare_results(nvidia_result(reference, recorded), emulator_result(app, run,
                                 run_dir), comparison(app, reference))  # fmt: skip
    row["matches"] = not mismatches
    if mismatches:
        first = mismatches[0]
        row["reason"] = (
            row["reason"]
            or (
                f"{first.where} line {first.line}: {first.message}: "
                f"NVIDIA {first.expected!r}, port {first.actual!r}"
            )[:200]
        )


def emulator_result(app: str, run: Any, run_dir: Path) -> Any:
    """An emulator run (run_program's result) and its output files as the comparator's RunResult."""
    from cass.runner.results import RunResult

    outputs = {
        name: (run_dir / name).read_bytes()
        for name in RUN_TABLE[app].get("outputs", [])
        if (run_dir / name).is_file()
    }
    return RunResult("emulator", None if run.timed_out else run.exit_code, run.stdout, run.stderr,
                     timed_out=run.timed_out, output_files=outputs)  # fmt: skip


def nvidia_result(reference: dict, recorded: dict) -> Any:
    from cass.runner.results import RunResult

    return RunResult("nvidia", reference["exit_code"], reference["stdout"],
                     reference.get("stderr", ""),
                     output_files={n: base64.b64decode(t) for n, t
                                   in reference["output_files"].items()},
                     info={"gpu": recorded.get("gpu", "")})  # fmt: skip


def comparison(app: str, reference: dict) -> Any:
    """The run spec a program is judged by: its outputs, the recording's ignored lines, RTOL."""
    from cass.runner.spec import OutputFile, RunSpec

    return RunSpec(
        args=tuple(RUN_TABLE[app]["args"]),
        output_files=tuple(OutputFile(n) for n in RUN_TABLE[app].get("outputs", [])),
        ignore_lines=tuple(reference.get("ignore_lines", TIMING)),
        rtol=RTOL,
        atol=ATOL,
        expected_exit_code=reference["exit_code"] or 0,
    )


def wave_order_report(
    app: str, exe: Path, first: Any, run_dir: Path, recorded: dict, timeout_s: float
) -> str:
    """After a mismatch the LDS race check does not explain: the program once more with its waves
    in the other order (kinds.other_wave_order: by default in lock-step, the interpreter), in a
    fresh run folder. A line when its output changes with the order, else ''."""
    from cass.runner.compare import compare_results
    from cass.runner.emulator.kinds import Engine, other_wave_order
    from cass.runner.emulator.process import run_program

    other = other_wave_order(os.environ.get("CASS_EMULATOR_ENGINE", ""))
    if other is None:
        return ""
    again_dir = run_dir.with_name(run_dir.name + f"-{other}")
    prepare_run_dir(app, again_dir)
    env = {**os.environ, "CASS_EMULATOR_ENGINE": str(other)}
    again = run_program(exe, RUN_TABLE[app]["args"], cwd=work_dir(app, again_dir),
                        timeout_s=timeout_s, env=env)  # fmt: skip
    reference = recorded["apps"][app]
    spec, second = comparison(app, reference), emulator_result(app, again, again_dir)
    if again.timed_out or not compare_results(emulator_result(app, first, run_dir), second, spec):
        return ""
    agrees = (
        "matches"
        if not compare_results(nvidia_result(reference, recorded), second, spec)
        else "differs"
    )
    order = "in lock-step (interpreter)" if other == Engine.INTERP else "one wave at a time"
    return f"output changes with the wave order: {order} it {agrees} NVIDIA"


def _later_recordings(recorded: dict) -> str:
    """A sentence naming the entries recorded apart (originals built elsewhere, --builds, or
    recorded later), the programs recorded together named once."""
    groups: dict[tuple[str, str], list[str]] = {}
    for app, entry in recorded.get("apps", {}).items():
        if entry.get("recorded"):
            groups.setdefault((entry.get("nvcc", "nvcc"), entry["recorded"]), []).append(app)
    if not groups:
        return ""
    later = [f"{', '.join(apps)} ({nvcc}, {when})" for (nvcc, when), apps in groups.items()]
    return (f" Recorded apart, from originals built with the nvcc named: {'; '.join(later)}. "
            "kmeans' port needs `--hip-include` for a header clang-16 lacks (libomp-16-dev's "
            "`omp.h`); cfd's four programs include CUDA Samples helpers the corpus lacks (`cass "
            "port` reports each as an error, CASS084: ported 'no'), taken from "
            "benchmarks/rodinia_include (as they are for nvcc, ported by `cass port` for the HIP "
            "build); their rows were run apart (`--verify RECORDED.json --apps "
            "cfd,cfd_double,pre_cfd,pre_cfd_double --merge`). hybridsort's port includes the GL "
            "headers its original includes without using (`--hip-include` Debian's GL headers, "
            "unpacked as lift_rodinia.py says; its original built with `--include` the same "
            "folder); its row was run apart (`--verify RECORDED.json --apps hybridsort --merge`)."
            )  # fmt: skip


# Why a program of the run table does not match, where that was established apart (shown under the
# runs table when its row does not match)
DIFFERENCES = {
    "srad_v2": "srad_v2's original reads `J_cuda[tx - cols]` before its buffer in its first block "
    "row (`index_n`): the H200 does not fault on it, the emulator reports the out-of-bounds access.",
    "leukocyte": "leukocyte's IMGVF kernel races: in each of its virtual blocks a thread reads its "
    "eight neighbours while the threads of the previous block write their values back, with no "
    "barrier between, so what a read sees depends on the order warps run. The H200 itself prints "
    "other last digits from run to run (60.557996, 60.557988, 60.558001 for one cell), and one "
    "cell near the frame's edge ends about 0.02 pixels from where the emulator puts it. With a "
    "`__syncthreads()` between the reads and the write-back, the H200 prints the same result.txt "
    "in three runs out of three and the port on the emulator prints exactly that file; the "
    "emulator's race check (`cass emulate --race-check`) reports the race, and none with the "
    "barrier (benchmarks/results/leukocyte-race-h200.md).",
    "heartwall": "heartwall's kernel races through global memory: its second cumulative-sum pass "
    "subtracts (each thread every 256th element) and then sums rows (each thread a row) of the "
    "same buffer with no `__syncthreads()` between (kernel.cu:757-791; its first pass has one, "
    "line 460), so a row's sum reads elements other warps may not have subtracted yet. The "
    "H200's warps run those loops nearly in step and it prints the intended positions (each "
    "point moved by the video's shift) in every run; the emulator runs a wave up to its next "
    "barrier before the next wave starts, and its positions are off. With the barrier added the "
    "H200 prints the same result.txt and the port on the emulator matches it "
    "(benchmarks/results/heartwall-race-h200.md). The LDS race check does not see it; run again "
    "with its waves in lock-step (the interpreter), as the row's reason says, the port prints "
    "the H200's positions.",
    "huffman": "huffman's pack kernel shifts by 32 where a block's bits start on a word boundary "
    "(`tmp = dw << 32-bit` with `bit` 0, pack_kernels.cu:35, 40, 50): PTX clamps the amount and "
    "the H200 gets 0, as the code needs; gfx1100 takes it modulo 32 and the port ORs the whole "
    "word into the stream, so its GPU encoding differs from its CPU encoding (FAIL where the "
    "H200 prints PASS). `cass port` reports each such shift (CASS096); with the guard it "
    "suggests (`bit ? dw << 32-bit : 0`) the port prints PASS, matching the H200 "
    "(`--verify benchmarks/results/rodinia-h200.json --apps huffman --corpus TREE`, TREE the "
    "corpus with the three shifts guarded).",
    "particlefilter_naive": "particlefilter's naive program draws its random numbers on the host "
    "with `int num = A*seed[index] + C` (A = 1103515245), a signed overflow C++ leaves "
    "undefined: GCC, nvcc's host compiler, wraps; clang at -O2 does not, and the port's particles "
    "move elsewhere from the first frame. Built with `-fwrapv` the port matches the H200 "
    "(`--verify benchmarks/results/rodinia-h200.json --apps particlefilter_naive "
    "--hip-flag=-fwrapv`); the float program's generator agrees under both compilers.",
}


def write_runs(rows: list[dict], recorded: dict) -> None:
    """Replace the runs section of port-rodinia.md (the build table above it stays)."""
    (RESULTS / "port-rodinia-runs.json").write_text(json.dumps(rows, indent=1) + "\n")
    path = RESULTS / "port-rodinia.md"
    head = path.read_text().split(RUNS_MARKER)[0].rstrip() + "\n\n" if path.is_file() else ""
    yes = {True: "yes", False: "no", None: "-"}
    lines = [
        RUNS_MARKER,
        "",
        f"`.venv/bin/python benchmarks/port_rodinia.py --verify RECORDED.json`: the run table's "
        f"{len(rows)} applications, recorded on {recorded.get('gpu') or 'an NVIDIA GPU'} "
        f"({recorded.get('nvcc', 'nvcc')}, {recorded.get('date', '')}); each port built for gfx1100 "
        f"from the same sources and run on cass's emulator with the same arguments and generated "
        f"inputs; compared by cass's verdict comparator (rtol {RTOL}, atol {ATOL}; timing lines "
        f"ignored). {sum(r['ported'] for r in rows)} ported without error, "
        f"{sum(r['built'] for r in rows)} built, {sum(r['ran'] for r in rows)} ran, "
        f"{sum(r['matches'] is True for r in rows)} match." + _later_recordings(recorded),
        "",
        "| application | ported | builds | runs | matches | emulator s | first reason |",
        "| --- | --- | --- | --- | --- | ---: | --- |",
    ]
    for r in rows:
        reason = r["reason"].replace("|", "\\|").replace("\n", " ")
        lines.append(
            f"| {r['app']} | {yes[r['ported']]} | {yes[r['built']]} | {yes[r['ran']]} | "
            f"{yes[r['matches']]} | {r.get('run_s', '')} | {reason} |"
        )
    known = [
        DIFFERENCES[r["app"]] for r in rows if r["matches"] is False and r["app"] in DIFFERENCES
    ]
    lines += [part for note in known for part in ("", note)]
    path.write_text(head + "\n".join(lines) + "\n")


def merge_recording(new: Path, into: Path) -> None:
    """Write `into` with `new`'s applications added or replaced, each entry carrying the nvcc and
    date of its own recording (port-rodinia.md names those recorded apart)."""
    recorded, later = json.loads(into.read_text()), json.loads(new.read_text())
    for app, entry in later["apps"].items():
        recorded["apps"][app] = {**entry, "nvcc": later["nvcc"], "recorded": later["date"]}
    from cass.runner.outputs import write_atomic

    write_atomic(into, json.dumps(recorded, indent=1) + "\n")
    print(f"{into}: {', '.join(later['apps'])} from {new} ({later['gpu']}, {later['date']})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--apps", default="", help="comma-separated subset")
    parser.add_argument("--corpus", type=Path, default=CORPUS,
                        help="rodinia-cuda.tar.gz or its extracted folder")  # fmt: skip
    parser.add_argument("--record-nvidia", type=Path, metavar="OUT.json",
                        help="build the runnable originals with nvcc, run them on the NVIDIA GPU "
                        "and record their outputs (standard library only)")  # fmt: skip
    parser.add_argument("--build-only", action="store_true",
                        help="with --record-nvidia: build with nvcc, run nothing (no GPU needed)")  # fmt: skip
    parser.add_argument("--verify", type=Path, metavar="RECORDED.json",
                        help="build the ports for gfx1100, run them on the emulator, compare")  # fmt: skip
    parser.add_argument("--timeout", type=float, default=900, help="with --verify: seconds per run")
    parser.add_argument("--arch", default="sm_90", help="with --record-nvidia: nvcc's -arch")
    parser.add_argument("--nvcc", default="", help="with --record-nvidia: the nvcc to build with")
    parser.add_argument("--hip-include", type=Path, action="append", default=[], metavar="DIR",
                        help="with --verify: extra include folder for the ports (kmeans: "
                        "libomp-16-dev's omp.h folder)")  # fmt: skip
    parser.add_argument("--hip-flag", action="append", default=[], metavar="FLAG",
                        help="with --verify: an extra flag for every compile of the ports, to try "
                        "what a difference depends on (--hip-flag=-fwrapv)")  # fmt: skip
    parser.add_argument("--merge", action="store_true",
                        help="with --verify --apps: replace only those applications' rows of "
                        "the committed runs table")  # fmt: skip
    parser.add_argument("--include", type=Path, action="append", default=[], metavar="DIR",
                        help="with --record-nvidia: extra include folder for the originals "
                        "(hybridsort: Debian's GL headers, as lift_rodinia's --include)")  # fmt: skip
    parser.add_argument("--builds", type=Path, metavar="DIR",
                        help="with --record-nvidia: keep binaries there (--build-only) or run "
                        "those found there instead of building")  # fmt: skip
    parser.add_argument("--merge-recording", type=Path, nargs=2, metavar=("NEW.json", "INTO.json"),
                        help="add NEW's applications to the recording INTO (each marked with "
                        "its own nvcc and date), replacing those INTO has")  # fmt: skip
    args = parser.parse_args()
    NVCC_INCLUDE.extend(args.include)
    if args.merge_recording:
        merge_recording(*args.merge_recording)
        return
    if not args.corpus.exists():
        print(f"skipped: {args.corpus} is absent (the Rodinia corpus lives beside the clone)")
        return
    if args.verify:
        chosen = [a for a in args.apps.split(",") if a] or list(RUN_TABLE)
        verify_ports(args.verify, args.corpus, chosen, args.timeout, tuple(args.hip_include),
                     args.merge, tuple(args.hip_flag))  # fmt: skip
        return
    if args.record_nvidia:
        chosen = [a for a in args.apps.split(",") if a] or list(RUN_TABLE)
        unknown = [a for a in chosen if a not in RUN_TABLE]
        if unknown:
            parser.error(f"not in the run table: {', '.join(unknown)}")
        sys.exit(record_nvidia(args.record_nvidia, args.corpus, chosen, args.build_only,
                               args.arch, args.nvcc, args.builds))  # fmt: skip
    from cass.runner.toolchain import hip_clang_command

    hipcc = [*hip_clang_command("gfx1100"), "-Wno-everything"]
    with tempfile.TemporaryDirectory() as tmp:
        tree, out = extract_corpus(args.corpus, Path(tmp)), Path(tmp) / "hip"
        port_s, summary, diagnostics = port_tree(tree, out, Path(tmp) / "report.json")
        apps = sorted(p for p in (out / "cuda").iterdir() if p.is_dir() and any(p.rglob("*.cu")))
        if args.apps:
            apps = [a for a in apps if a.name in args.apps.split(",")]
        rows = []
        for app in apps:
            row = build_app(app, args.jobs, hipcc)
            errors = [
                d
                for d in diagnostics
                if d["severity"] == "error" and d["path"].startswith(f"cuda/{app.name}/")
            ]
            row["port_errors"] = len(errors)
            row["port_reason"] = (
                f"{errors[0]['path']}:{errors[0]['line']}: {errors[0]['message'][:120]}"
                if errors
                else ""
            )
            rows.append(row)
            print(
                f"{app.name:16} errors={row['port_errors']:3} make={row['make']!s:5} "
                f"compiles={row['compiles']!s:5} {row['make_reason'] or row['compile_reason']}"
            )
    if args.apps:  # a subset never replaces the committed table of the whole corpus
        print(
            f"--apps: {RESULTS / 'port-rodinia.md'} left as it is (run without --apps to refresh it)"
        )
        return
    write_results(rows, port_s, summary)


def write_results(rows: list[dict], port_s: float, summary: str) -> None:
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "port-rodinia.json").write_text(
        json.dumps({"port_s": port_s, "apps": rows}, indent=2) + "\n"
    )
    made = sum(r["make"] for r in rows)
    compiled = sum(r["compiles"] for r in rows)
    clean = sum(r["port_errors"] == 0 for r in rows)
    lines = [
        "# Rodinia (CUDA) ported as one project and built for gfx1100",
        "",
        "`.venv/bin/python benchmarks/port_rodinia.py` (clang-16, Debian HIP 5.2).",
        "",
        f"Whole corpus ported in {port_s:.1f} s (one `cass port` process, start-up included). "
        f"{len(rows)} applications: {clean} port with no error diagnostic, {made} build with their "
        f"ported Makefile, {compiled} compile every CUDA file for gfx1100.",
        "",
        "| application | port errors | ported Makefile builds | every .cu compiles | first located reason |",
        "| --- | ---: | --- | --- | --- |",
    ]
    for r in rows:
        reason = (r["port_reason"] or r["make_reason"] or r["compile_reason"]).replace("|", "\\|")
        lines.append(
            f"| {r['app']} | {r['port_errors']} | {'yes' if r['make'] else 'no'} | "
            f"{'yes' if r['compiles'] else 'no'} | {reason} |"
        )
    lines += ["", "Summary printed by `cass port`:", "", "```", summary.strip(), "```", ""]
    path = RESULTS / "port-rodinia.md"  # the runs section (write_runs) below the table stays
    runs = path.read_text().partition(RUNS_MARKER) if path.is_file() else ("", "", "")
    path.write_text("\n".join(lines) + (f"\n{runs[1]}{runs[2]}" if runs[1] else ""))


if __name__ == "__main__":
    main()
