"""How long the git hooks take on a large commit: 200 changed CUDA files, rules engine.

Builds a scratch git repository with N CUDA sources (the benchmark tasks' programs, cycled, each
made distinct), stages them, then times, in-process and through the installed console scripts:
cass-port (generate every mirror, no verification), cass-port again (all current), cass-check,
and `cass ci --all --no-verify`; for 1 worker and for the default worker count. Prints a table.

    .venv/bin/python benchmarks/hooks_port_200.py            # 200 files
    .venv/bin/python benchmarks/hooks_port_200.py --files 50 --json out.json
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

REPO = Path(__file__).resolve().parents[1]
TASKS = REPO / "models" / "bench" / "tasks"
SCRIPTS = Path(sys.executable).parent


def corpus() -> list[str]:
    """The benchmark tasks' programs that the rules engine ports without errors (a file it
    cannot port makes the hook fail every time, which is not what this measures)."""
    from cass.models.engine import TranslationRequest
    from cass.models.registry import get_engine

    engine = get_engine("rules")
    sources = sorted(TASKS.glob("*/*/main.cu")) + sorted(REPO.glob("examples/**/*.cu"))
    texts = [s.read_text(encoding="utf-8") for s in sources]
    ok = [t for t in texts if not engine.translate(TranslationRequest("source", t)).has_errors]
    if not ok:
        raise SystemExit("no CUDA sources the rules engine ports cleanly were found")
    return ok


def make_repo(root: Path, count: int) -> list[str]:
    texts = corpus()

    def run(*a: str) -> None:
        subprocess.run(["git", *a], cwd=root, check=True, capture_output=True, timeout=120)

    run("init", "-q", "-b", "main")
    run("config", "user.email", "bench@example.com")
    run("config", "user.name", "bench")
    (root / "pyproject.toml").write_text("[tool.cass.mirror]\nverify = false\n")
    names = []
    for i in range(count):
        name = f"src/d{i % 10}/kernel {i:03d}.cu"
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(f"// variant {i}\n" + texts[i % len(texts)], encoding="utf-8")
        names.append(name)
    run("add", ".")
    return names


def timed(label: str, command: list[str], root: Path, expect: int) -> tuple[str, float]:
    start = time.perf_counter()
    done = subprocess.run(command, cwd=root, capture_output=True, text=True, timeout=600)
    elapsed = time.perf_counter() - start
    if done.returncode != expect:
        raise SystemExit(
            f"{label}: exit {done.returncode}, expected {expect}\n"
            f"{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
        )
    return label, elapsed


def measure(count: int, jobs: int) -> list[tuple[str, float]]:
    with tempfile.TemporaryDirectory(prefix="cass-bench-hooks-") as folder:
        root = Path(folder)
        names = make_repo(root, count)
        j = ["--jobs", str(jobs)]
        rows = [
            timed("cass-port (writes all)", [str(SCRIPTS / "cass-port"), *j, *names], root, 1),
            timed("cass-port (all current)", [str(SCRIPTS / "cass-port"), *j, *names], root, 0),
            timed("cass-check", [str(SCRIPTS / "cass-check"), *j, *names], root, 0),
        ]
        subprocess.run(["git", "add", "."], cwd=root, check=True, timeout=120)
        subprocess.run(
            ["git", "commit", "-qm", "all"], cwd=root, check=True, timeout=120, capture_output=True
        )
        rows.append(
            timed(
                "cass ci --all --no-verify",
                [str(SCRIPTS / "cass"), "ci", "--all", "--no-verify", *j],
                root,
                0,
            )
        )
        return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=200)
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    workers = sorted({1, os.cpu_count() or 1})
    results = {w: measure(args.files, w) for w in workers}
    table = Table(
        title=f"git hooks on {args.files} changed CUDA files (rules engine, "
        f"{os.cpu_count()} CPU cores)"
    )
    table.add_column("step")
    for w in workers:
        table.add_column(f"{w} worker(s), s", justify="right")
        table.add_column(f"ms / file ({w})", justify="right")
    for i, (label, _) in enumerate(results[workers[0]]):
        cells = []
        for w in workers:
            seconds = results[w][i][1]
            cells += [f"{seconds:.2f}", f"{1000 * seconds / args.files:.1f}"]
        table.add_row(label, *cells)
    Console().print(table)
    if args.json:
        args.json.write_text(json.dumps({str(w): dict(r) for w, r in results.items()}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
