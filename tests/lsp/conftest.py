"""Fixtures of the editor tests: a project folder (a real git repository) holding CUDA and SASS
files, and pytest-lsp clients driving the real server process (`python -m cass.server`) with
the capabilities VS Code and Emacs announce.

data/vadd.sass is `cuobjdump -sass` of data/vadd.cu (nvcc -arch=sm_90 -cubin -O3).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Union

import pytest
import pytest_lsp

sys.path.insert(0, str(Path(__file__).parent))
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

DATA = Path(__file__).parent / "data"
SERVER = [sys.executable, "-m", "cass.server"]
CLIENTS = {"vscode": "visual-studio-code", "emacs": "emacs"}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A git repository with src/saxpy.cu and asm/vadd.sass."""
    root = tmp_path / "proj"
    (root / "src").mkdir(parents=True)
    (root / "asm").mkdir()
    shutil.copy(DATA / "saxpy.cu", root / "src" / "saxpy.cu")
    shutil.copy(DATA / "vadd.sass", root / "asm" / "vadd.sass")
    subprocess.run(["git", "init", "-q", str(root)], check=True, timeout=30)
    return root


def _fix_code_action_union(client: LanguageClient) -> None:
    """lsprotocol's client-side hook reads any CodeAction with a `command` as a Command; tell
    them apart by the type of `command` (a string only in a Command), as the spec does."""
    converter = client.protocol._converter

    def structure(obj: Any, _: type) -> lsp.Command | lsp.CodeAction:
        kind = lsp.Command if isinstance(obj.get("command"), str) else lsp.CodeAction
        return converter.structure(obj, kind)

    converter.register_structure_hook(Union[lsp.Command, lsp.CodeAction], structure)


def _record_applied_edits(client: LanguageClient) -> None:
    client.applied_edits = []  # type: ignore[attr-defined]

    @client.feature(lsp.WORKSPACE_APPLY_EDIT)
    def apply_edit(params: lsp.ApplyWorkspaceEditParams) -> lsp.ApplyWorkspaceEditResult:
        client.applied_edits.append(params.edit)  # type: ignore[attr-defined]
        return lsp.ApplyWorkspaceEditResult(applied=True)


async def start(client: LanguageClient, name: str, root: Path, options: dict | None = None) -> None:
    _fix_code_action_union(client)
    _record_applied_edits(client)
    await client.initialize_session(lsp.InitializeParams(
        capabilities=client_capabilities(CLIENTS[name]),
        workspace_folders=[lsp.WorkspaceFolder(uri=root.as_uri(), name=root.name)],
        root_uri=root.as_uri(),
        initialization_options=options or {"diagnostics": {"debounceMs": 50}},
    ))


@pytest_lsp.fixture(params=list(CLIENTS), config=ClientServerConfig(server_command=SERVER))
async def client(request: pytest.FixtureRequest, lsp_client: LanguageClient):
    """Both clients, one test each."""
    lsp_client.client_name = request.param  # type: ignore[attr-defined]
    await start(lsp_client, request.param, request.getfixturevalue("project"))
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def vscode(request: pytest.FixtureRequest, lsp_client: LanguageClient):
    """The VS Code client alone."""
    lsp_client.client_name = "vscode"  # type: ignore[attr-defined]
    await start(lsp_client, "vscode", request.getfixturevalue("project"))
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def emacs(request: pytest.FixtureRequest, lsp_client: LanguageClient):
    """The Emacs client alone (no code action resolve, no resource operations)."""
    lsp_client.client_name = "emacs"  # type: ignore[attr-defined]
    await start(lsp_client, "emacs", request.getfixturevalue("project"))
    yield
    await lsp_client.shutdown_session()
