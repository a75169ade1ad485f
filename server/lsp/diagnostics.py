"""Portability findings of the rules engine on open CUDA files, updated as the user types.

Each change (re)starts a short timer per document (cass.diagnostics.debounceMs); when it runs
out the rules engine reads the text in a worker thread and the findings are published, unless
the document changed again meanwhile (then the newer timer publishes).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from cass.runner.diagnostics import CassError
from cass.server.lsp import engines, mirror_state
from cass.server.lsp.bridge import RULES_PRODUCER, VERDICT_PRODUCER, LineIndex, to_lsp_diagnostic
from cass.server.lsp.documents import Snapshot, require_size
from lsprotocol import types as lsp

if TYPE_CHECKING:
    from cass.server.lsp.server import CassServer

log = logging.getLogger(__name__)


def findings(snap: Snapshot, server: CassServer) -> list[lsp.Diagnostic]:
    """The rules engine's diagnostics for a snapshot, as LSP diagnostics (runs in a thread)."""
    target = engines.target_of(server.settings)
    translation = engines.translate_source(snap.text, snap.name, server.settings, "rules", target)
    server.remember_rules(snap, target, translation)
    index = LineIndex(snap.text, server.encoding)
    docs = engines.diagnostic_docs() if server.supports_code_description() else {}
    return [to_lsp_diagnostic(d, index, docs) for d in translation.diagnostics]


async def _update(server: CassServer, uri: str, delay_s: float) -> None:
    await asyncio.sleep(delay_s)
    snap = server.open_snapshot(uri)
    if snap is None or snap.kind != "cuda" or not server.settings.diagnostics_enable:
        return
    try:
        require_size(snap, server.settings.max_file_bytes)
        found = await _one_at_a_time(server, uri, snap)
    except CassError as exc:
        server.tell_once(
            f"diagnostics:{uri}:{exc.message}", f"cass: no diagnostics for now: {exc.message}"
        )
        server.publish(uri, RULES_PRODUCER, [], snap.version)
        return
    current = server.open_snapshot(uri)
    if current is not None and current.version == snap.version:
        server.publish(uri, RULES_PRODUCER, found, snap.version)


async def _one_at_a_time(server: CassServer, uri: str, snap: Snapshot) -> list[lsp.Diagnostic]:
    """The findings, computed in a thread once the document's previous computation is over: a
    thread cannot be stopped, so typing during a slow translation must not pile threads up."""
    running = server.diagnostic_threads.get(uri)
    if running is not None and not running.done():
        await asyncio.wait([running])
    work = asyncio.ensure_future(asyncio.to_thread(findings, snap, server))
    work.add_done_callback(lambda done: done.cancelled() or done.exception())  # retrieved
    server.diagnostic_threads[uri] = work
    return await asyncio.shield(work)  # a newer keystroke cancels this task, not the thread's


def schedule(server: CassServer, uri: str, delay_s: float | None = None) -> None:
    """(Re)start the timer for `uri`; the previous pending update is dropped."""
    previous = server.diagnostic_timers.pop(uri, None)
    if previous is not None:
        previous.cancel()
    delay = server.settings.debounce_ms / 1000 if delay_s is None else delay_s
    task = asyncio.ensure_future(_update(server, uri, delay))
    server.diagnostic_timers[uri] = task
    task.add_done_callback(lambda done: _finished(server, uri, done))


def _finished(server: CassServer, uri: str, task: asyncio.Task[None]) -> None:
    if server.diagnostic_timers.get(uri) is task:
        del server.diagnostic_timers[uri]
    if not task.cancelled() and task.exception() is not None:
        log.error("diagnostics for %s failed", uri, exc_info=task.exception())


def refresh_all(server: CassServer) -> None:
    """Re-run (or clear, when disabled) the findings of every open document."""
    for uri in list(server.workspace.text_documents):
        if server.settings.diagnostics_enable:
            schedule(server, uri, 0)
        else:
            server.publish(uri, RULES_PRODUCER, [])


def setup(server: CassServer) -> None:
    server.on_settings_change(refresh_all)

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: lsp.DidOpenTextDocumentParams) -> None:
        schedule(server, params.text_document.uri, 0)
        mirror_state.refresh(server, params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(params: lsp.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        if server.diagnostic_sets.get(uri, {}).get(VERDICT_PRODUCER):  # of an older text
            server.publish(uri, VERDICT_PRODUCER, [])
        schedule(server, uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(params: lsp.DidCloseTextDocumentParams) -> None:
        pending = server.diagnostic_timers.pop(params.text_document.uri, None)
        if pending is not None:
            pending.cancel()
        server.forget(params.text_document.uri)
