"""cass-port, cass-check and `cass ci` called through `main([...])` in real git repositories,
with the real rules engine (verification is switched off here; see test_verify_gate.py)."""

from __future__ import annotations

import json

import pytest
from cass.hooks import check, port
from cass.models.workflow import mirror as m
from cass.server.cli import main as cass_main

NO_VERIFY = "[tool.cass.mirror]\nverify = false\n"


@pytest.fixture
def project(repo, example):
    repo.write("pyproject.toml", NO_VERIFY)
    repo.write("src/saxpy.cu", example("saxpy.cu"))
    repo.git("add", ".")
    return repo


def header(repo, rel: str) -> m.Provenance:
    parsed = m.parse_mirror(repo.read(rel))
    assert parsed is not None, f"{rel} has no cass header"
    return parsed[0]


def test_first_commit_creates_the_mirror_and_asks_to_stage_it(project, capsys, example) -> None:
    assert port.main(["src/saxpy.cu"]) == 1
    out = capsys.readouterr().out
    assert "cass-port: wrote src/saxpy.hip (from src/saxpy.cu)" in out
    assert "git add src/saxpy.hip" in out
    provenance = header(project, "src/saxpy.hip")
    assert provenance.source == "src/saxpy.cu" and provenance.engine == "rules"
    assert provenance.source_sha256 == m.sha256_text(example("saxpy.cu"))
    assert "hip/hip_runtime.h" in project.read("src/saxpy.hip")
    assert project.git("diff", "--cached", "--name-only").split() == [
        "pyproject.toml",
        "src/saxpy.cu",
    ]
    assert port.main(["src/saxpy.cu"]) == 0  # now current: nothing to do


def test_editing_the_source_regenerates_the_mirror(project, example) -> None:
    port.main(["src/saxpy.cu"])
    project.commit("saxpy with mirror")
    project.write("src/saxpy.cu", example("saxpy.cu").replace("3.0f", "4.0f"))
    assert check.main(["src/saxpy.cu"]) == 1  # stale until regenerated
    assert port.main(["src/saxpy.cu"]) == 1
    assert "4.0f" in project.read("src/saxpy.hip")
    assert check.main(["src/saxpy.cu"]) == 0


def hand_edit(project) -> str:
    text = project.read("src/saxpy.hip").replace("int main() {", "int main() {  // tuned by hand")
    project.write("src/saxpy.hip", text)
    return text


def test_hand_edited_mirror_is_never_overwritten(project, capsys, example) -> None:
    port.main(["src/saxpy.cu"])
    project.commit("saxpy")
    edited = hand_edit(project)
    project.write("src/saxpy.cu", example("saxpy.cu").replace("3.0f", "4.0f"))
    capsys.readouterr()
    assert port.main(["src/saxpy.cu"]) == 1
    out = capsys.readouterr().out
    assert (
        "not overwritten: edited by hand" in out and "--merge" in out and "[mirror-conflict]" in out
    )
    assert project.read("src/saxpy.hip") == edited
    assert check.main(["src/saxpy.hip"]) == 1  # the mirror's name maps back to its source


def test_merge_keeps_the_hand_edit_and_takes_the_new_translation(project, example) -> None:
    port.main(["src/saxpy.cu"])
    project.commit("saxpy")
    hand_edit(project)
    project.commit("hand edit")
    project.write("src/saxpy.cu", example("saxpy.cu").replace("3.0f", "4.0f"))
    assert port.main(["--merge", "src/saxpy.cu"]) == 1
    merged = project.read("src/saxpy.hip")
    assert "// tuned by hand" in merged and "4.0f" in merged and "<<<<<<<" not in merged
    assert header(project, "src/saxpy.hip").hand_edited
    assert check.main(["src/saxpy.cu"]) == 0  # marked hand-edited and current: accepted
    assert list((project.root / ".git" / "cass" / "backups").rglob("saxpy.hip"))


def test_force_regenerates_and_backs_up_the_hand_edit(project, capsys) -> None:
    port.main(["src/saxpy.cu"])
    edited = hand_edit(project)
    capsys.readouterr()
    assert port.main(["--force", "src/saxpy.cu"]) == 1
    assert "// tuned by hand" not in project.read("src/saxpy.hip")
    backups = list((project.root / ".git" / "cass" / "backups").rglob("saxpy.hip"))
    assert [b.read_text(encoding="utf-8") for b in backups] == [edited]
    assert str(backups[0]) in capsys.readouterr().out


def test_marked_hand_edit_is_kept(project) -> None:
    port.main(["src/saxpy.cu"])
    project.write(
        "src/saxpy.hip", hand_edit(project).replace("hand-edited: no", "hand-edited: yes")
    )
    assert port.main(["src/saxpy.cu"]) == 0
    assert check.main(["src/saxpy.cu"]) == 0


def test_foreign_file_at_the_mirror_path_is_left_alone(project, capsys) -> None:
    project.write("src/saxpy.hip", "// my own HIP version\n")
    assert port.main(["src/saxpy.cu"]) == 1
    assert project.read("src/saxpy.hip") == "// my own HIP version\n"
    assert "without a cass-mirror header" in capsys.readouterr().out


def test_spaces_and_non_ascii_names_and_a_parallel_tree(repo, capsys, example) -> None:
    repo.write("pyproject.toml", NO_VERIFY + 'layout = "tree"\ntree = "hip"\n')
    name = "src/ядро и saxpy.cu"
    repo.write(name, example("saxpy.cu"))
    assert port.main([name]) == 1
    mirror = "hip/src/ядро и saxpy.hip"
    assert header(repo, mirror).source == name
    assert f"git add '{mirror}'" in capsys.readouterr().out
    assert check.main([mirror]) == 0


def test_a_source_that_does_not_parse_names_the_line_and_lists_it_in_the_mirror(
    project, capsys
) -> None:
    project.write("src/broken.cu", "__global__ void k() {\n  /* never closed\n")
    assert port.main(["src/broken.cu"]) == 1
    out = capsys.readouterr().out
    assert "src/broken.cu:2:" in out and ": error:" in out and "[port-untranslated]" in out
    provenance, body = m.parse_mirror(project.read("src/broken.hip"))  # type: ignore[misc]
    assert provenance.verdict == "untranslated"
    assert body.startswith("// cass could not port 1 construct(s) of src/broken.cu")
    assert "line 2:3:" in body and "[CASS001]" in body
    assert port.main(["src/broken.cu"]) == 1  # still blocked, with the ways out
    assert 'exclude = ["src/broken.cu"]' in capsys.readouterr().out


def test_source_that_is_not_utf8(project, capsys) -> None:
    (project.root / "src/latin1.cu").write_bytes(b"// caf\xe9\nint x;\n")
    assert port.main(["src/latin1.cu"]) == 1
    assert "not UTF-8" in capsys.readouterr().out


def test_mirror_outside_the_repository_is_refused(repo, capsys, example) -> None:
    repo.write("pyproject.toml", NO_VERIFY + 'layout = "tree"\ntree = "../outside"\n')
    repo.write("k.cu", example("saxpy.cu"))
    assert port.main(["k.cu"]) == 1
    assert "outside the repository" in capsys.readouterr().out
    assert not (repo.root.parent / "outside").exists()


def test_bad_config_is_a_usage_error(repo, capsys, example) -> None:
    repo.write("pyproject.toml", '[tool.cass.mirror]\nlayout = "sideways"\n')
    repo.write("k.cu", example("saxpy.cu"))
    assert port.main(["k.cu"]) == 2
    assert "layout must be one of" in capsys.readouterr().err


def test_unmerged_mirror_during_a_merge_is_left_to_the_person(project, capsys) -> None:
    port.main(["src/saxpy.cu"])
    project.commit("base")
    project.git("checkout", "-q", "-b", "other")
    project.write("src/saxpy.hip", project.read("src/saxpy.hip") + "// other\n")
    project.commit("other")
    project.git("checkout", "-q", "main")
    project.write("src/saxpy.hip", project.read("src/saxpy.hip") + "// main\n")
    project.commit("main")
    project.git("merge", "-q", "other", check=False)
    capsys.readouterr()
    assert port.main(["src/saxpy.cu"]) == 1
    out = capsys.readouterr().out
    assert "merge is in progress" in out and "unresolved merge conflicts" in out


def test_ci_gate_on_a_branch(project, capsys, example) -> None:
    port.main(["src/saxpy.cu"])
    project.commit("saxpy with mirror")
    project.git("checkout", "-q", "-b", "feature")
    project.write("src/saxpy.cu", example("saxpy.cu").replace("3.0f", "5.0f"))
    project.commit("edit the source, forget the mirror")
    capsys.readouterr()
    assert cass_main(["ci", "--base", "main", "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["scope"] == "changes since main" and report["passed"] is False
    assert report["pairs"][0]["findings"][0]["code"] == "mirror-stale"
    port.main(["src/saxpy.cu"])
    project.commit("regenerate the mirror")
    assert cass_main(["ci", "--base", "main"]) == 0
    assert cass_main(["ci", "--all", "--format", "sarif", "-o", "out/cass.sarif"]) == 0
    assert json.loads((project.root / "out/cass.sarif").read_text())["runs"][0]["results"] == []


def test_ci_needs_exactly_one_scope(project, capsys) -> None:
    assert cass_main(["ci"]) == 2
    assert "--base REF" in capsys.readouterr().err


def test_many_files_in_worker_processes_one_failure_does_not_stop_the_rest(
    project, example, capsys
) -> None:
    names = [f"src/k{i}.cu" for i in range(6)]
    for i, name in enumerate(names):
        project.write(name, example("saxpy.cu").replace("3.0f", f"{i}.0f"))
    project.write("src/broken.cu", "__global__ void k() {\n  /* never closed\n")
    assert port.main(["--jobs", "2", *names, "src/broken.cu"]) == 1
    out = capsys.readouterr().out
    assert "review and stage 7 mirror(s)" in out and "src/broken.cu:2:" in out
    for i, name in enumerate(names):
        assert f"{i}.0f" in project.read(name.replace(".cu", ".hip"))
    assert check.main(["--jobs", "2", *names]) == 0


def test_mirror_with_bytes_that_are_not_utf8_is_protected_and_kept(project, capsys) -> None:
    port.main(["src/saxpy.cu"])
    mirror = project.root / "src/saxpy.hip"
    edited = mirror.read_bytes() + b"// caf\xe9\n"
    mirror.write_bytes(edited)
    assert port.main(["src/saxpy.cu"]) == 1
    assert mirror.read_bytes() == edited
    assert port.main(["--force", "src/saxpy.cu"]) == 1
    backups = list((project.root / ".git" / "cass" / "backups").rglob("saxpy.hip"))
    assert [b.read_bytes() for b in backups] == [edited]


@pytest.mark.toolchain
def test_tree_mirrors_keep_header_names_so_includes_resolve(repo, tmp_path) -> None:
    from cass.runner.compile import compile_file

    repo.write("pyproject.toml", NO_VERIFY + 'layout = "tree"\n')
    repo.write(
        "src/util.cuh",
        "#pragma once\n#include <cuda_runtime.h>\n"
        "__device__ inline float twice(float x) { return 2.0f * x; }\n",
    )
    repo.write(
        "src/main.cu",
        '#include "util.cuh"\n'
        "__global__ void k(float* y) { y[threadIdx.x] = twice(y[threadIdx.x]); }\n"
        "int main() { float* d; cudaMalloc(&d, 16); k<<<1, 4>>>(d); cudaFree(d); }\n",
    )
    assert port.main(["src/main.cu", "src/util.cuh"]) == 1
    assert m.parse_mirror(repo.read("hip/src/util.cuh")) is not None
    result = compile_file(repo.root / "hip/src/main.hip", ["rdna3"], out_dir=tmp_path / "out")
    assert list((tmp_path / "out").iterdir()), result
