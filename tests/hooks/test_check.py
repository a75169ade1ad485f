"""cass-check (read-only gate) and cass-verify's edge cases, on mirrors written by the test."""

from __future__ import annotations

from cass.hooks import check, verify
from cass.models.workflow import mirror as m

CUDA = "__global__ void k(float* x) { x[0] = 1.0f; }\n"
BODY = "#include <hip/hip_runtime.h>\n__global__ void k(float* x) { x[0] = 1.0f; }\n"


def mirror_of(cuda: str, body: str, **kw: object) -> str:
    fields = dict(
        source="k.cu",
        source_sha256=m.sha256_text(cuda),
        engine="rules",
        engine_version="1",
        target="gfx1100",
        verdict="match",
        body_sha256="",
    )
    fields.update(kw)
    return m.render_mirror(body, m.Provenance(**fields))  # type: ignore[arg-type]


def test_current_mirror_passes_and_nothing_is_written(repo, capsys) -> None:
    repo.write("k.cu", CUDA)
    repo.write("k.hip", mirror_of(CUDA, BODY))
    before = sorted(p.name for p in repo.root.iterdir())
    assert check.main(["k.cu", "k.hip"]) == 0
    assert "1 mirror(s) current" in capsys.readouterr().out
    assert sorted(p.name for p in repo.root.iterdir()) == before


def test_missing_mirror_says_how_to_create_it(repo, capsys) -> None:
    repo.write("my k.cu", CUDA)
    assert check.main(["my k.cu"]) == 1
    out = capsys.readouterr().out
    assert "my k.hip:1:1: error: no mirror yet; create it: `cass-port 'my k.cu'`" in out


def test_conflict_markers_are_found_with_their_line(repo, capsys) -> None:
    repo.write("k.cu", CUDA)
    body = BODY + "<<<<<<< mirror with your edits\nint a;\n=======\nint b;\n>>>>>>> new\n"
    repo.write("k.hip", mirror_of(CUDA, BODY, hand_edited=True).replace(BODY, body))
    assert check.main(["k.cu"]) == 1
    assert (
        f"k.hip:{m.HEADER_LINES + 3}:1: error: unresolved merge conflict markers"
        in capsys.readouterr().out
    )


def test_recorded_failing_verdict_fails_the_check(repo, capsys) -> None:
    repo.write("k.cu", CUDA)
    repo.write("k.hip", mirror_of(CUDA, BODY, verdict="mismatch"))
    assert check.main(["k.cu"]) == 1
    assert "[port-mismatch]" in capsys.readouterr().out


def test_stale_and_hand_edited_mirrors(repo, capsys) -> None:
    repo.write("k.cu", CUDA.replace("1.0f", "2.0f"))
    repo.write("k.hip", mirror_of(CUDA, BODY))
    assert check.main(["k.cu"]) == 1
    assert "[mirror-stale]" in capsys.readouterr().out
    repo.write("k.cu", CUDA)
    repo.write("k.hip", mirror_of(CUDA, BODY) + "// tweak\n")
    assert check.main(["k.cu"]) == 1
    assert "keep the edit: `cass-port --adopt k.cu`" in capsys.readouterr().out


def test_orphan_mirror(repo, capsys) -> None:
    repo.write("k.hip", mirror_of(CUDA, BODY))
    assert check.main(["k.hip"]) == 1
    assert "its source k.cu no longer exists" in capsys.readouterr().out


def test_verify_without_a_mirror(repo, capsys) -> None:
    repo.write("k.cu", CUDA)
    assert verify.main(["k.cu"]) == 1
    assert "create it: `cass-port k.cu`" in capsys.readouterr().out


def test_not_a_repository_is_a_usage_error(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    assert check.main(["k.cu"]) == 2
    assert "not inside a git repository" in capsys.readouterr().err
