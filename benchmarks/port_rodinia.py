"""Port the Rodinia CUDA corpus as a project and build every application for gfx1100.

    .venv/bin/python benchmarks/port_rodinia.py [--jobs 2] [--apps bfs,nw]

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
import json
import subprocess
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CASS = ROOT / ".venv" / "bin" / "cass"
CORPUS = ROOT.parent / "shared" / "corpus" / "rodinia-cuda.tar.gz"
RESULTS = ROOT / "benchmarks" / "results"


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--apps", default="", help="comma-separated subset")
    args = parser.parse_args()
    if not CORPUS.is_file():
        print(f"skipped: {CORPUS} is absent (the Rodinia corpus lives beside the clone)")
        return
    from cass.runner.toolchain import hip_clang_command

    hipcc = [*hip_clang_command("gfx1100"), "-Wno-everything"]
    with tempfile.TemporaryDirectory() as tmp:
        with tarfile.open(CORPUS) as archive:
            archive.extractall(tmp, filter="data")
        tree, out = Path(tmp) / "rodinia-cuda", Path(tmp) / "hip"
        started = time.perf_counter()
        port = subprocess.run(
            [
                str(CASS),
                "port",
                str(tree),
                "-o",
                str(out),
                "--format",
                "json",
                "--report",
                str(Path(tmp) / "report.json"),
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        port_s = time.perf_counter() - started
        diagnostics = json.loads((Path(tmp) / "report.json").read_text())
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
    write_results(rows, port_s, port.stderr)


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
    (RESULTS / "port-rodinia.md").write_text("\n".join(lines))


if __name__ == "__main__":
    main()
