"""End to end: bad input never crashes the server (huge files, files that are not CUDA, a
document closed mid-operation, an engine that fails), settings at start and when changed."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from lsp_testing import (
    actions_at,
    diagnostics_of,
    messages,
    open_file,
    run_command,
    start,
    wait_for,
)
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio


async def still_serving(client: LanguageClient, project: Path) -> None:
    uri = open_file(client, project / "src" / "saxpy.cu")
    assert await actions_at(client, uri)


async def test_huge_file_gets_a_message_not_a_crash(vscode: LanguageClient, project: Path) -> None:
    huge = project / "src" / "huge.cu"
    huge.write_text("__global__ void k(float* p) { p[0] = 1.0f; }\n" * 60_000)  # ~2.7 MB
    uri = open_file(vscode, huge)
    result = await run_command(vscode, "cass.portFile", uri)
    assert result["status"] == "error" and "over the limit of 2048 KiB" in result["message"]
    await wait_for(
        lambda: any("no diagnostics for now" in m and "huge.cu" in m for m in messages(vscode)),
        what="the diagnostics message",
    )
    await still_serving(vscode, project)


async def test_commands_on_a_file_that_is_not_cuda(emacs: LanguageClient, project: Path) -> None:
    notes = project / "notes.md"
    notes.write_text("# notes\n")
    uri = open_file(emacs, notes, language_id="markdown")
    assert await actions_at(emacs, uri) == []
    for command in ("cass.portFile", "cass.portAndVerify", "cass.translateSass"):
        result = await run_command(emacs, command, uri)
        assert result["status"] == "error" and "notes.md is not" in result["message"], command
    bad = await run_command(emacs, "cass.portFile")
    assert bad["status"] == "error" and "document URI" in bad["message"]
    await still_serving(emacs, project)


async def test_document_closed_while_porting(vscode: LanguageClient, project: Path) -> None:
    source = project / "src" / "saxpy.cu"
    uri = open_file(vscode, source, text=source.read_text() * 40)
    pending = asyncio.ensure_future(
        run_command(
            vscode,
            "cass.portSelection",
            uri,
            {"start": {"line": 0, "character": 0}, "end": {"line": 1000, "character": 0}},
        )
    )
    vscode.text_document_did_close(lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(uri)))
    result = await pending
    if result["status"] == "error":  # the close overtook the port
        assert "closed" in result["message"] and "nothing was changed" in result["message"]
        assert not vscode.applied_edits
    else:  # the port finished first: its edit is versioned, so a closed editor rejects it
        assert vscode.applied_edits[-1].document_changes[0].text_document.version == 1
    await still_serving(vscode, project)


async def test_engine_that_fails_to_load(
    bare: LanguageClient, project: Path, tmp_path: Path
) -> None:
    broken = tmp_path / "broken.gguf"
    broken.write_bytes(b"not a gguf model")
    await start(bare, "emacs", project, {"engine": "model", "model": {"path": str(broken)}})
    uri = open_file(bare, project / "src" / "saxpy.cu")
    selection = {"start": {"line": 19, "character": 0}, "end": {"line": 21, "character": 0}}
    result = await run_command(bare, "cass.portSelectionToNewDocument", uri, selection)
    assert result["status"] == "error", result
    assert "broken.gguf" in result["message"] and "GGUF" in result["message"]
    assert await diagnostics_of(bare, uri)  # the rules engine's findings go on regardless
    await still_serving(bare, project)
    await bare.shutdown_session()


async def test_invalid_settings_are_reported_once(emacs: LanguageClient, project: Path) -> None:
    # Emacs answers workspace/configuration from its own store: change it, then notify
    emacs._configuration[""] = {"cass": {"engine": "fortran", "diagnostics": {"debounceMs": -1}}}
    emacs.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(settings=None))
    await wait_for(
        lambda: sum("invalid setting" in m for m in messages(emacs)) == 2, what="two warnings"
    )
    assert any("cass.engine = 'fortran'" in m and "using 'rules'" in m for m in messages(emacs))
    emacs.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(settings=None))
    await still_serving(emacs, project)
    assert sum("invalid setting" in m for m in messages(emacs)) == 2


async def test_invalid_initialization_options_are_reported(
    bare: LanguageClient, project: Path
) -> None:
    await start(bare, "vscode", project, {"engine": "fortran", "limits": {"timeoutS": 0}})
    await wait_for(
        lambda: sum("invalid setting" in m for m in messages(bare)) == 2, what="two warnings"
    )
    assert any("cass.limits.timeoutS = 0" in m and "using 600" in m for m in messages(bare))
    await still_serving(bare, project)
    await bare.shutdown_session()


async def test_turning_diagnostics_off_and_on(vscode: LanguageClient, project: Path) -> None:
    uri = open_file(vscode, project / "src" / "saxpy.cu")
    assert await diagnostics_of(vscode, uri)
    vscode._configuration[""] = {"cass": {"diagnostics": {"enable": False}}}
    vscode.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(settings=None))
    await wait_for(lambda: list(vscode.diagnostics[uri]) == [], what="diagnostics to clear")
    vscode._configuration[""] = {"cass": {"diagnostics": {"enable": True}}}
    vscode.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(settings=None))
    await wait_for(lambda: bool(vscode.diagnostics[uri]), what="diagnostics to return")


async def test_model_engine_without_a_model_runs_the_bundled_one(
    bare: LanguageClient, project: Path
) -> None:
    await start(bare, "vscode", project, {"engine": "model"})
    uri = open_file(bare, project / "src" / "saxpy.cu")
    selection = {"start": {"line": 19, "character": 0}, "end": {"line": 21, "character": 0}}
    result = await run_command(bare, "cass.portSelectionToNewDocument", uri, selection)
    # no cass.model.path: the bundled model answers (a poor port, reported as findings)
    assert result["status"] == "ok" and "Ported the selection with model" in result["message"]
    await still_serving(bare, project)
    await bare.shutdown_session()
