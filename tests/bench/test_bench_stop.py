"""SIGTERM (or Ctrl-C) stops `cass bench run` at once: queued tasks cancelled, the worker processes
ended, and the compilers and emulated programs they were running killed with their trees."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cass.runner.toolchain import has_tool

pytestmark = pytest.mark.skipif(
    not has_tool("clang++-16"), reason="needs clang++-16 (`cass setup`)"
)


def _processes(tmp: Path, session: int) -> list[int]:
    """Processes of the bench's session, or working in / naming its private temporary folder."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().decode(errors="replace")
            cwd = os.readlink(entry / "cwd")
        except OSError:  # exited meanwhile, or not ours to read
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if fields[0] != "Z" and (
            int(fields[3]) == session or str(tmp) in cmdline or cwd.startswith(str(tmp))
        ):
            found.append(int(entry.name))
    return found


def test_sigterm_stops_the_bench_its_workers_and_their_programs(tmp_path: Path) -> None:
    private_tmp = tmp_path / "tmp"
    private_tmp.mkdir()
    argv = [sys.executable, "-m", "cass.server.cli", "bench", "run", "--engine", "rules", "--backend", "emulator",
            "--domain", "physics_simulation", "--jobs", "2", "--out", str(tmp_path / "out")]  # fmt: skip
    bench = subprocess.Popen(argv, env={**os.environ, "TMPDIR": str(private_tmp)}, start_new_session=True,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
    try:
        deadline = time.monotonic() + 180
        started: list[int] = []
        while time.monotonic() < deadline and not (started := _processes(private_tmp, -1)):
            assert bench.poll() is None, bench.communicate()
            time.sleep(0.2)
        assert started, "the bench started no compiler or program within 3 minutes"
        bench.send_signal(signal.SIGTERM)
        _, err = bench.communicate(timeout=30)
    finally:
        if bench.poll() is None:
            os.killpg(bench.pid, signal.SIGKILL)
            bench.wait()
    assert bench.returncode == 128 + signal.SIGTERM, err
    assert b"terminated" in err and b"Traceback" not in err
    deadline = time.monotonic() + 10
    while (left := _processes(private_tmp, bench.pid)) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not left, [Path(f"/proc/{pid}/cmdline").read_bytes() for pid in left]
