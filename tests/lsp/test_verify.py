"""End to end: "Port and verify": the verdict as a message and diagnostics, progress, and
cancellation (from the progress report and by `$/cancelRequest`) that stops the work.

The NVIDIA side is examples/verify/saxpy.cu's reference output, recorded on an H200 (the record
beside it); the HIP side really runs: the rules engine's port is compiled for gfx1100 and run by
the cass RDNA3 emulator.
"""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest
from lsp_testing import messages, open_file, run_command, start, wait_for
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcRequestCancelled
from pytest_lsp import LanguageClient

pytestmark = [pytest.mark.asyncio, pytest.mark.toolchain]
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "verify"


def with_recorded_example(project: Path) -> Path:
    """examples/verify/saxpy.cu and its H200 record, copied into the project."""
    folder = project / "verify"
    folder.mkdir()
    for name in ("saxpy.cu", "saxpy.cu.recorded.toml"):
        shutil.copy(EXAMPLE / name, folder / name)
    return folder / "saxpy.cu"


def progress_values(client: LanguageClient) -> list[object]:
    return [value for items in client.progress_reports.values() for value in items]


async def test_port_and_verify_reports_a_match(vscode: LanguageClient, project: Path) -> None:
    source = with_recorded_example(project)
    uri = open_file(vscode, source)
    result = await run_command(vscode, "cass.portAndVerify", uri)
    assert result["status"] == "ok", result
    assert result["message"].startswith("saxpy.cu: match (recorded vs emulator): the port matches")
    await wait_for(
        lambda: any(d.code == "verify-match" for d in vscode.diagnostics.get(uri, [])),
        what="the verdict diagnostic",
    )
    summary = next(d for d in vscode.diagnostics[uri] if d.code == "verify-match")
    assert summary.severity == lsp.DiagnosticSeverity.Information
    assert summary.range.start.line == 0
    assert any(m.startswith("saxpy.cu: match") for m in messages(vscode))
    reports = progress_values(vscode)
    assert isinstance(reports[0], lsp.WorkDoneProgressBegin)
    assert reports[0].title == "Port and verify saxpy.cu" and reports[0].cancellable
    assert isinstance(reports[-1], lsp.WorkDoneProgressEnd) and reports[-1].message == "done"
    vscode.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[
                lsp.TextDocumentContentChangeWholeDocument(text=source.read_text() + "\n")
            ],
        )
    )
    await wait_for(
        lambda: not any(d.code == "verify-match" for d in vscode.diagnostics[uri]),
        what="the verdict of the older text to go",
    )


async def test_without_a_reference_the_verdict_says_why(
    emacs: LanguageClient, project: Path
) -> None:
    uri = open_file(emacs, project / "src" / "saxpy.cu")
    result = await run_command(emacs, "cass.portAndVerify", uri)
    assert result["status"] == "ok", result
    assert result["message"].startswith("saxpy.cu: unverifiable")
    assert (
        "(saxpy.cu.recorded.toml not found); record it on a machine with an NVIDIA GPU"
        in result["message"]
    )
    await wait_for(
        lambda: any(d.code == "verify-unverifiable" for d in emacs.diagnostics.get(uri, [])),
        what="the verdict diagnostic",
    )


async def test_cancel_from_the_progress_report(vscode: LanguageClient, project: Path) -> None:
    source = with_recorded_example(project)
    uri = open_file(vscode, source)
    pending = asyncio.ensure_future(run_command(vscode, "cass.portAndVerify", uri))
    await wait_for(lambda: progress_values(vscode), what="the progress report")
    token = next(t for t, items in vscode.progress_reports.items() if items)
    vscode.window_work_done_progress_cancel(lsp.WorkDoneProgressCancelParams(token=token))
    result = await asyncio.wait_for(pending, 30)
    assert result == {"status": "cancelled", "message": "Port and verify saxpy.cu: cancelled"}
    assert vscode.progress_reports[token][-1].message == "cancelled"
    assert not any(
        d.code and str(d.code).startswith("verify-") for d in vscode.diagnostics.get(uri, [])
    )
    follow_up = await run_command(
        vscode,
        "cass.portSelectionToNewDocument",
        uri,
        {"start": {"line": 19, "character": 0}, "end": {"line": 21, "character": 0}},
    )
    assert follow_up["status"] == "ok", "the server serves on after a cancellation"


async def test_cancel_request_stops_the_command(emacs: LanguageClient, project: Path) -> None:
    source = with_recorded_example(project)
    uri = open_file(emacs, source)
    command = lsp.ExecuteCommandParams(command="cass.portAndVerify", arguments=[uri])
    pending = asyncio.ensure_future(
        emacs.protocol.send_request_async(
            lsp.WORKSPACE_EXECUTE_COMMAND, command, msg_id="verify-to-cancel"
        )
    )
    await wait_for(lambda: progress_values(emacs), what="the progress report")
    emacs.protocol.notify(lsp.CANCEL_REQUEST, lsp.CancelParams(id="verify-to-cancel"))
    with pytest.raises(JsonRpcRequestCancelled, match="cancel"):
        await asyncio.wait_for(pending, 30)
    await wait_for(
        lambda: isinstance(progress_values(emacs)[-1], lsp.WorkDoneProgressEnd), what="the end"
    )
    assert progress_values(emacs)[-1].message == "cancelled"


async def test_verify_on_port_setting(bare: LanguageClient, project: Path) -> None:
    await start(bare, "emacs", project, {"verifyOnPort": True})
    uri = open_file(bare, project / "src" / "saxpy.cu")
    result = await run_command(bare, "cass.portFile", uri)
    assert result["status"] == "ok" and (project / "src" / "saxpy.hip").is_file()
    assert result["verdict"]["message"].startswith("saxpy.cu: unverifiable"), result
    await bare.shutdown_session()
