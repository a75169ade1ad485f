"""Hover on a CUDA API name or intrinsic: its HIP name, support status and the HIP version
that introduced it, from the rules engine's mapping tables."""

from __future__ import annotations

from typing import Any

from lsprotocol import types as lsp

from . import engines
from .bridge import LineIndex, word_at
from .server import CassServer


def describe(entry: Any) -> str:
    """Markdown for one mapping entry."""
    cuda = getattr(entry, "cuda", None) or getattr(entry, "cuda_name", "?")
    hip = getattr(entry, "hip", None) or getattr(entry, "hip_name", None)
    status = getattr(entry, "status", None)
    status = getattr(status, "value", status)
    since = getattr(entry, "hip_version", None) or getattr(entry, "since", None)
    family = getattr(entry, "family", None)
    family = getattr(family, "value", family)
    head = f"**{cuda}** → `{hip}`" if hip else f"**{cuda}**: no HIP equivalent"
    facts = [
        f"status: {status}" if status else "",
        f"since HIP {since}" if since else "",
        f"family: {family}" if family else "",
    ]
    note = getattr(entry, "note", None) or getattr(entry, "notes", None)
    body = " · ".join(fact for fact in facts if fact)
    return "\n\n".join(part for part in (head, body, str(note) if note else "") if part)


def setup(server: CassServer) -> None:
    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def hover(params: lsp.HoverParams) -> lsp.Hover | None:
        snap = server.open_snapshot(params.text_document.uri)
        if snap is None or snap.kind != "cuda":
            return None
        index = LineIndex(snap.text, server.encoding)
        span = word_at(snap.text, index.offset(params.position))
        if span is None:
            return None
        entry = engines.lookup(snap.text[span[0] : span[1]])
        if entry is None:
            return None
        return lsp.Hover(
            contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=describe(entry)),
            range=index.range(*span),
        )
