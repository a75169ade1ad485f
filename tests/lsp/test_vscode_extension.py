"""editors/vscode builds: npm ci, tsc type-check, eslint, Node's test runner on the pure modules,
and a .vsix from @vscode/vsce (VS Code itself cannot be downloaded here; the protocol behaviour
is tested from Python in the other modules)."""

from __future__ import annotations

import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

EXTENSION = Path(__file__).resolve().parents[2] / "editors" / "vscode"
pytestmark = [
    pytest.mark.toolchain,
    pytest.mark.skipif(shutil.which("npm") is None, reason="needs node and npm"),
]


def npm(*args: str, timeout: int = 300) -> str:
    done = subprocess.run(
        ["npm", *args], cwd=EXTENSION, capture_output=True, text=True, timeout=timeout
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


def test_lints_type_checks_tests_and_packages(installed: Path) -> None:
    npm("run", "lint")
    out = npm("test")  # tsc (strict type-check, emits out/) then node --test
    assert "# fail 0" in out and "# pass" in out
    npm(
        "exec",
        "--",
        "vsce",
        "package",
        "--skip-license",
        "--allow-missing-repository",
        "-o",
        "cass-vscode.vsix",
    )  # what `npm run package` does after its own tsc
    vsix = installed / "cass-vscode.vsix"
    with zipfile.ZipFile(vsix) as archive:
        names = set(archive.namelist())
    assert "extension/package.json" in names
    assert "extension/out/src/extension.js" in names
    assert any(n.startswith("extension/node_modules/vscode-languageclient/") for n in names)
    assert not any(n.startswith(("extension/src/", "extension/out/test/")) for n in names)
