"""Real git repositories in temporary folders for the hook tests."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples" / "hooks"


class GitRepo:
    """A scratch repository; `run` calls git, `write` creates files (folders included)."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def git(self, *args: str, check: bool = True) -> str:
        done = subprocess.run(
            ["git", *args], cwd=self.root, capture_output=True, text=True, timeout=120
        )
        if check and done.returncode != 0:
            raise AssertionError(f"git {' '.join(args)} failed: {done.stderr}")
        return done.stdout

    def write(self, rel: str, text: str) -> Path:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    def read(self, rel: str) -> str:
        return (self.root / rel).read_text(encoding="utf-8")

    def commit(self, message: str, *paths: str) -> None:
        self.git("add", "--", *(paths or (".",)))
        self.git("commit", "-q", "-m", message)


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GitRepo:
    root = tmp_path / "project"
    root.mkdir()
    monkeypatch.chdir(root)
    for key in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
        monkeypatch.delenv(key, raising=False)
    r = GitRepo(root)
    r.git("init", "-q", "-b", "main")
    r.git("config", "user.email", "dev@example.com")
    r.git("config", "user.name", "Dev")
    r.git("config", "commit.gpgsign", "false")
    return r


@pytest.fixture
def example():
    """`example(name)`: the text of a bundled example program (examples/hooks/...)."""
    return lambda name: (EXAMPLES / name).read_text(encoding="utf-8")


os.environ.setdefault("GIT_TERMINAL_PROMPT", "0")
