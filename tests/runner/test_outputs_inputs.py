"""The output policy (runner/outputs.py) and bounded input reading (runner/inputs.py) on real
files: links, FIFOs, devices, directories, the input itself, the umask, caps counted as read."""

from __future__ import annotations

import io
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from cass.runner.inputs import InputError, check_program, read_input, read_stream
from cass.runner.outputs import OutputError, check_output, install_file, write_atomic, write_output


@pytest.fixture
def umask_027():
    old = os.umask(0o027)
    yield
    os.umask(old)


def test_new_files_follow_the_umask_and_replaced_files_keep_their_mode(
    tmp_path: Path, umask_027
) -> None:
    new = tmp_path / "deep" / "k.hip"
    write_output(new, "one\n")
    assert stat.S_IMODE(new.stat().st_mode) == 0o640 and new.read_text() == "one\n"
    new.chmod(0o604)
    write_output(new, "two\n", force=True)
    assert stat.S_IMODE(new.stat().st_mode) == 0o604 and new.read_text() == "two\n"
    exe = tmp_path / "a.out"
    write_atomic(exe, b"\x7fELF", executable=True)
    assert stat.S_IMODE(exe.stat().st_mode) == 0o750
    assert sorted(p.name for p in tmp_path.rglob("*")) == [
        "a.out",
        "deep",
        "k.hip",
    ]  # no temp files


def test_an_existing_file_needs_force(tmp_path: Path) -> None:
    out = tmp_path / "out.hip"
    out.write_text("mine\n")
    with pytest.raises(OutputError, match=r"out\.hip: exists; pass --force"):
        write_output(out, "new\n")
    assert out.read_text() == "mine\n"


def test_the_input_is_never_an_output_even_with_force_or_another_name(tmp_path: Path) -> None:
    source = tmp_path / "x.cu"
    source.write_text("__global__ void k() {}\n")
    hard = tmp_path / "hard.cu"
    os.link(source, hard)
    for target in (source, hard, tmp_path / "." / "x.cu"):
        with pytest.raises(OutputError, match="is the input; choose another output path"):
            check_output(target, inputs=[source], force=True)
    assert source.read_text() == "__global__ void k() {}\n"


def test_links_and_special_files_are_refused_even_with_force(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("keep\n")
    link = tmp_path / "link.hip"
    link.symlink_to(victim)
    fifo = tmp_path / "pipe.hip"
    os.mkfifo(fifo)
    cases = {
        link: "symbolic link",
        fifo: "FIFO",
        tmp_path: "directory",
        Path("/dev/null"): "character device",
    }
    for target, kind in cases.items():
        with pytest.raises(OutputError, match=kind):
            write_output(target, "x", force=True)
        with pytest.raises(OutputError, match=kind):
            write_atomic(target, "x")  # the write itself refuses, whatever the caller decided
    assert (
        victim.read_text() == "keep\n" and link.is_symlink() and stat.S_ISFIFO(fifo.lstat().st_mode)
    )


def test_os_failures_are_one_line_errors(tmp_path: Path) -> None:
    source = tmp_path / "x.cu"
    source.write_text("x")
    with pytest.raises(OutputError, match="a parent of it is a file"):
        write_output(source / "y.hip", "x")
    with pytest.raises(OutputError, match="choose another output path"):
        write_output(Path("/proc/version/y.hip"), "x")


def test_install_file_keeps_the_executable_bit(tmp_path: Path) -> None:
    produced = tmp_path / "built"
    produced.write_bytes(b"\x7fELF....")
    produced.chmod(0o755)
    target = tmp_path / "out" / "prog"
    install_file(produced, target)
    assert target.read_bytes() == b"\x7fELF...." and os.access(target, os.X_OK)


def test_reads_refuse_special_files_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "k.cu"
    os.mkfifo(fifo)  # no writer: a blocking open would hang forever
    with pytest.raises(InputError, match=r"is a FIFO \(named pipe\), not a regular file"):
        read_input(fifo)
    with pytest.raises(InputError, match="is a character device"):
        read_input(Path("/dev/zero"))
    with pytest.raises(InputError, match="is a directory; give -o DIR"):
        read_input(tmp_path, directory_hint="; give -o DIR")
    with pytest.raises(InputError, match="no such file"):
        read_input(tmp_path / "missing.cu")
    with pytest.raises(InputError, match=r"cannot read it \(Input/output error\)"):
        read_input(Path("/proc/self/mem"))


def test_the_cap_counts_bytes_read_not_st_size(tmp_path: Path) -> None:
    status = Path("/proc/self/status")  # st_size 0, content > 0
    assert status.stat().st_size == 0 and b"Umask" in read_input(status)
    big = tmp_path / "big.cu"
    big.write_bytes(b"x" * 101)
    assert len(read_input(big, limit=101)) == 101
    with pytest.raises(InputError, match="larger than 100 bytes"):
        read_input(big, limit=100)
    with pytest.raises(InputError, match="<stdin>: larger than 10 bytes"):
        read_stream(io.BytesIO(b"y" * 11), limit=10)


def test_endless_stdin_stops_at_the_cap() -> None:
    code = (
        "import sys; from cass.runner.inputs import read_stream\n"
        "try:\n    read_stream(sys.stdin.buffer, limit=1 << 20)\n"
        "except Exception as e:\n    print(e)\n"
    )
    with open("/dev/zero", "rb") as zero:
        proc = subprocess.run(
            [sys.executable, "-c", code], stdin=zero, capture_output=True, text=True, timeout=60
        )
    assert proc.stdout.strip() == "<stdin>: larger than 1 MiB; split it and try again"


def test_check_program_names_what_is_wrong(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("hello\n")
    with pytest.raises(InputError, match="is not an ELF executable"):
        check_program(text)
    with pytest.raises(InputError, match="is a directory, not a program"):
        check_program(tmp_path)
    elf = tmp_path / "prog"
    elf.write_bytes(b"\x7fELF" + bytes(60))
    with pytest.raises(InputError, match="is not executable"):
        check_program(elf)
    elf.chmod(0o755)
    check_program(elf)
