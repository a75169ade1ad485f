"""Helpers of the editor tests (imported by the test modules; conftest puts this folder on
sys.path, as pytest's importlib mode does not)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from lsprotocol import types as lsp
from pytest_lsp import LanguageClient


def open_file(client: LanguageClient, path: Path, language_id: str = "cuda-cpp", text: str | None = None) -> str:
    uri = path.as_uri()
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(
        uri=uri, language_id=language_id, version=1,
        text=path.read_text(encoding="utf-8") if text is None else text)))
    return uri


async def wait_for(condition, timeout: float = 30.0, what: str = "condition") -> None:
    """Poll `condition()` until true (the server answers asynchronously)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


async def diagnostics_of(client: LanguageClient, uri: str) -> list[lsp.Diagnostic]:
    await wait_for(lambda: uri in client.diagnostics, what=f"diagnostics of {uri}")
    return list(client.diagnostics[uri])


async def actions_at(client: LanguageClient, uri: str, selection: lsp.Range | None = None,
                     diagnostics: list[lsp.Diagnostic] | None = None) -> list[lsp.CodeAction]:
    at = selection or lsp.Range(start=lsp.Position(0, 0), end=lsp.Position(0, 0))
    found = await client.text_document_code_action_async(lsp.CodeActionParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), range=at,
        context=lsp.CodeActionContext(diagnostics=diagnostics or [])))
    return list(found or [])


async def run_command(client: LanguageClient, command: str, *args: Any) -> Any:
    return await client.workspace_execute_command_async(
        lsp.ExecuteCommandParams(command=command, arguments=list(args)))


def messages(client: LanguageClient) -> list[str]:
    return [m.message for m in client.messages]


def apply_text_edits(text: str, edits: list[lsp.TextEdit]) -> str:
    """Apply LSP TextEdits (UTF-16 positions) the way an editor does: from the end backwards."""
    from cass.server.lsp.bridge import LineIndex

    index = LineIndex(text)
    spans = sorted(((index.offset(e.range.start), index.offset(e.range.end), e.new_text) for e in edits),
                   reverse=True)
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text
