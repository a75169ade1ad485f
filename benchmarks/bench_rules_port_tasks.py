"""Port every benchmark and example program with the rules engine and compile each port for
gfx1100 (host and device, clang-16 -fsyntax-only against Debian's HIP 5.2): a table per domain.

    .venv/bin/python benchmarks/bench_rules_port_tasks.py [--workers 2] [--json OUT] [--hip-version 5.2]
"""

from __future__ import annotations

import argparse
import collections
import json
import tempfile
from pathlib import Path

from cass.models.engine import Target
from cass.models.rules.corpus import port_and_check
from cass.runner.toolchain import hip_clang_command
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--hip-version", default="5.2")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    programs = sorted((ROOT / "models" / "bench" / "tasks").rglob("*.cu")) + sorted(
        (ROOT / "examples").rglob("*.cu")
    )
    command = hip_clang_command("gfx1100")
    console = Console()

    def compile_fn(path: Path):
        import subprocess

        return subprocess.run(
            [*command, "-fsyntax-only", str(path)],
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )

    with tempfile.TemporaryDirectory() as tmp, Progress(console=console) as progress:
        task = progress.add_task("port + compile", total=len(programs))
        outcomes = port_and_check(
            programs,
            ROOT,
            Path(tmp),
            compile_fn,
            workers=args.workers,
            target=Target(hip_version=args.hip_version),
            progress=lambda _: progress.advance(task),
        )
    by_domain: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for o in outcomes:
        parts = o.program.relative_to(ROOT).parts
        domain = parts[3] if parts[0] == "models" else "examples"
        by_domain[domain][o.status] += 1
    table = Table(title=f"cass port (rules) -> HIP {args.hip_version}, compiled for gfx1100")
    statuses = ("compiles", "compile-error", "reported", "needs-library")
    for column in ("domain", "programs", *statuses):
        table.add_column(column, justify="right")
    total = collections.Counter()
    for domain, counts in sorted(by_domain.items()):
        total.update(counts)
        table.add_row(domain, str(sum(counts.values())), *(str(counts[s]) for s in statuses))
    table.add_row("all", str(sum(total.values())), *(str(total[s]) for s in statuses))
    console.print(table)
    for o in outcomes:
        if o.status != "compiles":
            console.print(
                f"{o.status}: {o.program.relative_to(ROOT)}: {o.detail.splitlines()[-1] if o.detail else ''}",
                highlight=False,
                markup=False,
            )
    if args.json:
        args.json.write_text(
            json.dumps(
                [
                    {
                        "program": str(o.program.relative_to(ROOT)),
                        "status": o.status,
                        "detail": o.detail,
                    }
                    for o in outcomes
                ],
                indent=2,
            )
            + "\n"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
