""" "Port and verify": port the saved CUDA file, run the original and the port, compare.

The work runs in a child process (cass.server.lsp.work.verify_job) under a cancellable progress
report; the verdict comes back as a message and as diagnostics: a summary on the source's first
line plus whatever located findings the verifier reported (compile errors in the port, ...).
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cass.runner.diagnostics import CassError, Diagnostic
from cass.server.lsp.actions import Outcome
from cass.server.lsp.bridge import (
    VERDICT_PRODUCER,
    LineIndex,
    diagnostic_from_dict,
    to_lsp_diagnostic,
)
from cass.server.lsp.documents import require_kind, require_size
from cass.server.lsp.jobs import run_in_child
from cass.server.lsp.progress import with_progress
from lsprotocol import types as lsp

if TYPE_CHECKING:
    from cass.server.lsp.server import CassServer

_MESSAGE_TYPE = {
    "match": lsp.MessageType.Info,
    "unverifiable": lsp.MessageType.Warning,
}
_SEVERITY = {
    "match": lsp.DiagnosticSeverity.Information,
    "unverifiable": lsp.DiagnosticSeverity.Warning,
}


async def port_and_verify(server: CassServer, uri: str) -> Outcome:
    snap = server.snapshot(uri)
    require_kind(snap, "cuda")
    require_size(snap, server.settings.max_file_bytes)
    path = snap.path
    if path is None or not path.is_file():
        raise CassError(
            f"{snap.name} is not saved yet: verification compiles and runs the file on disk; "
            "save it first"
        )
    if path.read_text(encoding="utf-8", errors="replace") != snap.text:
        raise CassError(
            f"{path.name} has unsaved changes: verification runs the file on disk; save it first"
        )

    async def work(report: Any) -> dict[str, Any]:
        report(f"porting and running {path.name}")
        return await run_in_child(
            "cass.server.lsp.work:verify_job",
            str(path),
            server.settings,
            timeout_s=server.settings.timeout_s,
            what=f"verifying {path.name}",
        )

    verdict = await with_progress(server, f"Port and verify {path.name}", work)
    publish_verdict(server, uri, snap.text, verdict)
    status = str(verdict.get("status", "error"))
    return Outcome(
        f"{path.name}: {summary_line(verdict)}",
        kind=_MESSAGE_TYPE.get(status, lsp.MessageType.Error),
    )


def summary_line(verdict: dict[str, Any]) -> str:
    """`match (recorded vs emulator): outputs agree` from a verdict's data."""
    backends = " vs ".join(str(b) for b in verdict.get("backends") or () if b)
    head = str(verdict.get("status", "error")) + (f" ({backends})" if backends else "")
    message = str(verdict.get("message") or "").strip()
    return f"{head}: {message}" if message else head


def publish_verdict(server: CassServer, uri: str, text: str, verdict: dict[str, Any]) -> None:
    """The verdict as diagnostics: a summary at the top of the source, findings where they are."""
    status = str(verdict.get("status", "error"))
    index = LineIndex(text, server.encoding)
    summary = lsp.Diagnostic(
        range=index.range(0, len(text.split("\n", 1)[0])),
        message=f"cass verify: {summary_line(verdict)}",
        severity=_SEVERITY.get(status, lsp.DiagnosticSeverity.Error),
        code=f"verify-{status}",
        source="cass",
    )
    by_uri: dict[str, list[lsp.Diagnostic]] = defaultdict(list)
    by_uri[uri].append(summary)
    for raw in verdict.get("diagnostics", ()):
        diagnostic = raw if isinstance(raw, Diagnostic) else diagnostic_from_dict(raw)
        if diagnostic is None:
            continue
        target_uri, target_text = _located(server, diagnostic, uri, text)
        by_uri[target_uri].append(
            to_lsp_diagnostic(diagnostic, LineIndex(target_text, server.encoding))
        )
    for stale in [
        u
        for u, sets in server.diagnostic_sets.items()
        if sets.get(VERDICT_PRODUCER) and u not in by_uri
    ]:
        server.publish(stale, VERDICT_PRODUCER, [])
    for target_uri, items in by_uri.items():
        server.publish(target_uri, VERDICT_PRODUCER, items)


def _located(server: CassServer, diagnostic: Diagnostic, uri: str, text: str) -> tuple[str, str]:
    """The URI and text a verifier diagnostic points into (the source when it names no file)."""
    path = Path(diagnostic.path)
    if not path.is_absolute() or not path.is_file():
        return uri, text
    opened = server.open_snapshot(path.as_uri())
    if opened is not None:
        return opened.uri, opened.text
    return path.as_uri(), path.read_text(encoding="utf-8", errors="replace")
