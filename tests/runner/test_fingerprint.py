"""Content fingerprints: local headers found recursively, code digests that follow every edit."""

from __future__ import annotations

from pathlib import Path

from cass.runner.fingerprint import code_digest, code_files, includes_digest, local_includes


def test_local_includes_are_found_recursively_once_and_cycles_end(tmp_path: Path):
    (tmp_path / "a.cuh").write_text('#pragma once\n#include "b.cuh"\n')
    (tmp_path / "b.cuh").write_text('#include "a.cuh"\n  #  include "sub/c.h"\n')
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "c.h").write_text("// leaf\n")
    source = tmp_path / "main.cu"
    source.write_text(
        '#include "a.cuh"\n#include <vector>\n#include "absent.h"\n// #include "b.cuh" in a comment counts: harmless\n'
    )
    assert [p.relative_to(tmp_path).as_posix() for p in local_includes(source)] == [
        "a.cuh",
        "b.cuh",
        "sub/c.h",
    ]


def test_includes_digest_follows_content_and_ignores_line_endings(tmp_path: Path):
    source = tmp_path / "main.cu"
    source.write_text("int main(){}\n")
    assert includes_digest(source) is None
    source.write_text('#include "h.cuh"\nint main(){}\n')
    (tmp_path / "h.cuh").write_bytes(b"#define N 1\n")
    first = includes_digest(source)
    (tmp_path / "h.cuh").write_bytes(b"#define N 1\r\n")
    assert includes_digest(source) == first
    (tmp_path / "h.cuh").write_bytes(b"#define N 2\n")
    assert includes_digest(source) not in (None, first)


def test_code_digest_changes_with_any_code_file_and_skips_excluded_folders(tmp_path: Path):
    pkg = tmp_path / "runner"
    (pkg / "native").mkdir(parents=True)
    (pkg / "compare.py").write_text("RTOL = 1e-5\n")
    (pkg / "native" / "hip.cpp").write_text("int x;\n")
    (pkg / "tasks").mkdir()
    (pkg / "tasks" / "main.cu").write_text("// task sources are keyed on their own\n")
    (pkg / "notes.md").write_text("prose\n")
    before = code_digest([pkg], exclude=[pkg / "tasks"])
    assert [p.name for p in code_files([pkg], exclude=[pkg / "tasks"])] == ["compare.py", "hip.cpp"]
    (pkg / "tasks" / "main.cu").write_text("// changed\n")
    (pkg / "notes.md").write_text("changed prose\n")
    assert code_digest([pkg], exclude=[pkg / "tasks"]) == before
    (pkg / "native" / "hip.cpp").write_text("int y;\n")
    assert code_digest([pkg], exclude=[pkg / "tasks"]) != before
