"""Benchmark reports: accuracy per domain and engine, status counts, runtime and memory ratios.

    summary = summarize(results)
    paths = write_reports(results, Path("bench-results"), meta)   # results.json, report.md, accuracy.png

Accuracy is passes over all tasks of a domain: a task the backend cannot run (a missing library)
or that has no NVIDIA reference yet counts as not passed, and is listed under its own status.
"""

from __future__ import annotations

import datetime as dt
import io
import json
import math
from collections import defaultdict
from pathlib import Path
from typing import Any

from cass.models.bench.catalog import DOMAINS, STATUSES
from cass.models.bench.harness import TaskResult
from cass.runner.diagnostics import CassError
from cass.runner.outputs import write_atomic

RESULTS_NAME, MARKDOWN_NAME, PLOT_NAME = "results.json", "report.md", "accuracy.png"


def geometric_mean(values: list[float]) -> float | None:
    positive = [v for v in values if v and v > 0]
    return math.exp(sum(math.log(v) for v in positive) / len(positive)) if positive else None


def _group(results: list[TaskResult]) -> dict[str, Any]:
    counts = {status: 0 for status in STATUSES}
    for r in results:
        counts[r.status] += 1
    passed = [r for r in results if r.passed]
    return {
        "tasks": len(results),
        "passed": len(passed),
        "accuracy": len(passed) / len(results) if results else 0.0,
        "statuses": counts,
        "stages": {
            s: sum(getattr(r, s) for r in results)
            for s in ("translated", "compiled", "ran", "matched")
        },
        "runtime_ratio": geometric_mean([r.runtime_ratio for r in passed if r.runtime_ratio]),
        "memory_ratio": geometric_mean([r.memory_ratio for r in passed if r.memory_ratio]),
    }


def summarize(results: list[TaskResult]) -> dict[str, Any]:
    """{column: {"overall": group, "domains": {domain: group}}} with domains in catalog order; a
    column is an engine, at the assembly level an engine and its SASS arch ("lift sm_80")."""
    by_engine: dict[str, list[TaskResult]] = defaultdict(list)
    for r in results:
        by_engine[r.column].append(r)
    summary = {}
    for engine, rs in by_engine.items():
        by_domain: dict[str, list[TaskResult]] = defaultdict(list)
        for r in rs:
            by_domain[r.domain].append(r)
        order = [d for d in DOMAINS if d in by_domain] + sorted(set(by_domain) - set(DOMAINS))
        summary[engine] = {
            "overall": _group(rs),
            "domains": {d: _group(by_domain[d]) for d in order},
        }
    return summary


def _pct(group: dict[str, Any]) -> str:
    return f"{100 * group['accuracy']:.1f}% ({group['passed']}/{group['tasks']})"


def _ratio(value: float | None) -> str:
    return f"{value:.2f}" if value else "–"


def markdown(summary: dict[str, Any], meta: dict[str, Any]) -> str:
    engines = list(summary)
    lines = [
        f"# cass bench: {meta.get('backend', '?')} backend, {meta.get('level', '?')} level",
        "",
    ]
    lines += [
        f"Command: `{meta['command']}`" if meta.get("command") else "",
        f"Date: {meta.get('date', '?')}",
        "",
    ]
    if meta.get("sass_archs"):
        lines += [
            f"SASS input: {', '.join(meta['sass_archs'])} (one column per engine and arch)",
            "",
        ]
    lines += ["## Accuracy per domain (output matches the NVIDIA reference)", ""]
    lines += ["| domain | " + " | ".join(engines) + " |", "| --- |" + " --- |" * len(engines)]
    domains = list(dict.fromkeys(d for e in engines for d in summary[e]["domains"]))
    for d in domains:
        cells = [
            _pct(summary[e]["domains"][d]) if d in summary[e]["domains"] else "–" for e in engines
        ]
        lines.append(f"| {DOMAINS.get(d, d)} | " + " | ".join(cells) + " |")
    lines.append(
        "| **overall** | "
        + " | ".join(f"**{_pct(summary[e]['overall'])}**" for e in engines)
        + " |"
    )
    lines += ["", "## Where tasks stop", "", "| engine | " + " | ".join(STATUSES) + " |"]
    lines.append("| --- |" + " ---: |" * len(STATUSES))
    for e in engines:
        counts = summary[e]["overall"]["statuses"]
        lines.append(f"| {e} | " + " | ".join(str(counts[s]) for s in STATUSES) + " |")
    lines += [
        "",
        "## How far ports get",
        "",
        "| engine | tasks | translated | compiled | ran | matched |",
    ]
    lines.append("| --- |" + " ---: |" * 5)
    for e in engines:
        o = summary[e]["overall"]
        lines.append(
            f"| {e} | {o['tasks']} | "
            + " | ".join(str(o["stages"][s]) for s in ("translated", "compiled", "ran", "matched"))
            + " |"
        )
    lines += ["", "## Cost of the port (geometric mean over passing tasks; port / original)", ""]
    lines += ["| engine | runtime ratio | memory ratio |", "| --- | ---: | ---: |"]
    for e in engines:
        o = summary[e]["overall"]
        lines.append(f"| {e} | {_ratio(o['runtime_ratio'])} | {_ratio(o['memory_ratio'])} |")
    lines += [
        "",
        "Statuses: " + "; ".join(f"`{s}`: {m}" for s, (m, _) in STATUSES.items()) + ".",
        "",
    ]
    return "\n".join(lines)


def task_table(results: list[TaskResult]) -> str:
    """Every task's status per engine, folded away (GitHub renders <details>)."""
    engines = list(dict.fromkeys(r.column for r in results))
    status = {(r.task, r.column): r.status for r in results}
    tasks = list(dict.fromkeys(r.task for r in results))
    lines = ["<details><summary>Every task</summary>", "", "| task | " + " | ".join(engines) + " |",
             "| --- |" + " --- |" * len(engines)]  # fmt: skip
    lines += [
        f"| {t} | " + " | ".join(status.get((t, e), "–") for e in engines) + " |" for t in tasks
    ]
    return "\n".join(lines + ["", "</details>", ""])


def plot_accuracy(summary: dict[str, Any], path: Path) -> Path:
    """Grouped bars: accuracy per domain, one bar per engine."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise CassError("plots need matplotlib: pip install 'cass[plots]'") from None
    engines = list(summary)
    domains = list(dict.fromkeys(d for e in engines for d in summary[e]["domains"]))
    width = 0.8 / max(1, len(engines))
    fig, ax = plt.subplots(figsize=(max(6, 0.6 * len(domains) + 2), 4.5))
    for i, engine in enumerate(engines):
        values = [
            100 * summary[engine]["domains"].get(d, {"accuracy": 0})["accuracy"] for d in domains
        ]
        ax.bar([x + i * width for x in range(len(domains))], values, width, label=engine)
    ax.set_xticks([x + width * (len(engines) - 1) / 2 for x in range(len(domains))])
    ax.set_xticklabels([DOMAINS.get(d, d) for d in domains], rotation=40, ha="right", fontsize=8)
    ax.set_ylabel("accuracy (%)")
    ax.set_ylim(0, 100)
    ax.set_title("cass bench: output matches the NVIDIA reference")
    ax.legend()
    fig.tight_layout()
    image = io.BytesIO()
    fig.savefig(image, format="png", dpi=120)
    plt.close(fig)
    write_atomic(path, image.getvalue())
    return path


def write_reports(
    results: list[TaskResult], out_dir: Path, meta: dict[str, Any]
) -> dict[str, Path]:
    """results.json (every task + summary), report.md and accuracy.png in `out_dir`."""
    out_dir.mkdir(parents=True, exist_ok=True)
    meta = {"date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"), **meta}
    summary = summarize(results)
    payload = {"meta": meta, "summary": summary, "results": [r.to_dict() for r in results]}
    paths = {
        "json": out_dir / RESULTS_NAME,
        "markdown": out_dir / MARKDOWN_NAME,
        "plot": out_dir / PLOT_NAME,
    }
    write_atomic(paths["json"], json.dumps(payload, indent=1))
    write_atomic(paths["markdown"], markdown(summary, meta) + "\n" + task_table(results))
    plot_accuracy(summary, paths["plot"])
    return paths


def load_results(out_dir: Path) -> tuple[list[TaskResult], dict[str, Any]]:
    """The results and meta of an earlier run (for `cass bench report`)."""
    path = out_dir / RESULTS_NAME
    try:
        payload = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CassError(
            f"{path}: no results here; run `cass bench run --out {out_dir}` first"
        ) from None
    except json.JSONDecodeError as exc:
        raise CassError(
            f"{path}: line {exc.lineno}: not valid JSON ({exc.msg}); rerun `cass bench run`"
        ) from None
    return [TaskResult.from_dict(r) for r in payload.get("results", [])], payload.get("meta", {})
