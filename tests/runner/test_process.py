"""Running programs under limits: real processes (sh, python) in temp dirs."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest
from cass.runner.diagnostics import CassError
from cass.runner.process import collect_outputs, prepare_run_dir, run_limited


def test_exit_code_streams_and_stdin(tmp_path: Path):
    out = run_limited(["sh", "-c", "cat; echo err >&2; exit 3"], cwd=tmp_path, stdin="in\n")
    assert (out.exit_code, out.stdout, out.stderr, out.timed_out) == (3, b"in\n", b"err\n", False)


def test_timeout_kills_the_whole_tree(tmp_path: Path):
    marker = tmp_path / "pid"
    script = f"sleep 30 & echo $! > {marker}; wait"
    out = run_limited(["sh", "-c", script], cwd=tmp_path, timeout_s=2)
    assert out.timed_out and out.exit_code is None
    grandchild = int(marker.read_text())
    time.sleep(0.2)
    assert _state(grandchild) in ("gone", "Z")  # killed (a zombie until init reaps it)


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return "gone"


def test_output_limit_stops_a_flood(tmp_path: Path):
    out = run_limited(["sh", "-c", "yes"], cwd=tmp_path, timeout_s=20, max_output_bytes=100_000)
    assert out.output_truncated and len(out.stdout) == 100_000 and out.exit_code is None


def test_crash_reports_the_signal(tmp_path: Path):
    out = run_limited([sys.executable, "-c", "import os; os.kill(os.getpid(), 11)"], cwd=tmp_path)
    assert (out.signal, out.exit_code) == (11, 139)


def test_peak_memory_is_measured(tmp_path: Path):
    out = run_limited(
        [sys.executable, "-c", "b = bytearray(300 * 2**20); b[::4096] = b'x' * len(b[::4096])"],
        cwd=tmp_path,
    )
    assert out.peak_rss_kib is not None and out.peak_rss_kib > 300 * 1024


def test_run_dirs_are_private_and_copy_inputs(tmp_path: Path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "in.txt").write_text("x")
    a = prepare_run_dir(("data/in.txt",), tmp_path, prefix="t")
    b = prepare_run_dir(("data/in.txt",), tmp_path, prefix="t")
    assert a != b and (a / "data" / "in.txt").read_text() == "x"
    run_limited(["sh", "-c", "echo 1 > o.txt"], cwd=a)
    assert collect_outputs(a, ["o.txt", "missing"], 10) == {"o.txt": b"1\n"}
    with pytest.raises(CassError, match=r"input file nope.txt not found"):
        prepare_run_dir(("nope.txt",), tmp_path, prefix="t")


def test_peak_memory_is_the_programs_own_not_the_parents(tmp_path: Path):
    ballast = bytearray(400 * 2**20)  # make this (parent) process large
    ballast[::4096] = b"x" * len(ballast[::4096])
    out = run_limited(["/bin/true"], cwd=tmp_path)
    assert out.peak_rss_kib is not None and out.peak_rss_kib < 64 * 1024
    del ballast
