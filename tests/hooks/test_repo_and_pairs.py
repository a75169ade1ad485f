"""Repository states (detached HEAD, shallow clone, merge in progress) and file -> pair mapping,
in real git repositories."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from cass.models.workflow import mirror as m
from cass.models.workflow.pairs import Pair, select_pairs
from cass.models.workflow.repo import changed_since, describe, open_repo, resolve_base
from cass.runner.diagnostics import CassError


def test_not_a_repository(tmp_path: Path) -> None:
    with pytest.raises(CassError, match="not inside a git repository"):
        open_repo(tmp_path)


def test_detached_head_is_noted(repo) -> None:
    repo.write("a.cu", "int a;\n")
    repo.commit("one")
    repo.git("checkout", "-q", "--detach", "HEAD")
    state = open_repo(repo.root)
    assert state.branch is None
    assert any("detached" in note for note in describe(state))


def test_merge_in_progress_lists_unmerged_files(repo) -> None:
    repo.write("k.hip", "base\n")
    repo.commit("base")
    repo.git("checkout", "-q", "-b", "other")
    repo.write("k.hip", "other\n")
    repo.commit("other")
    repo.git("checkout", "-q", "main")
    repo.write("k.hip", "main\n")
    repo.commit("main")
    repo.git("merge", "-q", "other", check=False)
    state = open_repo(repo.root)
    assert state.in_progress == "a merge" and state.unmerged == {"k.hip"}
    assert any("merge is in progress" in note for note in describe(state))


def test_shallow_clone_without_the_base_says_how_to_fetch(repo, tmp_path: Path) -> None:
    for i in range(3):
        repo.write("a.cu", f"int a = {i};\n")
        repo.commit(f"c{i}")
    clone = tmp_path / "clone"
    repo.git("clone", "-q", "--depth", "1", f"file://{repo.root}", str(clone))
    state = open_repo(clone)
    assert state.shallow
    with pytest.raises(CassError, match="shallow"):
        resolve_base(state, "HEAD~2")


def test_changed_since_uses_the_merge_base(repo) -> None:
    repo.write("a.cu", "int a;\n")
    repo.commit("base")
    repo.git("checkout", "-q", "-b", "feature")
    repo.write("src/b c.cu", "int b;\n")
    repo.commit("feature")
    repo.git("checkout", "-q", "main")
    repo.write("main only.cu", "int m;\n")
    repo.commit("main moves on")
    repo.git("checkout", "-q", "feature")
    assert changed_since(open_repo(repo.root), "main") == ["src/b c.cu"]


def test_unknown_base_names_the_fix(repo) -> None:
    repo.write("a.cu", "int a;\n")
    repo.commit("one")
    with pytest.raises(CassError, match="git fetch origin main"):
        changed_since(open_repo(repo.root), "origin/main")


def test_sources_and_mirrors_map_to_pairs(repo) -> None:
    config = m.MirrorConfig()
    repo.write("src/k ü.cu", "int k;\n")
    provenance = m.Provenance("src/k ü.cu", "x", "rules", "1", "gfx1100", "match", "")
    repo.write("src/k ü.hip", m.render_mirror("int k;\n", provenance))
    repo.write("own.hip", "// a HIP file of the project's own\n")
    repo.write(
        "gone.hip",
        m.render_mirror("x\n", m.Provenance("gone.cu", "x", "rules", "1", "gfx1100", "match", "")),
    )
    selection = select_pairs(
        repo.root, ["src/k ü.cu", "src/k ü.hip", "own.hip", "gone.hip", "README.md"], config
    )
    assert selection.pairs == (Pair("src/k ü.cu", "src/k ü.hip"),)
    assert [(d.path, d.code) for d in selection.diagnostics] == [("gone.hip", "mirror-orphan")]


def test_symlinked_source_is_skipped_with_a_note(repo) -> None:
    repo.write("real.cu", "int r;\n")
    os.symlink("real.cu", repo.root / "link.cu")
    selection = select_pairs(repo.root, ["link.cu", "real.cu"], m.MirrorConfig())
    assert selection.pairs == (Pair("real.cu", "real.hip"),)
    assert selection.diagnostics[0].code == "source-symlink"
    assert "symlink to real.cu" in selection.diagnostics[0].message


def test_path_outside_the_repository_is_an_error(repo, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.cu"
    outside.write_text("int x;\n")
    selection = select_pairs(repo.root, [str(outside)], m.MirrorConfig())
    assert selection.pairs == () and "outside the repository" in selection.diagnostics[0].message


def test_deleted_source_leaves_an_orphan_mirror(repo) -> None:
    provenance = m.Provenance("k.cu", "x", "rules", "1", "gfx1100", "match", "")
    repo.write("k.hip", m.render_mirror("int k;\n", provenance))
    selection = select_pairs(repo.root, ["k.cu"], m.MirrorConfig())
    assert selection.pairs == ()
    assert [(d.path, d.code) for d in selection.diagnostics] == [("k.hip", "mirror-orphan")]
