"""The README's editor section names every command and every setting (STYLE: one source of
truth for settings, and the docs checked against it)."""

from __future__ import annotations

import json
from pathlib import Path

from cass.server.lsp.dispatch import ACTIONS
from cass.server.lsp.settings import KEYS

ROOT = Path(__file__).resolve().parents[2]


def editor_section() -> str:
    text = (ROOT / "README.md").read_text()
    start = text.index("## The editor")
    return text[start : text.index("\n## ", start + 1)]


def test_every_command_is_in_the_readme() -> None:
    section = editor_section()
    for spec in ACTIONS:
        assert f"`{spec.command}`" in section and spec.title in section, spec.command
    assert "`cass.applyFix`" in section and "`cass.resolveMirror [uri, mode]`" in section


def test_every_setting_is_in_the_readme() -> None:
    section = editor_section()
    for key in KEYS:
        assert f"`{key}`" in section, key
    package = json.loads((ROOT / "editors" / "vscode" / "package.json").read_text())
    assert "cass.server.pythonPath" in section
    assert {c["command"] for c in package["contributes"]["commands"]} >= {
        "cass.editor.portFile",
        "cass.editor.translateSass",
    }
