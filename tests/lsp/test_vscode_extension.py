"""editors/vscode builds: npm ci, tsc type-check, eslint, Node's test runner (the pure modules, and
the client's launch, probe and settings against the real server over vscode-jsonrpc: VS Code
itself cannot be downloaded here, so @vscode/test-electron cannot run), and the .vsix from a fresh
clone with the documented command (esbuild bundle through vscode:prepublish)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

EXTENSION = Path(__file__).resolve().parents[2] / "editors" / "vscode"
pytestmark = [
    pytest.mark.toolchain,
    pytest.mark.skipif(shutil.which("npm") is None, reason="needs node and npm"),
]


def npm(*args: str, cwd: Path = EXTENSION, timeout: int = 300) -> str:
    env = os.environ | {"CASS_TEST_PYTHON": sys.executable}  # the Python that has cass
    done = subprocess.run(
        ["npm", *args], cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env
    )
    assert done.returncode == 0, f"npm {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def installed() -> Path:
    lock = EXTENSION / "package-lock.json"
    marker = EXTENSION / "node_modules" / ".package-lock.json"
    if not marker.exists() or marker.stat().st_mtime < lock.stat().st_mtime:
        npm("ci", "--no-audit", "--no-fund", timeout=600)
    return EXTENSION


def vsix_names(vsix: Path) -> set[str]:
    with zipfile.ZipFile(vsix) as archive:
        return set(archive.namelist())


def test_lints_type_checks_and_runs_the_client_against_the_real_server(installed: Path) -> None:
    npm("run", "lint")
    out = npm("test")  # tsc (strict type-check, emits out/) then node --test, server included
    assert "# fail 0" in out and "# pass" in out
    assert "the client against the real server" in out


@pytest.mark.slow
def test_the_vsix_builds_from_a_fresh_clone_with_the_documented_command(tmp_path: Path) -> None:
    """README: `cd editors/vscode && npm ci && npm run package`, in a clone of the committed
    tree (nothing built here is used)."""
    clone = tmp_path / "cass"
    subprocess.run(
        ["git", "clone", "-q", str(EXTENSION.parents[1]), str(clone)], check=True, timeout=300
    )
    folder = clone / "editors" / "vscode"
    npm("ci", "--no-audit", "--no-fund", "--prefer-offline", cwd=folder, timeout=900)
    npm("run", "package", cwd=folder, timeout=600)
    names = vsix_names(folder / "cass-vscode.vsix")
    assert {
        "extension/package.json",
        "extension/dist/extension.js",
        "extension/LICENSE.txt",
    } <= names
    assert not any(
        n.startswith(("extension/node_modules/", "extension/src/", "extension/out/")) for n in names
    )
    manifest = json.loads((folder / "package.json").read_text())
    assert manifest["main"] == "./dist/extension.js"
    assert manifest["repository"]["url"] == "https://github.com/cass-project/cass.git"
    assert manifest["scripts"]["vscode:prepublish"] == "npm run bundle"
