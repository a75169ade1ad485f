"""Real pre-commit against this repository: `pre-commit try-repo`, and `git commit` in a fresh
repository whose .pre-commit-config.yaml points here.

pre-commit installs cass from this repository's HEAD commit into its own virtualenv (20 s or
more each), so these two tests see committed code only. Verification is real (clang + the RDNA3
emulator against a recorded reference) and costs seconds per run, so each hook runs sparingly.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from cass.models.workflow import mirror as m
from cass.runner.recorded import write_record
from cass.runner.results import RunResult
from cass.runner.spec import load_run_spec

REPO = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow
PRE_COMMIT = str(Path(sys.executable).parent / "pre-commit")
SAXPY_STDOUT = "y[0]=2 y[999]=1500.5 sum=751250.0\n"  # what saxpy.cu prints on an NVIDIA GPU


def head_of_this_repository() -> str:
    return subprocess.run(
        ["git", "rev-parse", "HEAD"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
        timeout=30,
    ).stdout.strip()


def record_reference(source: Path) -> None:
    """The original's reference output (recorded on an NVIDIA GPU; a fixture here)."""
    result = RunResult(
        backend="nvidia", exit_code=0, stdout=SAXPY_STDOUT, info={"gpu": "reference fixture"}
    )
    write_record(source, load_run_spec(source), result)


def run(repo, *command: str) -> subprocess.CompletedProcess[str]:
    """Run a command; its stdout holds stderr too (git prints hook output there)."""
    return subprocess.run(
        list(command),
        cwd=repo.root,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=600,
        env=os.environ | {"PRE_COMMIT_COLOR": "never"},
    )


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "pre-commit-home"
    monkeypatch.setenv("PRE_COMMIT_HOME", str(home))
    return home


def test_try_repo_runs_every_hook_on_staged_files(repo, store, example) -> None:
    repo.write("pyproject.toml", "[tool.cass.mirror]\nverify = false  # cass-verify runs it\n")
    repo.write("src/my saxpy.cu", example("saxpy.cu"))
    record_reference(repo.root / "src/my saxpy.cu")
    repo.git("add", ".")
    done = run(
        repo, PRE_COMMIT, "try-repo", str(REPO), "--ref", head_of_this_repository(), "--verbose"
    )
    assert done.returncode == 1, done.stdout
    assert "cass-port: wrote src/my saxpy.hip (from src/my saxpy.cu)" in done.stdout
    assert "cass-verify: src/my saxpy.hip: match" in done.stdout
    assert re.search(r"cass verify .*Passed", done.stdout), done.stdout
    # try-repo runs the hooks sorted by id: cass-check ran before the mirror existed
    assert re.search(r"cass check .*Failed", done.stdout), done.stdout
    assert "[mirror-missing]" in done.stdout
    assert m.parse_mirror(repo.read("src/my saxpy.hip")) is not None
    assert "src/my saxpy.hip" not in repo.git("diff", "--cached", "--name-only")  # not staged


def test_commits_keep_the_mirror_current_and_hand_edits_safe(repo, store, example) -> None:
    repo.write(
        ".pre-commit-config.yaml",
        f"""repos:
  - repo: {REPO}
    rev: {head_of_this_repository()}
    hooks:
      - id: cass-port
      - id: cass-verify
""",
    )
    repo.write("saxpy.cu", example("saxpy.cu"))
    record_reference(repo.root / "saxpy.cu")
    repo.git("add", ".")
    assert run(repo, PRE_COMMIT, "install").returncode == 0

    first = run(repo, "git", "commit", "-m", "saxpy")
    assert first.returncode == 1 and "git add saxpy.hip" in first.stdout, first.stdout
    assert m.parse_mirror(repo.read("saxpy.hip"))[0].verdict == "match"  # type: ignore[index]
    repo.git("add", "saxpy.hip")
    second = run(repo, "git", "commit", "-m", "saxpy with its mirror")
    assert second.returncode == 0, second.stdout

    edited = example("saxpy.cu").replace("// saxpy:", "// saxpy (single precision):")
    repo.write("saxpy.cu", edited)
    record_reference(repo.root / "saxpy.cu")
    repo.git("add", ".")
    assert run(repo, "git", "commit", "-m", "comment").returncode == 1
    assert m.parse_mirror(repo.read("saxpy.hip"))[0].source_sha256 == m.sha256_text(edited)  # type: ignore[index]
    repo.git("add", "saxpy.hip")
    assert run(repo, "git", "commit", "-m", "comment + mirror").returncode == 0

    hand = repo.read("saxpy.hip").replace("int main() {", "int main() {  // mine")
    repo.write("saxpy.hip", hand)
    repo.write("saxpy.cu", edited + "// one more line\n")
    repo.git("add", ".")
    blocked = run(repo, "git", "commit", "-m", "edit both")
    assert blocked.returncode == 1 and "not overwritten" in blocked.stdout
    assert repo.read("saxpy.hip") == hand
