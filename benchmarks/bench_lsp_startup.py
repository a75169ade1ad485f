"""Start-up of the language server: how long `python -m cass.server` takes to answer `initialize`,
and what its imports cost.

    .venv/bin/python benchmarks/bench_lsp_startup.py [--rounds 15] [--baseline REV] [--json FILE]

Each round starts a fresh server process, sends `initialize` over stdio (JSON-RPC framing as an
editor sends it), waits for the answer, then `shutdown` and `exit`. Reported: the wall time to the
answer (median, min, max) and the CPU seconds the whole process used (its own user + system time,
which load on a shared machine disturbs less than wall time). Then one `python -X importtime` run
lists the cass and third-party modules that cost most to import before the server can answer.
`--baseline REV` also starts the server of an earlier commit (its server/models/runner/hooks from
`git archive`, put first on PYTHONPATH as a `cass` namespace), alternating rounds with this tree
so both see the same load, and reports each measure as a ratio this/baseline.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

SERVER = [sys.executable, "-m", "cass.server"]
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"processId": None, "rootUri": None, "capabilities": {}},
}


def frame(message: dict) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def read_message(stream) -> dict:  # type: ignore[no-untyped-def]
    length = 0
    while True:
        line = stream.readline()
        if not line:
            raise RuntimeError("the server closed its output before answering")
        if line in (b"\r\n", b"\n"):
            break
        name, _, value = line.decode().partition(":")
        if name.lower() == "content-length":
            length = int(value)
    return json.loads(stream.read(length))


ROOT = Path(__file__).resolve().parents[1]
PARTS = ("server", "models", "runner", "hooks")


def baseline_tree(rev: str, folder: Path) -> dict[str, str]:
    """The environment that runs the server of commit `rev` (extracted under `folder`)."""
    tree, ns = folder / "tree", folder / "ns" / "cass"
    tree.mkdir()
    ns.mkdir(parents=True)
    archive = subprocess.run(
        ["git", "archive", rev, *PARTS], cwd=ROOT, capture_output=True, check=True, timeout=120
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True, timeout=120)
    for part in PARTS:
        (ns / part).symlink_to(tree / part)
    return os.environ | {"PYTHONPATH": str(ns.parent)}


def one_round(env: dict[str, str] | None = None) -> tuple[float, float]:
    """(seconds to the initialize answer, CPU seconds of the server process)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    server = subprocess.Popen(
        SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env
    )
    assert server.stdin is not None and server.stdout is not None
    server.stdin.write(frame(INITIALIZE))
    server.stdin.flush()
    while read_message(server.stdout).get("id") != 1:
        pass
    answered = time.perf_counter() - started
    server.stdin.write(frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}))
    server.stdin.write(frame({"jsonrpc": "2.0", "method": "exit"}))
    server.stdin.flush()
    server.wait(timeout=60)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return answered, cpu


def import_costs(top: int) -> list[tuple[str, float, float]]:
    """(module, own import seconds, with what it imports) of the modules costing most of their
    own when the server module and its features load (one run of `python -X importtime`)."""
    done = subprocess.run(
        [
            sys.executable,
            "-X",
            "importtime",
            "-c",
            "from cass.server.lsp import create_server; create_server()",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    rows = []
    for line in done.stderr.splitlines():
        found = re.match(r"import time:\s+(\d+) \|\s+(\d+) \|\s*(\S+)", line)
        if found:
            rows.append((found.group(3), int(found.group(1)) / 1e6, int(found.group(2)) / 1e6))
    return sorted(rows, key=lambda r: r[1], reverse=True)[:top]


def summary(values: list[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def measure(rounds: int, baseline: dict[str, str] | None) -> dict[str, list[tuple[float, float]]]:
    """Rounds of this tree (and of the baseline, alternating)."""
    results: dict[str, list[tuple[float, float]]] = {"this": []}
    one_round()  # warm the file cache and the bytecode
    if baseline is not None:
        results["baseline"] = []
        one_round(baseline)
    for _ in range(rounds):
        results["this"].append(one_round())
        if baseline is not None:
            results["baseline"].append(one_round(baseline))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--baseline", help="an earlier commit to compare with")
    parser.add_argument("--top", type=int, default=12, help="modules listed by import cost")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="cass-startup-"))
    try:
        baseline = baseline_tree(args.baseline, folder) if args.baseline else None
        results = measure(args.rounds, baseline)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    load = os.getloadavg()[0]
    console = Console()
    table = Table(title=f"cass language server start-up, {args.rounds} rounds (load {load:.1f})")
    table.add_column("measure")
    for name in results:
        table.add_column(f"{name}: median (min-max)", justify="right")
    if baseline is not None:
        table.add_column("ratio this/baseline", justify="right")
    figures: dict[str, dict[str, dict[str, float]]] = {}
    for index, label in ((0, "initialize answered (wall s)"), (1, "server process CPU (s)")):
        cells = []
        for name, rows in results.items():
            stats = summary([r[index] for r in rows])
            figures.setdefault(name, {})[label] = stats
            cells.append(f"{stats['median']:.3f} ({stats['min']:.3f}-{stats['max']:.3f})")
        if baseline is not None:
            ratio = figures["this"][label]["median"] / figures["baseline"][label]["median"]
            cells.append(f"x{ratio:.2f}")
        table.add_row(label, *cells)
    console.print(table)
    costs = import_costs(args.top)
    imports = Table(title="costliest imports of this tree (one -X importtime run, s)")
    imports.add_column("module")
    imports.add_column("own", justify="right")
    imports.add_column("with its imports", justify="right")
    for name, own, total in costs:
        imports.add_row(name, f"{own:.3f}", f"{total:.3f}")
    console.print(imports)
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "rounds": args.rounds,
                    "load": load,
                    "baseline": args.baseline,
                    "figures": figures,
                    "imports_s": {name: {"own": own, "total": total} for name, own, total in costs},
                },
                indent=2,
            )
            + "\n"
        )


if __name__ == "__main__":
    main()
