"""Re-record a sample of benchmark tasks on this machine's NVIDIA GPU and diff against the shipped
references, with the verdict comparator under each task's run spec (run where NVIDIA-side code
changed: the recorder, the nvidia backend, the comparator, a task's source).

    python3 benchmarks/rerecord_sample.py --per-domain 2 --out benchmarks/results/rerecord-h200

The sample is deterministic (the first N tasks of each domain in name order, then every N-th by
`--stride`), each task is copied to a temporary folder and recorded there, so the shipped
`main.cu.recorded.toml` files are never touched. Writes OUT/results.json and OUT/report.md; exit 1
when any re-recorded output disagrees with its shipped reference. Needs only the standard
library and nvcc (a bare GPU machine: `cass.runner` is linked from this checkout when cass is not
installed).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import shutil
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bare_checkout import import_runner  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TASKS_ROOT = ROOT / "models" / "bench" / "tasks"


def sample(per_domain: int, stride: int) -> list[Path]:
    """Task folders: the first `per_domain` of each domain plus every `stride`-th one after them."""
    by_domain: dict[str, list[Path]] = defaultdict(list)
    for source in sorted(TASKS_ROOT.glob("*/*/main.cu")):
        by_domain[source.parent.parent.name].append(source.parent)
    chosen = []
    for folders in by_domain.values():
        chosen += folders[:per_domain] + (folders[per_domain::stride] if stride else [])
    return sorted(set(chosen))


def rerecord(task: Path) -> dict:
    """Record a copy of `task` on the GPU and compare it with the shipped reference."""
    from cass.runner.compare import compare_results
    from cass.runner.diagnostics import CassError
    from cass.runner.record import record_source
    from cass.runner.recorded import load_recorded
    from cass.runner.spec import load_run_spec

    row = {"task": f"{task.parent.name}/{task.name}"}
    source = task / "main.cu"
    try:
        shipped = load_recorded(source, load_run_spec(source))
    except CassError as exc:
        return {**row, "status": "no-reference", "detail": exc.message}
    with tempfile.TemporaryDirectory(prefix="cass-rerecord-") as work:
        copy = Path(work) / task.name
        shutil.copytree(task, copy, ignore=shutil.ignore_patterns("*.recorded.toml"))
        outcome = record_source(copy / "main.cu")
        if outcome.status != "recorded" or outcome.result is None:
            return {**row, "status": "failed", "detail": outcome.detail}
        spec = load_run_spec(copy / "main.cu")
        found = compare_results(shipped, outcome.result, spec)
    row["runtime_s"] = outcome.result.runtime_s
    if found:
        return {**row, "status": "differs", "detail": found[0].render()}
    return {**row, "status": "same"}


def report(rows: list[dict], meta: dict) -> str:
    counts = {
        s: sum(r["status"] == s for r in rows)
        for s in ("same", "differs", "failed", "no-reference")
    }
    lines = [f"# Re-recorded on {meta['gpu']} ({meta['date']}) vs the shipped references", "",
             f"`{meta['command']}`", "", "| status | tasks |", "| --- | ---: |"]  # fmt: skip
    lines += [f"| {s} | {n} |" for s, n in counts.items()]
    lines += ["", "| task | status | detail |", "| --- | --- | --- |"]
    lines += [
        f"| {r['task']} | {r['status']} | {r.get('detail', '').replace('|', '/')[:200]} |"
        for r in rows
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--per-domain", type=int, default=2, help="first N tasks of every domain (default 2)"
    )
    parser.add_argument(
        "--stride", type=int, default=0, help="and every N-th task after them (0: none)"
    )
    parser.add_argument(
        "--out", type=Path, default=ROOT / "benchmarks" / "results" / "rerecord-h200"
    )
    args = parser.parse_args(argv)
    import_runner()
    from cass.runner.backends.nvidia import machine_info

    tasks = sample(args.per_domain, args.stride)
    rows = []
    for i, task in enumerate(tasks, start=1):
        rows.append(rerecord(task))
        print(
            f"[{i}/{len(tasks)}] {rows[-1]['status']:8} {rows[-1]['task']} {rows[-1].get('detail', '')[:160]}",
            flush=True,
        )
    info = machine_info()
    meta = {"gpu": info.get("gpu") or "unknown GPU", "driver": info.get("driver"), "cuda": info.get("cuda"),
            "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "command": "python3 benchmarks/rerecord_sample.py " + " ".join(argv if argv is not None else sys.argv[1:])}  # fmt: skip
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "results.json").write_text(json.dumps({**meta, "rows": rows}, indent=1) + "\n")
    (args.out / "report.md").write_text(report(rows, meta))
    print(report(rows, meta).splitlines()[4:10])
    return 1 if any(r["status"] != "same" for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
