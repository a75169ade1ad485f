"""Lift every kernel of the Rodinia CUDA corpus from sm_80 and sm_90 SASS, and run the runnable
applications with their lifted kernels on the emulator against outputs recorded on NVIDIA.

    .venv/bin/python benchmarks/lift_rodinia.py [--arch sm_80,sm_90] [--apps bfs,nw [--merge]]
        [--verify benchmarks/results/rodinia-h200.json] [--timeout 900]
        [--legacy-nvcc /tmp/cuda-11.8] [--include DIR] [--hip-include DIR]

Per application (cuda/*) and arch: each CUDA file that nvcc compiles alone (`-cubin`; a file that
another one `#include`s is counted through its includer) is disassembled with cuobjdump and every
kernel lifted by the lift engine (models/lift, with the cubin's metadata). With `--verify`, the
run table's applications (benchmarks/port_rodinia.py's RUN_TABLE) are ported with the rules
engine, their CUDA files compiled host-only with the LIFTED code object embedded (no device code
from the port), linked to the emulator's runtime, run with the recorded arguments and generated
inputs and compared with the recording by cass's verdict comparator.

A file nvcc 13 refuses is compiled again with `--legacy-nvcc DIR` (a CUDA 11 toolkit folder,
benchmarks/legacy_cuda.sh assembles one): texture references (`texture<T, dim, mode>`) need it.
Every nvcc compile also sees benchmarks/rodinia_include (cass's minimal helper_cuda.h and
helper_timer.h for cfd, whose CUDA Samples headers are not in the corpus) and each `--include DIR`
(hybridsort's OpenGL headers: Debian's libglew-dev, libglut-dev, libglu1-mesa-dev, libgl-dev,
mesa-common-dev unpacked with `dpkg -x`); each host port's compile sees each `--hip-include DIR`
(libomp-16-dev unpacked the same way: clang-16 needs its `omp.h` to build kmeans' port):

    mkdir /tmp/gl && cd /tmp/gl && apt-get download libglew-dev libglut-dev libglu1-mesa-dev \
        libgl-dev mesa-common-dev && for d in *.deb; do dpkg -x $d .; done
    mkdir /tmp/omp && cd /tmp/omp && apt-get download libomp-16-dev && dpkg -x *.deb .
    ... --include /tmp/gl/usr/include --hip-include /tmp/omp/usr/lib/llvm-16/lib/clang/16/include
Writes benchmarks/results/lift-rodinia.md and .json (through runner/outputs.py; --force replaces).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import port_rodinia as pr  # noqa: E402  (the corpus, run table, builds and comparison)

RESULTS = pr.RESULTS
ARCHS = ("sm_80", "sm_90")
# CUDA 13 removed two cudaDeviceProp members Rodinia's hosts read (as port_rodinia's gaussian row)
CUDA13_PROP = ["-DclockRate=memoryBusWidth", "-DdeviceOverlap=asyncEngineCount"]
OWN_HEADERS = Path(__file__).resolve().parent / "rodinia_include"
_INCLUDE_CU = re.compile(r'^\s*#\s*include\s*["<]([^">]+\.cu)[">]', re.MULTILINE)


def included_sources(app: Path) -> set[Path]:
    """CUDA files another file of the application `#include`s (compiled through their includer)."""
    found: set[Path] = set()
    for path in app.rglob("*"):
        if path.suffix in (".cu", ".cuh", ".c", ".cpp", ".h") and path.is_file():
            text = path.read_text(errors="replace")
            found |= {(path.parent / name).resolve() for name in _INCLUDE_CU.findall(text)}
    return found


def nvcc_flags(
    tree: Path, app: Path, source: Path, compat: Path, extra: tuple[Path, ...] = ()
) -> list[str]:
    """The flags port_rodinia's nvcc build uses, for any file of any application (the run
    table's entry whose folder is `app` or inside it: leukocyte's CUDA/)."""
    home, entry = next(((pr.app_dir(tree, n), e) for n, e in pr.RUN_TABLE.items()
                        if pr.app_dir(tree, n).is_relative_to(app)), (app, {}))  # fmt: skip
    flags = [
        "-include",
        str(compat),
        f"-I{source.parent}",
        f"-I{app}",
        f"-I{tree / 'cuda' / 'util'}",
    ]
    flags += [f"-I{(home / inc).resolve()}" for inc in entry.get("include", [])]
    # headers in the application's own subfolders (heartwall's AVI/avilib.h), as its Makefile adds
    flags += sorted({f"-I{h.parent}" for h in app.rglob("*.h") if h.parent != app})
    flags += [f"-I{d}" for d in (*extra, OWN_HEADERS)]
    flags += [f"-D{d}" for d in entry.get("defines", [])]
    return flags + list(entry.get("nvcc_flags", CUDA13_PROP))


def cubin_of(
    source: Path, flags: list[str], arch: str, out: Path, legacy: Path | None = None
) -> tuple[bool, str, str]:
    """nvcc -cubin: (compiled, first error, which nvcc). A file nvcc 13 refuses is compiled
    again with the legacy toolkit's nvcc when one is given (-allow-unsupported-compiler: CUDA 11
    wants gcc <= 11, and a device-only build uses nothing of the host compiler's output), without
    the CUDA 13 property renames."""
    from cass.runner.toolchain import nvcc_command
    from cass.runner.tools import run_tool

    tail = [f"-arch={arch}", "-O3", *flags, "-cubin", str(source), "-o", str(out)]
    run = run_tool([*nvcc_command(), *tail], f"nvcc {source.name}", 600)
    if run.ok or legacy is None:
        return run.ok, "" if run.ok else pr.first_error(run.stderr), NVCC_NAMES[0]
    old = [f for f in tail if f not in CUDA13_PROP]  # CUDA 11 still has both members
    cmd = [str(legacy / "bin" / "nvcc"), "-allow-unsupported-compiler", "-w", *old]
    second = run_tool(cmd, f"nvcc 11 {source.name}", 600)
    if second.ok:
        return True, "", NVCC_NAMES[1]
    return False, f"{pr.first_error(run.stderr)}; nvcc 11: {pr.first_error(second.stderr)}", ""


NVCC_NAMES = ("13.0", "11.8")


def lift_cubin(cubin: Path, arch: str, where: str) -> dict[str, Any]:
    """Lift every kernel of one cubin: kernel names, lifted ones, seconds, first error, assembly."""
    from cass.models.lift.elfinfo import read_cubin
    from cass.models.lift.inputs import disassemble
    from cass.models.lift.pipeline import lift_sass
    from cass.runner.diagnostics import CassError

    started = time.perf_counter()
    try:
        sass = disassemble(cubin, arch)
    except CassError as exc:  # a file with no kernel has no SASS: nothing to lift
        # (cuobjdump then says so, or, for a CUDA 11 cubin, prints only nvdisasm's format warning)
        empty = "no SASS in it" in exc.message or not has_code(cubin)
        reason = "" if empty else exc.message.splitlines()[0][:240]
        return {"kernels": [], "lifted": [], "lift_s": 0.0, "reason": reason, "assembly": ""}
    names = re.findall(r"^\s*Function : (\S+)", sass, re.MULTILINE)
    started, cpu = time.perf_counter(), cpu_seconds()
    try:
        result = lift_sass(sass, path=where, arch=arch, cubin=read_cubin(cubin.read_bytes(), where))
    except CassError as exc:
        return {"kernels": names, "lifted": [], "lift_s": time.perf_counter() - started,
                "reason": exc.message.splitlines()[0][:240], "assembly": ""}  # fmt: skip
    seconds, cpu = time.perf_counter() - started, cpu_seconds() - cpu
    failed = {k.name for k in result.kernels if k.errors}
    errors = [d.render() for d in result.diagnostics if d.severity.value == "error"]
    lifted = [n for n in names if n not in failed] if result.assembly else []
    reason = errors[0] if errors else ("" if result.assembly else "no assembly produced")
    return {"kernels": names, "lifted": lifted, "lift_s": seconds, "lift_cpu_s": round(cpu, 2),
            "instructions": len(re.findall(r"^\s+/\*[0-9a-f]{4,}\*/", sass, re.MULTILINE)),
            "reason": reason[:240], "assembly": result.assembly}  # fmt: skip


def has_code(cubin: Path) -> bool:
    """Whether the cubin holds any function's code (a `.text.` section)."""
    return b".text." in cubin.read_bytes()


def cpu_seconds() -> float:
    """CPU time of this process and its finished children (opt-16, llc-16): the lift's own cost,
    which the wall clock overstates on a loaded machine."""
    import resource

    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def lift_app(
    tree: Path, app: Path, arch: str, work: Path, legacy: Path | None = None,
    extra: tuple[Path, ...] = (),
) -> dict[str, Any]:  # fmt: skip
    """Compile and lift every CUDA file of one application for one arch."""
    work.mkdir(parents=True, exist_ok=True)
    compat = work / "cuda_compat.h"
    compat.write_text("#include <cuda_runtime.h>\n#define cudaThreadSynchronize cudaDeviceSynchronize\n"
                      "#define cudaThreadExit cudaDeviceReset\n")  # fmt: skip
    skip = included_sources(app)
    row: dict[str, Any] = {"app": app.name, "arch": arch, "kernels": 0, "lifted": 0}
    row.update(lift_s=0.0, lift_cpu_s=0.0, instructions=0, slowest="", reason="", files={}, nvcc=[])
    for index, source in enumerate(sorted(app.rglob("*.cu"))):
        if source.resolve() in skip:
            continue
        rel = str(source.relative_to(app))
        cubin = work / f"{index}_{source.stem}.cubin"
        flags = nvcc_flags(tree, app, source, compat, extra)
        ok, why, compiler = cubin_of(source, flags, arch, cubin, legacy)
        why = why.replace(f"{tree}/", "")
        if ok and compiler not in row["nvcc"]:
            row["nvcc"].append(compiler)
        if not ok:
            row["reason"] = row["reason"] or f"{rel}: nvcc: {why}"
            row["files"][rel] = {"compiled": False, "reason": why}
            continue
        lift = lift_cubin(cubin, arch, f"{app.name}/{rel}")
        row["kernels"] += len(lift["kernels"])
        row["lifted"] += len(lift["lifted"])
        if lift["lift_s"] > row["lift_s"]:
            row["lift_s"], row["slowest"] = lift["lift_s"], rel
            row["lift_cpu_s"], row["instructions"] = (
                lift.get("lift_cpu_s", 0.0),
                lift.get("instructions", 0),
            )
        row["reason"] = row["reason"] or (f"{rel}: {lift['reason']}" if lift["reason"] else "")
        (work / f"{index}_{source.stem}.s").write_text(lift["assembly"])
        row["files"][rel] = {k: v for k, v in lift.items() if k != "assembly"} | {
            "compiled": True, "nvcc": compiler,
            "assembly": str(work / f"{index}_{source.stem}.s")}  # fmt: skip
    row["lift_s"] = round(row["lift_s"], 2)
    return row


def lifted_device_args(lift_row: dict[str, Any], work: Path, under: Path = Path()):
    """port_rodinia.hip_build's `device` hook: a CUDA source compiled host-only, its lifted
    code object embedded (an offload bundle, as the bench's assembly level builds it). `under`:
    the run table's folder within the row's (leukocyte's CUDA/), which its sources are relative to."""
    from cass.models.bench.assembly import bundle_code_object
    from cass.runner.compile import compile_file

    def device(source: str) -> tuple[str, ...]:
        entry = lift_row["files"].get(str(under / source))
        if not entry or not entry.get("compiled") or entry["kernels"] == []:
            return ()
        if sorted(entry["lifted"]) != sorted(entry["kernels"]):
            raise LookupError(f"{source}: not every kernel lifted ({entry['reason']})")
        out = work / Path(source).stem
        code = compile_file(entry["assembly"], ["code-object"], out_dir=out).artifacts[
            "code-object"
        ]
        bundle = bundle_code_object(code, out / "device.hipfb")
        return ("--cuda-host-only", "-Xclang", "-fcuda-include-gpubinary", "-Xclang", str(bundle))

    return device


def verify_lifted(
    rows: list[dict], tree: Path, tmp: Path, recorded: dict, timeout_s: float,
    include: tuple[Path, ...] = (),
) -> None:  # fmt: skip
    """Build and run each run-table application from the host port plus its lifted kernels."""
    hip = tmp / "hip"
    port_s, _, _ = pr.port_tree(tree, hip, tmp / "report.json")
    print(f"ported the corpus in {port_s:.1f} s", flush=True)
    for row in rows:
        folder = tree / "cuda" / row["folder"]
        apps = [n for n in pr.RUN_TABLE if pr.app_dir(tree, n).is_relative_to(folder)]
        if not apps:
            continue
        row["run_app"], row["runs"] = ", ".join(apps), []
        for app in apps:  # cfd's folder holds four programs
            row["runs"].append(run_lifted(row, app, hip, tmp, recorded, timeout_s, include))
        runs = row["runs"]
        row["built"] = all(r["built"] for r in runs)
        row["ran"] = all(r["ran"] for r in runs)
        verdicts = [r["matches"] for r in runs]
        row["matches"] = False if False in verdicts else (True if all(verdicts) else None)
        row["run_s"] = round(sum(r.get("run_s", 0.0) for r in runs), 1)
        reasons = [(r["app"], r["reason"]) for r in runs if r["reason"]]
        row["run_reason"] = (f"{reasons[0][0]}: " if len(runs) > 1 else "") + reasons[0][1] if reasons else ""  # fmt: skip


def run_lifted(
    row: dict[str, Any], app: str, hip: Path, tmp: Path, recorded: dict, timeout_s: float,
    include: tuple[Path, ...],
) -> dict[str, Any]:  # fmt: skip
    """Build one run-table program from its host port and the row's lifted kernels, run it on
    the emulator and judge it: {app, built, ran, matches, run_s, reason}."""
    build_dir = tmp / "build" / row["arch"] / app
    build_dir.mkdir(parents=True)
    result: dict[str, Any] = {"app": app, "built": False, "ran": False, "matches": None}
    try:
        under = Path(pr.RUN_TABLE[app].get("dir", app)).relative_to(row["folder"])
        built, why = pr.hip_build(hip, app, build_dir, lifted_device_args(row, build_dir, under),
                                  tuple(f"-I{d}" for d in include))  # fmt: skip
    except LookupError as exc:
        built, why = False, str(exc)
    except Exception as exc:  # a located tool error from the assembler or the bundler
        built, why = False, str(getattr(exc, "message", exc)).splitlines()[0][:240]
    result["built"], result["reason"] = built, why
    if built:
        judged: dict[str, Any] = {"reason": ""}
        pr.run_and_judge(app, build_dir / "app", tmp / "run" / row["arch"] / app, recorded,
                         judged, timeout_s)  # fmt: skip
        result["ran"], result["matches"] = judged["ran"], judged["matches"]
        result["run_s"], result["reason"] = judged["run_s"], judged["reason"]
    print(f"  run {app:14} {row['arch']} built={built} ran={result['ran']} "
          f"matches={result['matches']} {result['reason']}", flush=True)  # fmt: skip
    return result


def app_folders(tree: Path, wanted: list[str]) -> list[Path]:
    """Each application folder holding CUDA files (srad's srad_v1/srad_v2 and lud/cuda too)."""
    folders = []
    for top in sorted(p for p in (tree / "cuda").iterdir() if p.is_dir()):
        subs = sorted({s.parent for s in top.rglob("*.cu")})
        own = [top] if any(s == top or top in s.parents for s in subs) else []
        if top.name in ("srad", "lud"):  # two separate programs / the CUDA one in a subfolder
            own = sorted({top / s.relative_to(top).parts[0] for s in subs})
        folders += [f for f in own if not wanted or f.name in wanted or top.name in wanted]
    return folders


def run(args: argparse.Namespace) -> list[dict]:
    wanted = [a for a in args.apps.split(",") if a]
    rows = []
    with tempfile.TemporaryDirectory(prefix="cass-lift-rodinia-") as name:
        tmp = Path(name)
        tree = pr.extract_corpus(args.corpus, tmp)
        folders = app_folders(tree, wanted)
        for arch in args.arch.split(","):
            for folder in folders:
                row = lift_app(tree, folder, arch, tmp / "lift" / arch / folder.name,
                               args.legacy_nvcc, tuple(args.include))  # fmt: skip
                row["folder"] = str(folder.relative_to(tree / "cuda"))
                row["app"] = (
                    folder.name if folder.name != "cuda" else folder.parent.name
                )  # lud/cuda
                rows.append(row)
                print(f"{folder.name:16} {arch} kernels={row['kernels']:3} lifted={row['lifted']:3} "
                      f"slowest={row['lift_s']:.2f}s {row['reason'][:120]}", flush=True)  # fmt: skip
        if args.verify:
            verify_lifted(rows, tree, tmp, json.loads(args.verify.read_text()), args.timeout,
                          tuple(args.hip_include))  # fmt: skip
    return rows


NOTES = (
    "The nvcc column says which compiler built the row's cubins. nvcc 13 refuses texture references "
    "(`texture<T, dim, mode>`, `cudaBindTexture`; CUDA 12 removed them): kmeans, leukocyte, "
    "mummergpu and hybridsort's files that use them were compiled by CUDA 11.8's nvcc "
    "(`--legacy-nvcc`, assembled by benchmarks/legacy_cuda.sh from Debian's non-free "
    "nvidia-cuda-toolkit and PyPI's CUDA 11 wheels, never installed system-wide); the lift reads each "
    "reference through the HIP textureReference the host port binds. Include folders: "
    "benchmarks/rodinia_include (cass's own minimal `helper_cuda.h`/`helper_timer.h`: the two error "
    "macros and four timer calls cfd uses; the CUDA Samples headers are not in the corpus) for every "
    "file, and `--include` folders: Debian's libglew-dev, libglut-dev, libglu1-mesa-dev, libgl-dev "
    "and mesa-common-dev unpacked with `dpkg -x` (hybridsort's `GL/glew.h`, `GL/glut.h`), and "
    "`--hip-include`: libomp-16-dev's `omp.h` for clang-16 building kmeans' host port. kmeans' "
    "and mummergpu's originals were built with nvcc 11.8 here and run on the H200 "
    "(`port_rodinia.py --record-nvidia --builds`, with their libcudart.so.11.0 and libgomp; "
    "mummergpu's C++ at -O1 without strict aliasing or null-check deletion, as port_rodinia's run "
    "table explains). cfd's folder holds four programs (euler3d, euler3d_double, pre_euler3d, "
    "pre_euler3d_double: the run table's cfd, cfd_double, pre_cfd, pre_cfd_double), each run on "
    "a generated mesh (port_rodinia's `cfd_mesh`: 2,688 tetrahedra, a box less a pillar in cfd's "
    "Mach 1.2 flow, far field on the sides, walls on the pillar, floor and ceiling) for its fixed "
    "2,000 iterations and compared on its three output files (density, momentum, "
    "density_energy); its rows' runs and matches count programs, against originals built with "
    "nvcc 13.0 for sm_90 on the H200 "
    "(`port_rodinia.py --record-nvidia OUT --apps cfd,cfd_double,pre_cfd,pre_cfd_double`). "
    "hybridsort runs on 24,000 generated floats and checks its sort against qsort() (PASSED on "
    "the H200, built with nvcc 11.8 as kmeans was); its host port includes the GL headers its "
    "original includes without using (`--hip-include` Debian's GL header folder too). "
    "leukocyte runs on a generated video (port_rodinia's `leukocyte_video`: an uncompressed AVI "
    "its avilib reads) with the meschach library built from its folder, built with nvcc 11.8 and "
    "recorded on the H200 as kmeans was. Its tracking kernel races (each thread reads neighbours "
    "that the previous virtual block's threads write back between the same barriers; the H200 "
    "prints other last digits run to run), so whether a run matches is the race's doing (from "
    "sm_80 one run matched, an earlier one did not; its source port did not); a mismatching "
    "run is run again with the emulator's race check, whose report ends the row's reason. With a `__syncthreads()` between the reads and the write-back the H200 is "
    "deterministic and the lifted program matches it from both archs, as the source port does "
    "(benchmarks/results/leukocyte-race-h200.md). "
    "srad_v2's original reads `J_cuda[tx - cols]` before its buffer in the first block "
    "row: the H200 does not fault, the emulator reports the access (as its source port does, "
    "benchmarks/results/port-rodinia.md). "
    "heartwall's kernel races through global memory (a subtraction and a cumulative sum of one "
    "buffer with no barrier between): the H200 tracks every point, the emulator runs a wave to "
    "its next barrier before the next and its positions are off, lifted or ported "
    "(benchmarks/results/heartwall-race-h200.md: with the barrier the source port matches). "
    "huffman's packer shifts by 32 where a block's bits start on a word boundary: SASS's shift "
    "clamps as PTX's does, so the lifted program prints PASS as the H200 does, where the "
    "source port, compiled by clang, takes the amount modulo 32 and prints FAIL (CASS096). "
    "particlefilter_naive's host random numbers overflow a signed int, which clang's host code "
    "(the port's) computes otherwise than GCC's (nvcc's): its lifted kernels run under the same "
    "host port and differ as it does. Each run embeds only the lifted code object "
    "(`--cuda-host-only`): no kernel of the port's device code is compiled.",
)


def render(rows: list[dict], recorded: str) -> str:
    yes = {True: "yes", False: "no", None: "-"}
    kernels, lifted = sum(r["kernels"] for r in rows), sum(r["lifted"] for r in rows)
    slowest = max(rows, key=lambda r: r["lift_s"]) if rows else None
    runs = [r for r in rows if "run_app" in r]
    program_runs = [p for r in runs for p in r.get("runs", [r])]  # one per program run
    lines = [
        "# Rodinia (CUDA) through the SASS lifter",
        "",
        "`.venv/bin/python benchmarks/lift_rodinia.py --verify benchmarks/results/rodinia-h200.json "
        "--legacy-nvcc /tmp/cuda-11.8 --include /tmp/gl/usr/include --hip-include "
        "/tmp/omp/usr/lib/llvm-16/lib/clang/16/include --hip-include /tmp/gl/usr/include`: "
        "every CUDA file compiled by nvcc (`-cubin -O3`) for each arch, its kernels lifted by the lift "
        "engine; the run table's applications built from the rules engine's host port with the lifted "
        f"kernels only and run on cass's emulator against {recorded or 'the NVIDIA recording'}.",
        "",
        f"{lifted}/{kernels} kernels lifted over {len(rows)} application×arch rows; "
        f"{sum(r['ran'] for r in program_runs)}/{len(program_runs)} runs completed, "
        f"{sum(r['matches'] is True for r in program_runs)} match."
        + (
            f" Slowest lift: {slowest['lift_s']:.2f} s wall, {slowest['lift_cpu_s']:.2f} s CPU "
            f"({slowest['app']}/{slowest['slowest']}, {slowest['arch']}, {slowest['instructions']} SASS "
            f"instructions; one file's kernels, opt-16 and llc-16 included). The wall clock is taken on "
            "a shared 2-core machine whose load varies; CPU seconds (this process and its tools) "
            "are the lift's own cost."
            if slowest
            else ""
        ),  # fmt: skip
        "",
        "| application | arch | nvcc | kernels | lifted | slowest file: lift s (CPU s), SASS instructions | runs | matches | first located reason |",
        "| --- | --- | --- | ---: | ---: | ---: | --- | --- | --- |",
    ]
    for r in rows:
        reason = (r["reason"] or r.get("run_reason", "")).replace("|", "\\|").replace("\n", " ")
        ran = yes[r["ran"]] if "run_app" in r else "-"
        matches = yes[r["matches"]] if "run_app" in r else "-"
        if len(r.get("runs", [])) > 1:  # several programs (cfd's four): how many of them
            ran = f"{sum(p['ran'] for p in r['runs'])}/{len(r['runs'])}"
            matches = f"{sum(p['matches'] is True for p in r['runs'])}/{len(r['runs'])}"
        nvcc = ", ".join(r.get("nvcc") or ["-"])
        lines.append(f"| {r['app']} | {r['arch']} | {nvcc} | {r['kernels']} | {r['lifted']} | {r['lift_s']:.2f} ({r['lift_cpu_s']:.2f}), {r['instructions']} | "
                     f"{ran} | {matches} | {reason[:220]} |")  # fmt: skip
    return "\n".join([*lines, "", *NOTES]) + "\n"


def merged_rows(rows: list[dict], committed: Path) -> list[dict]:
    """The committed table's rows with `rows` replacing those of the same folder and arch (a
    folder new to it goes after the others of its arch)."""
    old = json.loads(committed.read_text()) if committed.is_file() else []
    fresh = {(r["folder"], r["arch"]): r for r in rows}
    merged = [fresh.pop((r["folder"], r["arch"]), r) for r in old]
    for row in fresh.values():
        last = max((i for i, r in enumerate(merged) if r["arch"] == row["arch"]), default=-1)
        merged.insert(last + 1 if last >= 0 else len(merged), row)
    return merged


def recorded_note(verify: Path | None) -> str:
    if not verify:
        return ""
    data = json.loads(verify.read_text())
    dates: dict[str, list[str]] = {}  # the programs recorded together, named together
    for app, entry in data.get("apps", {}).items():
        if entry.get("recorded"):
            dates.setdefault(entry["recorded"], []).append(app)
    later = [f"{', '.join(apps)} {when}" for when, apps in dates.items()]
    when = "; ".join([data.get("date", ""), *later])
    return f"outputs recorded on {data.get('gpu', 'NVIDIA')} ({when})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arch", default=",".join(ARCHS), help="comma-separated SASS archs")
    parser.add_argument("--apps", default="", help="comma-separated subset (folder names)")
    parser.add_argument("--corpus", type=Path, default=pr.CORPUS)
    parser.add_argument("--verify", type=Path, metavar="RECORDED.json",
                        help="run the run table's applications with lifted kernels, compare")  # fmt: skip
    parser.add_argument("--timeout", type=float, default=900, help="with --verify: seconds per run")
    parser.add_argument("--legacy-nvcc", type=Path, metavar="DIR",
                        help="CUDA 11 toolkit folder for files nvcc 13 refuses (texture<>)")  # fmt: skip
    parser.add_argument("--include", type=Path, action="append", default=[], metavar="DIR",
                        help="extra include folder for every nvcc compile (repeatable)")  # fmt: skip
    parser.add_argument("--hip-include", type=Path, action="append", default=[], metavar="DIR",
                        help="with --verify: extra include folder for the host ports (repeatable)")  # fmt: skip
    parser.add_argument("--out", type=Path, default=RESULTS / "lift-rodinia.md")
    parser.add_argument("--force", action="store_true", help="replace existing results")
    parser.add_argument("--merge", action="store_true",
                        help="with --apps: replace only those applications' rows of --out's table")  # fmt: skip
    parser.add_argument("--render", type=Path, metavar="RESULTS.json",
                        help="only rewrite the markdown table from an earlier run's JSON")  # fmt: skip
    args = parser.parse_args(argv)
    if args.render:
        from cass.runner.outputs import write_atomic

        write_atomic(
            args.out, render(json.loads(args.render.read_text()), recorded_note(args.verify))
        )
        print(f"wrote {args.out}")
        return 0
    if args.legacy_nvcc and not (args.legacy_nvcc / "bin" / "nvcc").is_file():
        print(f"error: {args.legacy_nvcc}/bin/nvcc not found: give a CUDA 11 toolkit folder "
              "(benchmarks/legacy_cuda.sh DIR assembles one)", file=sys.stderr)  # fmt: skip
        return 2
    if not args.corpus.exists():
        print(f"skipped: {args.corpus} is absent (the Rodinia corpus lives beside the clone)")
        return 0
    from cass.runner.diagnostics import CassError
    from cass.runner.outputs import check_output, write_atomic

    out_json = args.out.with_suffix(".json")
    try:
        for path in (args.out, out_json):
            check_output(path, force=args.force or args.merge)
    except CassError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        return 1
    rows = run(args)
    if args.merge:
        rows = merged_rows(rows, out_json)
    recorded = recorded_note(args.verify)
    clean = [{k: v for k, v in r.items() if k != "files"} | {"files": {
        f: {k: v for k, v in e.items() if k != "assembly"} for f, e in r["files"].items()}}
        for r in rows]  # fmt: skip
    write_atomic(out_json, json.dumps(clean, indent=1) + "\n")
    write_atomic(args.out, render(rows, recorded))
    print(f"wrote {args.out} and {out_json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
