"""End to end: portability diagnostics as the user types, and hover, in VS Code and Emacs."""

from __future__ import annotations

from pathlib import Path

import pytest
from cass.models.rules import DIAGNOSTIC_CODES
from lsp_testing import diagnostics_of, open_file, wait_for
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio


async def test_open_cuda_file_shows_portability_findings(
    client: LanguageClient, project: Path
) -> None:
    uri = open_file(client, project / "src" / "saxpy.cu")
    found = await diagnostics_of(client, uri)
    assert found, "the rules engine reports findings on saxpy.cu"
    assert all(d.source == "cass" and d.code in DIAGNOSTIC_CODES for d in found)
    codes = {d.code for d in found}
    assert "CASS061" in codes  # __launch_bounds__(256, 2): the minimum-blocks hint is dropped
    launch_bounds = next(d for d in found if d.code == "CASS061")
    assert launch_bounds.range.start.line == 4
    published = "https://github.com/cass-project/cass/blob/main/docs/rules-diagnostics.md"
    if client.client_name == "vscode":  # Emacs takes no codeDescription
        assert launch_bounds.code_description.href == published + "#cass061"
    else:
        assert launch_bounds.code_description is None


async def test_diagnostics_follow_typing(vscode: LanguageClient, project: Path) -> None:
    path = project / "src" / "saxpy.cu"
    uri = open_file(vscode, path)
    await wait_for(
        lambda: any(d.code == "CASS061" for d in vscode.diagnostics.get(uri, [])),
        what="the __launch_bounds__ finding",
    )
    line = path.read_text().splitlines()[4]
    vscode.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[
                lsp.TextDocumentContentChangePartial(
                    range=lsp.Range(lsp.Position(4, 0), lsp.Position(4, len(line))),
                    text="__global__ void saxpy(int n, float a, const float* x, float* y) {",
                )
            ],
        )
    )
    await wait_for(
        lambda: not any(d.code == "CASS061" for d in vscode.diagnostics.get(uri, [])),
        what="the finding to go once the code is fixed",
    )


async def test_closing_clears_diagnostics(emacs: LanguageClient, project: Path) -> None:
    uri = open_file(emacs, project / "src" / "saxpy.cu")
    assert await diagnostics_of(emacs, uri)
    emacs.text_document_did_close(lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(uri)))
    await wait_for(
        lambda: list(emacs.diagnostics.get(uri, [None])) == [], what="cleared diagnostics"
    )


async def test_files_that_are_not_cuda_get_no_findings(
    vscode: LanguageClient, project: Path
) -> None:
    notes = project / "notes.txt"
    notes.write_text("cudaMalloc is mentioned here, but this is not code\n")
    uri = open_file(vscode, notes, language_id="plaintext")
    cuda = open_file(vscode, project / "src" / "saxpy.cu")
    await diagnostics_of(vscode, cuda)
    assert uri not in vscode.diagnostics


async def test_hover_names_the_hip_equivalent(vscode: LanguageClient, project: Path) -> None:
    path = project / "src" / "saxpy.cu"
    uri = open_file(vscode, path)
    line = next(i for i, text in enumerate(path.read_text().splitlines()) if "cudaMalloc(" in text)
    column = path.read_text().splitlines()[line].index("cudaMalloc") + 3
    hover = await vscode.text_document_hover_async(
        lsp.HoverParams(
            text_document=lsp.TextDocumentIdentifier(uri), position=lsp.Position(line, column)
        )
    )
    assert hover is not None
    assert "`hipMalloc`" in hover.contents.value
    assert "since HIP" in hover.contents.value and "status:" in hover.contents.value
    assert hover.range.start.character == column - 3
    nothing = await vscode.text_document_hover_async(
        lsp.HoverParams(
            text_document=lsp.TextDocumentIdentifier(uri), position=lsp.Position(line, 0)
        )
    )
    assert nothing is None


async def test_hover_on_a_warp_intrinsic_gives_version_and_note(
    emacs: LanguageClient, project: Path
) -> None:
    path = project / "src" / "saxpy.cu"
    uri = open_file(emacs, path)
    lines = path.read_text().splitlines()
    line = next(i for i, text in enumerate(lines) if "__shfl_down_sync" in text)
    column = lines[line].index("__shfl_down_sync")
    hover = await emacs.text_document_hover_async(
        lsp.HoverParams(
            text_document=lsp.TextDocumentIdentifier(uri), position=lsp.Position(line, column)
        )
    )
    assert "since HIP 6.2" in hover.contents.value and "status: rewritten" in hover.contents.value
    assert "HIP 5.2: mask-free equivalent" in hover.contents.value


async def test_positions_follow_the_negotiated_encoding(
    client: LanguageClient, project: Path
) -> None:
    # VS Code speaks UTF-16; the Emacs snapshot offers UTF-32 first, which the server takes
    path = project / "src" / "wide.cu"
    path.write_text("// 😋 é\nvoid f(float* p) { /* 😋 */ cudaMalloc(&p, 4); }\n")
    uri = open_file(client, path)
    line = path.read_text().splitlines()[1]
    chars = line.index("cudaMalloc")
    units = chars + (1 if client.client_name == "vscode" else 0)  # the emoji: 2 UTF-16 units
    hover = await client.text_document_hover_async(
        lsp.HoverParams(
            text_document=lsp.TextDocumentIdentifier(uri), position=lsp.Position(1, units + 2)
        )
    )
    assert hover is not None and "`hipMalloc`" in hover.contents.value
    assert hover.range.start == lsp.Position(1, units)
