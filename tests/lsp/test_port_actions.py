"""End to end: "Port file to HIP" and "Port selection to HIP" from code actions (VS Code:
resolve) and commands (Emacs: no resolve, no resource operations)."""

from __future__ import annotations

from pathlib import Path

import pytest
from cass.models.workflow import mirror
from lsp_testing import (
    actions_at,
    apply_text_edits,
    diagnostics_of,
    messages,
    open_file,
    run_command,
    wait_for,
)
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio

PORT_FILE_KINDS = {"source.cass.portFile", "source.cass.portAndVerify"}


def mirror_of(project: Path) -> Path:
    return project / "src" / "saxpy.hip"


async def test_cuda_file_offers_port_actions(client: LanguageClient, project: Path) -> None:
    uri = open_file(client, project / "src" / "saxpy.cu")
    found = await actions_at(client, uri)
    assert {a.kind for a in found} == PORT_FILE_KINDS
    for action in found:
        if client.client_name == "vscode" and action.kind == "source.cass.portFile":
            assert (
                action.edit is None and action.data["command"] == "cass.portFile"
            )  # resolved later
        else:
            assert action.command is not None and action.command.arguments[0] == uri
    selected = await actions_at(client, uri, lsp.Range(lsp.Position(19, 0), lsp.Position(21, 0)))
    assert {a.kind for a in selected} == PORT_FILE_KINDS | {
        "refactor.rewrite.cass.portSelection",
        "refactor.cass.portSelectionToNewDocument",
    }
    assert await kinds_for(client, uri, ["source"]) == PORT_FILE_KINDS
    assert await kinds_for(client, uri, ["refactor.rewrite"]) == set()  # needs a selection
    assert await kinds_for(client, uri, [lsp.CodeActionKind.QuickFix]) == set()  # no fix to offer


async def kinds_for(client: LanguageClient, uri: str, only: list) -> set[str]:
    found = await client.text_document_code_action_async(
        lsp.CodeActionParams(
            text_document=lsp.TextDocumentIdentifier(uri),
            range=lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0)),
            context=lsp.CodeActionContext(diagnostics=[], only=only),
        )
    )
    return {str(a.kind) for a in found or []}


async def test_port_file_creates_the_mirror_with_resolve(
    vscode: LanguageClient, project: Path
) -> None:
    uri = open_file(vscode, project / "src" / "saxpy.cu")
    action = next(a for a in await actions_at(vscode, uri) if a.kind == "source.cass.portFile")
    resolved = await vscode.code_action_resolve_async(action)
    changes = resolved.edit.document_changes
    create, fill = changes
    assert isinstance(create, lsp.CreateFile) and create.uri == mirror_of(project).as_uri()
    assert isinstance(fill, lsp.TextDocumentEdit) and fill.text_document.uri == create.uri
    text = apply_text_edits("", fill.edits)
    provenance, body = mirror.parse_mirror(text)
    assert provenance.source == "src/saxpy.cu" and provenance.engine == "rules"
    assert "hipMalloc(&x" in body and "cudaMalloc" not in body
    assert not mirror_of(project).exists(), "resolve only computes the edit"
    assert any("Ported saxpy.cu to src/saxpy.hip" in m for m in messages(vscode))


async def test_port_file_command_writes_the_mirror_without_resource_operations(
    emacs: LanguageClient, project: Path
) -> None:
    uri = open_file(emacs, project / "src" / "saxpy.cu")
    result = await run_command(emacs, "cass.portFile", uri)
    assert result["status"] == "ok", result
    assert result["written"] == str(mirror_of(project))
    provenance, body = mirror.parse_mirror(mirror_of(project).read_text())
    assert provenance.source_sha256 == mirror.sha256_text(
        (project / "src" / "saxpy.cu").read_text()
    )
    assert "hipMalloc(&x" in body


async def test_port_file_updates_an_existing_mirror_with_minimal_edits(
    client: LanguageClient, project: Path
) -> None:
    source = project / "src" / "saxpy.cu"
    uri = open_file(client, source)
    first = await run_command(client, "cass.portFile", uri)
    assert first["status"] == "ok"
    if client.client_name == "vscode":  # the client would have created the file: do it here
        fill = client.applied_edits[-1].document_changes[1]
        mirror_of(project).write_text(apply_text_edits("", fill.edits))
    new_text = source.read_text().replace('printf("done\\n");', 'printf("finished\\n");')
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=new_text)],
        )
    )
    second = await run_command(client, "cass.portFile", uri)
    assert second["status"] == "ok", second
    edit = client.applied_edits[-1]
    updates = edit.document_changes[0].edits
    assert 1 < len(updates) <= 4  # header hashes and the changed line, not the whole file
    updated = apply_text_edits(mirror_of(project).read_text(), updates)
    assert 'printf("finished\\n");' in updated
    assert mirror.parse_mirror(updated)[0].source_sha256 == mirror.sha256_text(new_text)


async def test_hand_edited_mirror_is_never_overwritten(
    emacs: LanguageClient, project: Path
) -> None:
    uri = open_file(emacs, project / "src" / "saxpy.cu")
    mirror_of(project).write_text("// my own HIP port, written by hand\n")
    result = await run_command(emacs, "cass.portFile", uri)
    assert result["status"] == "error"
    assert "cass never overwrites a mirror edited by hand" in result["message"]
    assert mirror_of(project).read_text() == "// my own HIP port, written by hand\n"
    assert not emacs.applied_edits
    await wait_for(
        lambda: any("Nothing was changed" in m for m in messages(emacs)), what="the message"
    )


async def test_port_selection_replaces_the_range(client: LanguageClient, project: Path) -> None:
    path = project / "src" / "saxpy.cu"
    uri = open_file(client, path)
    lines = path.read_text().splitlines(keepends=True)
    first = next(i for i, line in enumerate(lines) if "cudaMalloc(&x" in line)
    selection = lsp.Range(lsp.Position(first, 0), lsp.Position(first + 2, 0))
    action = next(
        a
        for a in await actions_at(client, uri, selection)
        if a.kind == "refactor.rewrite.cass.portSelection"
    )
    if client.client_name == "vscode":
        edit = (await client.code_action_resolve_async(action)).edit
    else:
        result = await run_command(client, action.command.command, *action.command.arguments)
        assert result["status"] == "ok", result
        edit = client.applied_edits[-1]
    change = edit.document_changes[0]
    assert change.text_document.version == 1
    ported = apply_text_edits(path.read_text(), change.edits).splitlines(keepends=True)
    assert ported[first : first + 2] == [
        line.replace("cudaMalloc", "hipMalloc") for line in lines[first : first + 2]
    ]
    assert ported[first + 2 :] == lines[first + 2 :]


async def test_port_selection_to_a_new_document(vscode: LanguageClient, project: Path) -> None:
    path = project / "src" / "saxpy.cu"
    uri = open_file(vscode, path)
    result = await run_command(
        vscode,
        "cass.portSelectionToNewDocument",
        uri,
        {"start": {"line": 19, "character": 0}, "end": {"line": 21, "character": 0}},
    )
    assert result["status"] == "ok" and result["languageId"] == "hip"
    assert "hipMalloc" in result["text"] and "cudaMalloc" not in result["text"]
    assert not vscode.applied_edits


async def test_unsaved_buffer_can_port_a_selection_but_not_a_mirror(
    emacs: LanguageClient, project: Path
) -> None:
    uri = "untitled:Untitled-1"
    text = "void f(float* p) { cudaMalloc(&p, 4); }\n"
    emacs.text_document_did_open(
        lsp.DidOpenTextDocumentParams(
            lsp.TextDocumentItem(uri=uri, language_id="cuda-cpp", version=1, text=text)
        )
    )
    refused = await run_command(emacs, "cass.portFile", uri)
    assert refused["status"] == "error" and "not saved yet" in refused["message"]
    whole = {"start": {"line": 0, "character": 0}, "end": {"line": 1, "character": 0}}
    ported = await run_command(emacs, "cass.portSelectionToNewDocument", uri, whole)
    assert ported["status"] == "ok" and "hipMalloc(&p, 4)" in ported["text"]


async def test_quick_fix_applies_the_fix_a_diagnostic_carries(
    vscode: LanguageClient, project: Path
) -> None:
    path = project / "src" / "saxpy.cu"
    uri = open_file(vscode, path)
    await diagnostics_of(vscode, uri)
    finding = next(d for d in vscode.diagnostics[uri] if d.code == "CASS061")
    # the payload cass puts in `data` for a finding with a fix (see bridge.fix_to_data); the
    # client sends diagnostics back in the code action context
    fix = {
        "message": "drop the minimum-blocks argument",
        "line": 5,
        "column": 38,
        "end_line": 5,
        "end_column": 41,
        "replacement": "",
    }
    carrying = lsp.Diagnostic(
        range=finding.range,
        message=finding.message,
        code=finding.code,
        source="cass",
        data={"fix": fix},
    )
    found = await actions_at(vscode, uri, finding.range, [carrying, finding])
    quick = [a for a in found if a.kind == lsp.CodeActionKind.QuickFix]
    assert [a.title for a in quick] == ["drop the minimum-blocks argument"]
    only_fixes = await vscode.text_document_code_action_async(
        lsp.CodeActionParams(
            text_document=lsp.TextDocumentIdentifier(uri),
            range=finding.range,
            context=lsp.CodeActionContext(
                diagnostics=[carrying], only=[lsp.CodeActionKind.QuickFix]
            ),
        )
    )
    assert [a.title for a in only_fixes] == ["drop the minimum-blocks argument"]
    fixed = apply_text_edits(path.read_text(), quick[0].edit.changes[uri])
    assert "__launch_bounds__(256)" in fixed
    result = await run_command(vscode, "cass.applyFix", uri, {"fix": fix})
    assert result["status"] == "ok"
    assert apply_text_edits(path.read_text(), vscode.applied_edits[-1].changes[uri]) == fixed
    refused = await run_command(vscode, "cass.applyFix", uri, {"nothing": 1})
    assert refused["status"] == "error" and "carries no fix" in refused["message"]


async def test_the_hooks_find_the_editors_mirror_current(
    emacs: LanguageClient, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cass.hooks import check

    uri = open_file(emacs, project / "src" / "saxpy.cu")
    assert (await run_command(emacs, "cass.portFile", uri))["status"] == "ok"
    monkeypatch.chdir(project)
    assert check.main(["src/saxpy.cu", "src/saxpy.hip"]) == 0
    mirror_of(project).write_text(mirror_of(project).read_text() + "// a hand edit\n")
    assert check.main(["src/saxpy.cu", "src/saxpy.hip"]) == 1


async def test_port_file_outside_the_mirror_rule_says_so(
    emacs: LanguageClient, project: Path
) -> None:
    (project / "pyproject.toml").write_text('[tool.cass.mirror]\nexclude = ["src/*"]\n')
    uri = open_file(emacs, project / "src" / "saxpy.cu")
    result = await run_command(emacs, "cass.portFile", uri)
    assert result["status"] == "ok" and mirror_of(project).is_file()
    assert "the project's mirror rule excludes saxpy.cu" in result["message"]
