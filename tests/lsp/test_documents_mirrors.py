"""Which documents are CUDA or SASS, and where "Port file to HIP" puts the mirror (the hooks'
rule, with the editor's settings filling in only what the project leaves open)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from cass.models.engine import Translation
from cass.models.workflow import mirror
from cass.runner.diagnostics import CassError
from cass.server.lsp.documents import Snapshot, document_kind, require_size, sass_arch_of
from cass.server.lsp.mirrors import mirror_location, plan_mirror
from cass.server.lsp.settings import Settings

DATA = Path(__file__).parent / "data"
SASS = (
    "\tcode for sm_90\n\t\tFunction : _Z4vaddPKfS0_Pfi\n        /*0000*/   LDC R1, c[0x0][0x28] ;\n"
)


@pytest.mark.parametrize(
    ("suffix", "language", "text", "kind"),
    [
        (".cu", "cuda-cpp", "", "cuda"),
        (".cuh", None, "", "cuda"),
        (".txt", "cuda", "", "cuda"),
        (".sass", None, "", "sass"),
        (".txt", "plaintext", SASS, "sass"),
        ("", None, SASS, "sass"),
        (".txt", "plaintext", "hello", None),
        (".cpp", "cpp", SASS, None),
        (".hip", "cpp", "", None),
    ],
)
def test_document_kind(suffix: str, language: str | None, text: str, kind: str | None) -> None:
    assert document_kind(suffix, language, text) == kind


def test_sass_arch_from_cuobjdump_output() -> None:
    assert sass_arch_of(SASS) == "sm_90"
    assert sass_arch_of((DATA / "vadd.sass").read_text()) == "sm_90"
    assert sass_arch_of("IMAD R1, R2, R3 ;") is None


def test_size_limit_names_the_setting() -> None:
    with pytest.raises(
        CassError,
        match=r"big.cu is 3 KiB, over the limit of 2 KiB \(setting cass.limits.maxFileKB\)",
    ):
        require_size(Snapshot("file:///p/big.cu", 1, "x" * 3 * 1024), 2 * 1024)


def test_unsaved_buffer_has_no_path() -> None:
    assert Snapshot("untitled:Untitled-1", 1, "").path is None
    assert Snapshot("file:///a%20b/k.cu", 1, "").path == Path("/a b/k.cu")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "k.cu").write_text("cudaMalloc(&p, 4);\n")
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True, timeout=30)
    return tmp_path


def test_mirror_beside_by_default_and_tree_from_the_project(repo: Path) -> None:
    source = repo / "src" / "k.cu"
    assert mirror_location(source, [], Settings())[1] == repo / "src" / "k.hip"
    assert (
        mirror_location(source, [], Settings(mirror_layout="tree"))[1]
        == repo / "hip" / "src" / "k.hip"
    )
    (repo / "pyproject.toml").write_text('[tool.cass.mirror]\nlayout = "tree"\ntree = "ports"\n')
    root, path, config = mirror_location(source, [], Settings(engine="model"))
    assert (root, path) == (repo, repo / "ports" / "src" / "k.hip")
    assert config.engine == "rules", "the project's rule wins over the editor's engine setting"


def test_plan_refuses_hand_edited_mirrors(repo: Path) -> None:
    source = repo / "src" / "k.cu"
    root, target, config = mirror_location(source, [], Settings())
    port = Translation("hipMalloc(&p, 4);\n", (), "rules", 0.0)
    fresh = plan_mirror(source, source.read_text(), root, config, target, None, port, "1")
    assert fresh.state is mirror.MirrorState.MISSING
    assert mirror.parse_mirror(fresh.new_text)[1] == "hipMalloc(&p, 4);\n"
    again = plan_mirror(source, source.read_text(), root, config, target, fresh.new_text, port, "1")
    assert again.state is mirror.MirrorState.CURRENT
    edited = fresh.new_text.replace("hipMalloc(&p, 4)", "hipMalloc(&p, 8)")
    with pytest.raises(CassError, match="Nothing was changed: cass never overwrites"):
        plan_mirror(source, source.read_text(), root, config, target, edited, port, "1")
    with pytest.raises(CassError, match="without a cass-mirror header"):
        plan_mirror(source, source.read_text(), root, config, target, "// mine\n", port, "1")
