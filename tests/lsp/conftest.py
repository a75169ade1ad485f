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

import pytest
import pytest_lsp

sys.path.insert(0, str(Path(__file__).parent))

from lsp_testing import CLIENTS, start  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient

DATA = Path(__file__).parent / "data"
SERVER = [sys.executable, "-m", "cass.server"]


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


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def bare(lsp_client: LanguageClient):
    """A client connected to the server but not initialized: the test calls `start`."""
    yield


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
