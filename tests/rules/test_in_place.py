"""`cass port PATH --dry-run` (a unified diff, nothing written) and `--in-place` (changed files
replaced by their ports, originals kept in a backup beside the project, never overwritten)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from cass.server.cli import main

FILES = {
    "CMakeLists.txt": "cmake_minimum_required(VERSION 3.21)\nproject(app LANGUAGES CXX CUDA)\n"
    "add_executable(app main.cu)\n",
    "main.cu": "#include <cstdio>\n__global__ void k(int *x) { *x = 1; }\n"
    "int main() { int *d; cudaMalloc(&d, 4); k<<<1, 1>>>(d); cudaFree(d); return 0; }\n",
    "plain.h": "int plain(void);\n",
    "notes.txt": "nothing to port here\n",
}


def make_project(root: Path) -> Path:
    for name, text in FILES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def snapshot(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".git" not in p.relative_to(root).parts
    }


def test_dry_run_prints_a_diff_that_git_applies_and_writes_nothing(tmp_path: Path, capsys) -> None:
    root = make_project(tmp_path / "proj")
    before = snapshot(root)
    assert main(["port", str(root), "--dry-run"]) == 0
    diff = capsys.readouterr().out
    assert snapshot(root) == before and sorted(tmp_path.iterdir()) == [root]
    assert "--- a/main.cu\n+++ b/main.cu\n" in diff and "+++ b/CMakeLists.txt" in diff
    assert "plain.h" not in diff and "notes.txt" not in diff
    assert main(["port", str(root), "-o", str(tmp_path / "ported")]) == 0
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    subprocess.run(["git", "-C", str(root), "apply", "-"], input=diff.encode(), check=True)
    assert snapshot(root) == snapshot(tmp_path / "ported")


def test_in_place_replaces_changed_files_and_keeps_the_originals_beside(
    tmp_path: Path, capsys
) -> None:
    root = make_project(tmp_path / "proj")
    before = snapshot(root)
    untouched = (root / "plain.h").stat().st_mtime_ns
    assert main(["port", str(root), "--in-place"]) == 0
    [backup] = [p for p in tmp_path.iterdir() if p.name.startswith("proj.cass-orig-")]
    assert snapshot(backup) == {name: before[name] for name in ("CMakeLists.txt", "main.cu")}
    assert (
        "hipMalloc" in (root / "main.cu").read_text()
        and "LANGUAGES CXX HIP" in (root / "CMakeLists.txt").read_text()
    )
    assert (root / "plain.h").stat().st_mtime_ns == untouched
    assert "2 file(s) changed" in capsys.readouterr().err
    ported = snapshot(root)
    assert main(["port", str(root), "--in-place"]) == 0  # a port ports to itself: nothing to do
    assert snapshot(root) == ported and len(list(tmp_path.iterdir())) == 2


def test_in_place_on_one_file_keeps_file_cass_orig_and_never_overwrites_it(
    tmp_path: Path, capsys
) -> None:
    source = tmp_path / "k.cu"
    source.write_text(FILES["main.cu"])
    assert main(["port", str(source), "--in-place"]) == 0
    assert (tmp_path / "k.cu.cass-orig").read_text() == FILES["main.cu"]
    source.write_text(FILES["main.cu"].replace("cudaFree(d);", "cudaFree(d); cudaDeviceReset();"))
    capsys.readouterr()
    assert main(["port", str(source), "--in-place"]) == 2
    assert (
        "k.cu.cass-orig: a backup of an earlier --in-place port is there" in capsys.readouterr().err
    )
    assert (
        "cudaDeviceReset" in source.read_text()
        and (tmp_path / "k.cu.cass-orig").read_text() == FILES["main.cu"]
    )


def test_in_place_and_dry_run_refuse_stdin_and_an_output(tmp_path: Path, capsys) -> None:
    source = tmp_path / "k.cu"
    source.write_text(FILES["main.cu"])
    assert main(["port", str(source), "--in-place", "-o", str(tmp_path / "x.hip")]) == 2
    assert main(["port", "-", "--dry-run"]) == 2
    err = capsys.readouterr().err
    assert "drop -o" in err and "not stdin" in err and "Traceback" not in err
    assert source.read_text() == FILES["main.cu"]
