"""Long work with `$/progress` and cancellation, and "recompute if the document changed".

`with_progress` shows a cancellable progress report where the client supports server-initiated
progress; the user's cancel (window/workDoneProgress/cancel) cancels the work task, and a
`$/cancelRequest` of the request running it cancels it too (pygls cancels the handler's task).
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TypeVar

from cass.runner.diagnostics import CassError
from cass.server.lsp.documents import Snapshot
from lsprotocol import types as lsp

if TYPE_CHECKING:
    from cass.server.lsp.server import CassServer

T = TypeVar("T")
Report = Callable[[str], None]


class Cancelled(Exception):
    """The user cancelled the work from the progress report."""


async def with_progress(
    server: CassServer, title: str, work: Callable[[Report], Awaitable[T]]
) -> T:
    """Run `work(report)` under a progress report titled `title` (plain, when unsupported)."""
    token = f"cass-{uuid.uuid4()}"
    if not server.supports_progress() or not await _create(server, token):
        return await work(lambda message: None)
    progress = server.work_done_progress
    progress.begin(token, lsp.WorkDoneProgressBegin(title=title, cancellable=True))
    task = asyncio.ensure_future(
        work(lambda message: progress.report(token, lsp.WorkDoneProgressReport(message=message)))
    )
    loop = asyncio.get_running_loop()
    user_cancel = progress.tokens[token]
    user_cancel.add_done_callback(
        lambda f: f.cancelled() and loop.call_soon_threadsafe(task.cancel)
    )
    outcome = "cancelled"
    try:
        result = await task
        outcome = "done"
        return result
    except asyncio.CancelledError:
        if user_cancel.cancelled() and not _cancelling():
            raise Cancelled(f"{title}: cancelled") from None
        raise
    except CassError:
        outcome = "failed"
        raise
    finally:
        task.cancel()
        progress.end(token, lsp.WorkDoneProgressEnd(message=outcome))
        progress.tokens.pop(token, None)


def _cancelling() -> bool:
    current = asyncio.current_task()
    return bool(current and current.cancelling())


async def _create(server: CassServer, token: str) -> bool:
    try:
        await asyncio.wait_for(server.work_done_progress.create_async(token), timeout=10)
        return True
    # Broad on purpose: a refusal arrives as a JSON-RPC error, a silent client as a timeout,
    # a closed connection as whatever the transport raises; each means "work without a report".
    except Exception:
        return False


async def on_current_text(
    server: CassServer,
    uri: str,
    compute: Callable[[Snapshot], Awaitable[T]],
    what: str,
    attempts: int = 3,
) -> tuple[Snapshot, T]:
    """`compute` on the document's text; computed again when the document changed meanwhile,
    so the result always belongs to the text the editor has now."""
    snap = server.snapshot(uri)
    for _ in range(attempts):
        result = await compute(snap)
        if snap.version is None:  # a file on disk, not open: nothing to race with
            return snap, result
        now = server.open_snapshot(uri)
        if now is None:
            raise CassError(f"{snap.name} was closed while {what}; nothing was changed")
        if now.version == snap.version:
            return snap, result
        snap = now
    raise CassError(f"{snap.name} kept changing while {what}; try again when you pause typing")
