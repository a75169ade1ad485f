"""Hover on a CUDA API name or intrinsic: its HIP name, support status and the HIP version
that introduced it, from the rules engine's mapping tables."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cass.server.lsp import engines
from cass.server.lsp.bridge import LineIndex, word_at
from lsprotocol import types as lsp

if TYPE_CHECKING:
    from cass.models.rules import MappingEntry
    from cass.server.lsp.server import CassServer


def describe(entry: MappingEntry) -> str:
    """Markdown for one mapping entry."""
    head = (
        f"**{entry.cuda}** → `{entry.hip}`" if entry.hip else f"**{entry.cuda}**: no HIP equivalent"
    )
    facts = [
        f"status: {entry.status}" if entry.status else "",
        f"since HIP {entry.since}" if entry.since else "",
        f"family: {entry.family}" if entry.family else "",
    ]
    body = " · ".join(fact for fact in facts if fact)
    return "\n\n".join(part for part in (head, body, entry.note) if part)


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
