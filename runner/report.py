"""Verdicts for people: a rich table per verdict, plain lines for logs and hooks."""

from __future__ import annotations

from cass.runner.results import RunResult
from cass.runner.verify import Verdict
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

STYLE = {
    "match": "bold green",
    "mismatch": "bold red",
    "error": "bold red",
    "unverifiable": "bold yellow",
}
SHOWN_MISMATCHES = 5


def _fmt_time(seconds: float | None) -> str:
    if seconds is None:
        return "—"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    return f"{seconds * 1e3:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def _fmt_bytes(count: float) -> str:
    for unit in ("B", "KiB", "MiB"):
        if count < 1024:
            return f"{count:.0f} {unit}" if unit == "B" else f"{count:.1f} {unit}"
        count /= 1024
    return f"{count:.2f} GiB"


def _fmt_mem(result: RunResult) -> str:
    if result.device_peak_bytes is not None:
        return f"{_fmt_bytes(result.device_peak_bytes)} device"
    if result.peak_rss_kib is not None:
        return f"{_fmt_bytes(result.peak_rss_kib * 1024)} RSS"
    return "—"


def _fmt_ratio(value: float | None) -> str:
    return f"{value:.2f}x" if value is not None else "n/a"


def _side_row(label: str, result: RunResult | None, backend: str) -> list[str]:
    if result is None:
        return [label, backend, "—", "—", "—", "—"]
    machine = result.info.get("gpu", "")
    where = f"{backend} ({machine})" if machine else backend
    runs = f"{_fmt_time(result.runtime_s)} ×{len(result.runtimes_s)}" if result.runtimes_s else "—"
    device = _fmt_time(result.device_time_s)
    return [label, where, result.describe_end(), runs, device, _fmt_mem(result)]


def verdict_table(verdict: Verdict) -> Table:
    table = Table(title=Text(f"{verdict.original}  vs  {verdict.port}"), title_justify="left")
    for column in ("side", "backend", "ended", "runtime (median)", "device time", "peak memory"):
        table.add_column(column)
    table.add_row(*map(Text, _side_row("original", verdict.reference, verdict.backends[0])))
    table.add_row(*map(Text, _side_row("port", verdict.candidate, verdict.backends[1])))
    table.add_row(
        "ratio",
        "port / original",
        "",
        _fmt_ratio(verdict.runtime_ratio),
        "",
        _fmt_ratio(verdict.memory_ratio),
    )
    return table


def mismatch_table(verdict: Verdict) -> Table:
    shown = min(len(verdict.mismatches), SHOWN_MISMATCHES)
    table = Table(
        title=f"first differences ({shown} of the first {len(verdict.mismatches)} found)",
        title_justify="left",
    )
    for column in ("where", "expected (original)", "got (port)", "why", "context"):
        table.add_column(column, overflow="fold")
    for m in verdict.mismatches[:SHOWN_MISMATCHES]:
        where = f"{m.where}:{m.line}" if m.line is not None else m.where
        context = (
            f"- {m.expected_context}\n+ {m.actual_context}"
            if m.expected_context or m.actual_context
            else ""
        )
        table.add_row(*map(Text, (where, m.expected, m.actual, m.message, context)))
    return table


def render(verdict: Verdict) -> Group:
    """Everything a person needs: the status line, the sides table, differences, diagnostics."""
    parts: list = [
        Text.assemble((verdict.status.upper(), STYLE[verdict.status]), "  ", verdict.message)
    ]
    if verdict.reference is not None or verdict.candidate is not None:
        parts.append(verdict_table(verdict))
    if verdict.mismatches:
        parts.append(mismatch_table(verdict))
    parts += [Text(d.render()) for d in verdict.diagnostics]
    if (
        verdict.candidate is not None
        and not verdict.candidate.finished
        and verdict.candidate.stderr.strip()
    ):
        parts.append(
            Text("port stderr (tail):\n" + verdict.candidate.stderr.strip()[-1500:], style="dim")
        )
    parts += [Text(f"note: {n}", style="dim") for n in verdict.notes]
    return Group(*parts)


def print_verdict(verdict: Verdict, console: Console | None = None) -> None:
    (console or Console(emoji=False)).print(render(verdict))


def summary_line(verdict: Verdict) -> str:
    """One line for logs and hooks: `STATUS original vs port [ref -> cand]: message`."""
    pair = " -> ".join(verdict.backends)
    return (
        f"{verdict.status.upper()} {verdict.original} vs {verdict.port} [{pair}]: {verdict.message}"
    )
