"""In process, on a real CassServer object: work is recomputed when the document changes while
it runs, and refused when the document is closed meanwhile."""

from __future__ import annotations

import pytest
from cass.runner.diagnostics import CassError
from cass.server.lsp.documents import Snapshot
from cass.server.lsp.progress import on_current_text
from cass.server.lsp.server import CassServer
from lsprotocol import types as lsp
from pygls.workspace import Workspace

pytestmark = pytest.mark.asyncio
URI = "file:///project/k.cu"


def server_with(text: str) -> CassServer:
    server = CassServer()
    server.protocol._workspace = Workspace(None)
    server.workspace.put_text_document(
        lsp.TextDocumentItem(uri=URI, language_id="cuda-cpp", version=1, text=text)
    )
    return server


def type_into(server: CassServer, version: int, text: str) -> None:
    server.workspace.update_text_document(
        lsp.VersionedTextDocumentIdentifier(uri=URI, version=version),
        lsp.TextDocumentContentChangeWholeDocument(text=text),
    )


async def test_result_belongs_to_the_current_text() -> None:
    server = server_with("cudaMalloc(&p, 4);\n")
    seen: list[str] = []

    async def compute(snap: Snapshot) -> str:
        seen.append(snap.text)
        if len(seen) == 1:  # the user types while the first computation runs
            type_into(server, 2, "cudaFree(p);\n")
        return snap.text.replace("cuda", "hip")

    snap, result = await on_current_text(server, URI, compute, "porting it")
    assert seen == ["cudaMalloc(&p, 4);\n", "cudaFree(p);\n"]
    assert (snap.version, result) == (2, "hipFree(p);\n")


async def test_closed_meanwhile_is_refused() -> None:
    server = server_with("cudaMalloc(&p, 4);\n")

    async def compute(snap: Snapshot) -> str:
        server.workspace.remove_text_document(URI)
        return snap.text

    with pytest.raises(CassError, match="k.cu was closed while porting it; nothing was changed"):
        await on_current_text(server, URI, compute, "porting it")


async def test_a_document_that_never_settles_gives_up() -> None:
    server = server_with("a\n")
    versions = iter(range(2, 100))

    async def compute(snap: Snapshot) -> str:
        type_into(server, next(versions), snap.text + "a\n")
        return snap.text

    with pytest.raises(CassError, match="kept changing"):
        await on_current_text(server, URI, compute, "porting it")
