"""`workspace/executeCommand` for every action, for editors without code action resolve.

Each command computes the same Outcome as resolve, then applies its edit with
`workspace/applyEdit` (or writes a new file where the client cannot create one), shows the
message, and returns a small JSON result: `{"status": ..., "message": ..., "text"?: ...}`.
Expected failures (not CUDA, too big, closed, engine missing) come back as a message and a
`{"status": "error"}` result; the server keeps serving.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, TypeVar

from cass.runner.diagnostics import CassError
from cass.server.lsp import actions, verification
from cass.server.lsp.dispatch import BY_COMMAND, parse_range, run_action
from cass.server.lsp.progress import Cancelled
from lsprotocol import types as lsp

if TYPE_CHECKING:
    from cass.server.lsp.server import CassServer

log = logging.getLogger(__name__)
T = TypeVar("T")


def _uri(args: list[Any]) -> str:
    if not args or not isinstance(args[0], str):
        raise CassError("the command needs the document URI as its first argument")
    return args[0]


def _selection(args: list[Any]) -> lsp.Range | None:
    if len(args) < 2 or args[1] is None:
        return None
    raw = args[1]
    if isinstance(raw, lsp.Range):
        return raw
    selection = parse_range(raw)
    if selection is None:
        raise CassError("the command's second argument must be a range {start, end}")
    return selection


async def deliver(server: CassServer, outcome: actions.Outcome) -> dict[str, Any]:
    """Apply / write / return what an action produced; the command's JSON result."""
    result: dict[str, Any] = {"status": "ok", "message": outcome.message}
    if outcome.edit is not None:
        applied = await server.workspace_apply_edit_async(
            lsp.ApplyWorkspaceEditParams(edit=outcome.edit, label=outcome.message[:80] or "cass")
        )
        if not applied.applied:
            reason = applied.failure_reason or "the editor refused the edit"
            raise CassError(f"nothing was changed: {reason}")
    if outcome.write is not None:
        path, text = outcome.write
        if path.exists():  # appeared meanwhile: never overwrite without an edit the user sees
            raise CassError(
                f"{path} appeared while cass was working; nothing was written, run it again"
            )
        from cass.models.workflow import mirror

        mirror.write_atomic(path, text)
        result["written"] = str(path)
        if server.supports_show_document():
            await server.window_show_document_async(lsp.ShowDocumentParams(uri=path.as_uri()))
        outcome.message += f" (wrote {path.name})"
        result["message"] = outcome.message
    if outcome.text is not None:
        result.update(text=outcome.text, languageId=outcome.language_id)
    if outcome.message:
        server.tell(outcome.message, outcome.kind)
    return result


async def run_command(server: CassServer, name: str, args: list[Any]) -> dict[str, Any]:
    spec = BY_COMMAND[name]
    try:
        uri = _uri(args)
        outcome = await run_action(server, spec, uri, _selection(args))
        result = await deliver(server, outcome)
        if name == "cass.portFile" and server.settings.verify_on_port:
            result["verdict"] = await deliver(
                server, await verification.port_and_verify(server, uri)
            )
        return result
    except Cancelled as exc:
        server.tell(f"cass: {exc}", lsp.MessageType.Info)
        return {"status": "cancelled", "message": str(exc)}
    except CassError as exc:
        server.tell(f"cass: {exc.message}", lsp.MessageType.Error)
        return {"status": "error", "message": exc.message}


async def apply_fix(server: CassServer, args: list[Any]) -> dict[str, Any]:
    try:
        data = args[1] if len(args) > 1 else None
        return await deliver(server, actions.fix_outcome(server, _uri(args), data))
    except CassError as exc:
        server.tell(f"cass: {exc.message}", lsp.MessageType.Error)
        return {"status": "error", "message": exc.message}


def setup(server: CassServer) -> None:
    for name in BY_COMMAND:
        _register(server, name)

    @server.command("cass.applyFix")
    async def apply_fix_command(*args) -> dict[str, Any]:
        return await apply_fix(server, list(args))


def _register(server: CassServer, name: str) -> None:
    @server.command(name)
    async def command(*args) -> dict[str, Any]:
        return await cancellable(server, run_command(server, name, list(args)))


async def cancellable(server: CassServer, work: Awaitable[T]) -> T:
    """Run a command's work as a task that `$/cancelRequest` of its request can cancel."""
    request_id = server.protocol.msg_id
    task = asyncio.ensure_future(work)
    if request_id is not None:
        server.running[request_id] = task
    try:
        return await task
    finally:
        server.running.pop(request_id, None)
