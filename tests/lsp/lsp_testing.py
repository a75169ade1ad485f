"""Helpers of the editor tests (imported by the test modules; conftest puts this folder on
sys.path, as pytest's importlib mode does not)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, Union

from lsprotocol import types as lsp
from pytest_lsp import LanguageClient, client_capabilities

CLIENTS = {"vscode": "visual-studio-code", "emacs": "emacs"}


def _fix_code_action_union(client: LanguageClient) -> None:
    """lsprotocol's client-side hook reads any CodeAction with a `command` as a Command; tell
    them apart by the type of `command` (a string only in a Command), as the spec does."""
    converter = client.protocol._converter

    def structure(obj: Any, _: type) -> lsp.Command | lsp.CodeAction:
        kind = lsp.Command if isinstance(obj.get("command"), str) else lsp.CodeAction
        return converter.structure(obj, kind)

    converter.register_structure_hook(Union[lsp.Command, lsp.CodeAction], structure)  # noqa: UP007


def _record_applied_edits(client: LanguageClient) -> None:
    client.applied_edits = []  # type: ignore[attr-defined]

    @client.feature(lsp.WORKSPACE_APPLY_EDIT)
    def apply_edit(params: lsp.ApplyWorkspaceEditParams) -> lsp.ApplyWorkspaceEditResult:
        client.applied_edits.append(params.edit)  # type: ignore[attr-defined]
        return lsp.ApplyWorkspaceEditResult(applied=True)


async def start(client: LanguageClient, name: str, root: Path, options: dict | None = None) -> None:
    _fix_code_action_union(client)
    _record_applied_edits(client)
    await client.initialize_session(
        lsp.InitializeParams(
            capabilities=client_capabilities(CLIENTS[name]),
            workspace_folders=[lsp.WorkspaceFolder(uri=root.as_uri(), name=root.name)],
            root_uri=root.as_uri(),
            initialization_options=options or {"diagnostics": {"debounceMs": 50}},
        )
    )


def open_file(
    client: LanguageClient, path: Path, language_id: str = "cuda-cpp", text: str | None = None
) -> str:
    uri = path.as_uri()
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(
            lsp.TextDocumentItem(
                uri=uri,
                language_id=language_id,
                version=1,
                text=path.read_text(encoding="utf-8") if text is None else text,
            )
        )
    )
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
    """The first non-empty diagnostics published for `uri`."""
    await wait_for(lambda: bool(client.diagnostics.get(uri)), what=f"diagnostics of {uri}")
    return list(client.diagnostics[uri])


async def actions_at(
    client: LanguageClient,
    uri: str,
    selection: lsp.Range | None = None,
    diagnostics: list[lsp.Diagnostic] | None = None,
) -> list[lsp.CodeAction]:
    at = selection or lsp.Range(start=lsp.Position(0, 0), end=lsp.Position(0, 0))
    found = await client.text_document_code_action_async(
        lsp.CodeActionParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri),
            range=at,
            context=lsp.CodeActionContext(diagnostics=diagnostics or []),
        )
    )
    return list(found or [])


async def run_command(client: LanguageClient, command: str, *args: Any) -> Any:
    return await client.workspace_execute_command_async(
        lsp.ExecuteCommandParams(command=command, arguments=list(args))
    )


def messages(client: LanguageClient) -> list[str]:
    return [m.message for m in client.messages]


def apply_text_edits(text: str, edits: list[lsp.TextEdit]) -> str:
    """Apply LSP TextEdits (UTF-16 positions) the way an editor does: from the end backwards."""
    from cass.server.lsp.bridge import LineIndex

    index = LineIndex(text)
    spans = sorted(
        ((index.offset(e.range.start), index.offset(e.range.end), e.new_text) for e in edits),
        reverse=True,
    )
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text
