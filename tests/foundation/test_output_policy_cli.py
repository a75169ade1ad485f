"""Every command that writes, run as a user runs it, against the files a careless or hostile
invocation names: the input itself, an existing file, a symbolic link, a FIFO. Each refusal is
one line naming the path and what to do, exit 2, and leaves every file as it was."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
VADD_SASS = Path(__file__).resolve().parents[1] / "lsp" / "data" / "vadd.sass"
CASS = Path(sys.executable).with_name("cass")
SOURCE = "__global__ void k(float *p) { p[threadIdx.x] = 1.0f; }\n"


def cass(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "COLUMNS": "300"}
    return subprocess.run([str(CASS), *args], capture_output=True, text=True, timeout=300, cwd=cwd,
                          env=env, stdin=subprocess.DEVNULL)  # fmt: skip


def refused(proc: subprocess.CompletedProcess, *fragments: str) -> None:
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    for fragment in fragments:
        assert fragment in lines[0], proc.stderr


@pytest.fixture
def work(tmp_path: Path) -> Path:
    (tmp_path / "x.cu").write_text(SOURCE)
    (tmp_path / "victim.txt").write_text("keep\n")
    (tmp_path / "link.out").symlink_to(tmp_path / "victim.txt")
    os.mkfifo(tmp_path / "pipe.out")
    (tmp_path / "taken.out").write_text("mine\n")
    return tmp_path


def unchanged(work: Path) -> None:
    assert (work / "x.cu").read_text() == SOURCE
    assert (work / "victim.txt").read_text() == "keep\n" and (work / "link.out").is_symlink()
    assert (work / "taken.out").read_text() == "mine\n"
    assert not [p.name for p in work.iterdir() if "cass-tmp" in p.name]


# (option, value, force, message) shared by the commands whose output is one named file
CASES = [
    ("x.cu", True, "x.cu: is the input; choose another output path"),
    ("taken.out", False, "taken.out: exists; pass --force to overwrite it"),
    ("link.out", True, "link.out: is a symbolic link"),
    ("pipe.out", True, "pipe.out: is a FIFO (named pipe), not a regular file"),
]


@pytest.mark.parametrize(("target", "force", "message"), CASES)
def test_port_output(work: Path, target: str, force: bool, message: str) -> None:
    refused(cass("port", "x.cu", "-o", target, *(["--force"] if force else []), cwd=work), message)
    unchanged(work)


@pytest.mark.parametrize(("target", "force", "message"), CASES)
def test_port_report(work: Path, target: str, force: bool, message: str) -> None:
    args = ["port", "x.cu", "-o", "new.hip", "--report", target, "--format", "sarif"]
    refused(cass(*args, *(["--force"] if force else []), cwd=work), message)
    assert not (work / "new.hip").exists()  # refused before anything is written
    unchanged(work)


def test_port_writes_with_the_umask_and_replaces_only_with_force(work: Path) -> None:
    assert (
        cass(
            "port", "x.cu", "-o", "x.hip", "--report", "r.json", "--format", "json", cwd=work
        ).returncode
        == 0
    )
    assert oct((work / "x.hip").stat().st_mode & 0o777) == oct(0o666 & ~_umask())
    refused(cass("port", "x.cu", "-o", "x.hip", cwd=work), "x.hip: exists; pass --force")
    refused(cass("port", "x.cu", "-o", "x2.hip", "--report", "r.json", cwd=work), "r.json: exists")
    assert (
        cass("port", "x.cu", "-o", "x.hip", "--report", "r.json", "--force", cwd=work).returncode
        == 0
    )


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_project_mode_never_writes_through_a_link(work: Path) -> None:
    project, out = work / "proj", work / "out"
    project.mkdir()
    (project / "k.cu").write_text(SOURCE)
    out.mkdir()
    (out / "k.cu").symlink_to(work / "victim.txt")  # project ports keep their file names
    refused(cass("port", "proj", "-o", "out", "--force", cwd=work), "k.cu: is a symbolic link")
    unchanged(work)
    refused(
        cass("port", "proj", "-o", "victim.txt", "--force", cwd=work), "is a file, not a folder"
    )


@pytest.mark.parametrize(("target", "force", "message"), CASES)
def test_run_hip_output(work: Path, target: str, force: bool, message: str) -> None:
    shutil.copy(EXAMPLES / "vector_add.hip", work / "v.hip")
    if target == "x.cu":
        target = "v.hip"
        message = "v.hip: is the input"
    refused(
        cass("run-hip", "v.hip", "-o", target, *(["--force"] if force else []), cwd=work), message
    )
    assert (work / "v.hip").read_bytes() == (EXAMPLES / "vector_add.hip").read_bytes()
    unchanged(work)


@pytest.mark.toolchain
def test_compile_artifacts_are_replaced_only_with_force(work: Path) -> None:
    first = cass("compile", "x.cu", "--emit", "ptx", "--arch", "sm_80", "-o", "build", cwd=work)
    assert first.returncode == 0, first.stderr
    artifact = work / "build" / "x.sm_80.ptx"
    artifact.write_text("edited\n")
    refused(cass("compile", "x.cu", "--emit", "ptx", "--arch", "sm_80", "-o", "build", cwd=work),
            "x.sm_80.ptx: exists; pass --force")  # fmt: skip
    assert artifact.read_text() == "edited\n"
    artifact.unlink()
    artifact.symlink_to(work / "victim.txt")
    refused(cass("compile", "x.cu", "--emit", "ptx", "--arch", "sm_80", "-o", "build", "--force", cwd=work),
            "is a symbolic link")  # fmt: skip
    unchanged(work)


@pytest.mark.parametrize(("target", "force", "message"), CASES)
def test_translate_sass_output(work: Path, target: str, force: bool, message: str) -> None:
    shutil.copy(VADD_SASS, work / "v.sass")
    if target == "x.cu":
        target, message = "v.sass", "v.sass: is the input"
    refused(
        cass("translate-sass", "v.sass", "-o", target, *(["--force"] if force else []), cwd=work),
        message,
    )
    assert (work / "v.sass").read_text() == VADD_SASS.read_text()
    unchanged(work)


def test_verify_port_out_never_writes_through_a_link(work: Path) -> None:
    proc = cass("verify", "x.cu", "--port-out", "link.out", cwd=work)
    refused(proc, "link.out: is a symbolic link")
    unchanged(work)


def test_ci_report_needs_force_over_an_existing_file(work: Path) -> None:
    subprocess.run(["git", "init", "-q", str(work)], check=True)
    refused(cass("ci", "--all", "-o", "taken.out", cwd=work), "taken.out: exists; pass --force")
    refused(cass("ci", "--all", "-o", "link.out", "--force", cwd=work), "is a symbolic link")
    unchanged(work)
