"""cass.models.workflow.mirror_history: the last generated text from real git history, three-way merge."""

from __future__ import annotations

import subprocess
from pathlib import Path

from cass.models.workflow import mirror as m
from cass.models.workflow.mirror_history import last_generated_body, merge_texts, save_backup

GENERATED = "".join(f"line {i}\n" for i in range(1, 11))


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=root, check=True, capture_output=True, text=True, timeout=30
    ).stdout


def init_repo(root: Path) -> None:
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "user.email", "dev@example.com")
    git(root, "config", "user.name", "Dev")


def provenance(source_text: str, body: str) -> m.Provenance:
    return m.Provenance(
        source="k ü.cu",
        source_sha256=m.sha256_text(source_text),
        engine="rules",
        engine_version="1",
        target="gfx1100",
        verdict="match",
        body_sha256=m.sha256_text(body),
    )


def test_merge_carries_a_hand_edit_onto_a_new_translation() -> None:
    ours = GENERATED.replace("line 2\n", "line 2 tuned by hand\n")
    theirs = GENERATED.replace("line 9\n", "line 9 from the new source\n")
    result = merge_texts(GENERATED, ours, theirs)
    assert result.conflicts == 0
    assert "line 2 tuned by hand\n" in result.text and "line 9 from the new source\n" in result.text


def test_merge_reports_conflicts_with_labelled_markers() -> None:
    result = merge_texts(
        GENERATED, GENERATED.replace("line 5", "mine"), GENERATED.replace("line 5", "theirs")
    )
    assert result.conflicts == 1
    assert "<<<<<<< mirror with your edits" in result.text
    assert ">>>>>>> new translation" in result.text


def test_base_is_the_last_untouched_generated_version(tmp_path: Path) -> None:
    init_repo(tmp_path)
    p = provenance("src v1", GENERATED)
    (tmp_path / "k ü.hip").write_text(m.render_mirror(GENERATED, p), encoding="utf-8")
    git(tmp_path, "add", "k ü.hip")
    git(tmp_path, "commit", "-qm", "generated")
    edited = m.render_mirror(GENERATED, p) + "// hand edit\n"
    (tmp_path / "k ü.hip").write_text(edited, encoding="utf-8")
    git(tmp_path, "commit", "-qam", "hand edit")
    assert last_generated_body(tmp_path, "k ü.hip", p) == GENERATED


def test_base_regenerated_from_the_source_in_history(tmp_path: Path) -> None:
    init_repo(tmp_path)
    (tmp_path / "k ü.cu").write_text("src v1", encoding="utf-8")
    git(tmp_path, "add", "k ü.cu")
    git(tmp_path, "commit", "-qm", "source")
    (tmp_path / "k ü.cu").write_text("src v2", encoding="utf-8")
    git(tmp_path, "commit", "-qam", "source v2")
    p = provenance("src v1", GENERATED)
    seen: list[str] = []

    def regenerate(text: str) -> str:
        seen.append(text)
        return GENERATED

    assert last_generated_body(tmp_path, "k ü.hip", p, regenerate) == GENERATED
    assert seen == ["src v1"]
    assert last_generated_body(tmp_path, "k ü.hip", p, lambda text: "other\n") is None


def test_no_repository_no_base(tmp_path: Path) -> None:
    assert last_generated_body(tmp_path, "k.hip", provenance("x", GENERATED)) is None


def test_backup_keeps_every_copy(tmp_path: Path) -> None:
    init_repo(tmp_path)
    first = save_backup(tmp_path, "src/k.hip", "one")
    second = save_backup(tmp_path, "src/k.hip", "two")
    assert first != second and ".git/cass/backups" in first.as_posix()
    assert (first.read_text(), second.read_text()) == ("one", "two")
