"""Runs are contained: real programs that escape (double fork + setsid), keep stdout open from
the background, flood, exhaust memory, CPU or file size, or open a TCP connection; real
signals. Each test reads /proc to check that nothing of the run survives it."""

from __future__ import annotations

import socket
import sys
import threading
import time
from pathlib import Path

import pytest
from cass.runner.limits import RunLimits, parse_size, sandbox_prefix
from cass.runner.process import _RUNS, RunCancelled, run_limited, stop_all_runs
from cass.server.cli.errors import exit_status

ESCAPE = """#!/bin/sh
# a daemon: fork, setsid in the child, fork again, the middle one exits; it sleeps on
( setsid sh -c 'sleep 300 & echo $! > "$1"; wait' sh "$1" & )
while [ ! -s "$1" ]; do sleep 0.01; done
{tail}
"""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def _escaper(tmp_path: Path, tail: str) -> tuple[list[str], Path]:
    script, marker = tmp_path / "escape.sh", tmp_path / "daemon.pid"
    script.write_text(ESCAPE.replace("{tail}", tail))
    script.chmod(0o755)
    return [str(script), str(marker)], marker


def _daemon(marker: Path) -> int:
    return int(marker.read_text().strip())


def test_a_setsid_daemon_dies_with_the_program(tmp_path: Path):
    cmd, marker = _escaper(tmp_path, "echo main done")
    out = run_limited(cmd, cwd=tmp_path, timeout_s=20)
    assert out.exit_code == 0 and out.stdout == b"main done\n"
    assert not _alive(_daemon(marker))


def test_a_setsid_daemon_dies_on_timeout_and_the_run_ends_on_time(tmp_path: Path):
    cmd, marker = _escaper(tmp_path, "sleep 100")
    started = time.monotonic()
    out = run_limited(cmd, cwd=tmp_path, timeout_s=1)
    assert out.timed_out and time.monotonic() - started < 5
    assert not _alive(_daemon(marker))


def test_a_background_child_holding_stdout_is_no_timeout(tmp_path: Path):
    started = time.monotonic()
    out = run_limited(["sh", "-c", "sleep 60 & echo main done"], cwd=tmp_path, timeout_s=30)
    assert (out.exit_code, out.timed_out, out.stdout) == (0, False, b"main done\n")
    assert time.monotonic() - started < 5


def test_output_stays_in_files_when_asked(tmp_path: Path):
    logs = tmp_path / "logs"
    logs.mkdir()
    out = run_limited(["sh", "-c", "yes | head -c 300000"], cwd=tmp_path, output_dir=logs)
    assert out.stdout == b"" and out.stdout_path == logs / "stdout"
    assert out.stdout_path.stat().st_size == 300000


def test_memory_limit_ends_a_hog_and_says_so(tmp_path: Path):
    hog = "b = bytearray(900 * 2**20)"
    limits = RunLimits.defaults().with_overrides(memory_bytes=300 * 2**20)
    out = run_limited([sys.executable, "-c", hog], cwd=tmp_path, limits=limits)
    assert out.exit_code == 1 and b"MemoryError" in out.stderr
    assert out.limit and "memory limit of 300 MiB" in out.limit


def test_cpu_limit_ends_a_spinner_and_says_so(tmp_path: Path):
    limits = RunLimits.defaults().with_overrides(cpu_s=1)
    out = run_limited(
        ["sh", "-c", "while :; do :; done"], cwd=tmp_path, limits=limits, timeout_s=30
    )
    assert out.signal == 24 and out.limit and "CPU-time limit" in out.limit


def test_file_size_limit_ends_a_writer_and_says_so(tmp_path: Path):
    limits = RunLimits.defaults().with_overrides(file_bytes=1 << 20)
    cmd = [
        sys.executable,
        "-c",
        "import signal; signal.signal(signal.SIGXFSZ, signal.SIG_DFL); open('big', 'wb').write(bytes(4 << 20))",
    ]
    out = run_limited(cmd, cwd=tmp_path, limits=limits)
    assert out.signal == 25 and out.limit and "file-size limit of 1 MiB" in out.limit
    assert (tmp_path / "big").stat().st_size == 1 << 20


def test_stop_all_runs_kills_runs_in_other_threads(tmp_path: Path):
    cmd, marker = _escaper(tmp_path, "sleep 100")
    caught: list[BaseException] = []

    def worker() -> None:
        try:
            run_limited(cmd, cwd=tmp_path, timeout_s=60)
        except RunCancelled as exc:
            caught.append(exc)

    thread = threading.Thread(target=worker)
    thread.start()
    while not marker.exists() or not marker.read_text().strip():
        time.sleep(0.02)
    started = time.monotonic()
    try:
        stop_all_runs()
        thread.join(10)
        assert not thread.is_alive() and time.monotonic() - started < 3
        assert len(caught) == 1 and exit_status(caught[0]) == 130  # the CLI's status for it
        assert not _alive(_daemon(marker))
        with pytest.raises(RunCancelled):
            run_limited(["true"], cwd=tmp_path)
    finally:
        _RUNS.cancelled.clear()


def test_sizes_parse():
    assert parse_size("8G", "x") == 8 << 30 and parse_size("512m", "x") == 512 << 20
    assert parse_size("none", "x") is None and parse_size(4096, "x") == 4096


def _listener() -> tuple[socket.socket, int]:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    return server, server.getsockname()[1]


CONNECT = "import socket, sys; socket.create_connection(('127.0.0.1', int(sys.argv[1])), timeout=3); print('connected')"


def test_the_sandbox_has_no_network(tmp_path: Path):
    sandbox_prefix()  # a CassError saying why where namespaces are missing
    server, port = _listener()
    with server:
        open_run = run_limited([sys.executable, "-c", CONNECT, str(port)], cwd=tmp_path)
        assert open_run.stdout == b"connected\n"  # the probe works without the sandbox
        limits = RunLimits.defaults().with_overrides(sandbox=True)
        boxed = run_limited([sys.executable, "-c", CONNECT, str(port)], cwd=tmp_path, limits=limits)
    assert boxed.exit_code == 1 and b"connected" not in boxed.stdout
    assert b"Network is unreachable" in boxed.stderr or b"refused" in boxed.stderr
    ran = run_limited(["sh", "-c", "echo inside"], cwd=tmp_path, limits=limits)
    assert ran.stdout == b"inside\n" and ran.exit_code == 0


# ---------------------------------------------------------------- files stay in the run directory


@pytest.mark.parametrize("entry", ["../X", "/tmp/X", "data/../../X", "..", ""])
def test_spec_refuses_paths_outside_the_run_directory(tmp_path: Path, entry: str):
    from cass.runner.diagnostics import CassError
    from cass.runner.spec import load_run_spec

    for key in ("input_files", "output_files"):
        source = tmp_path / "prog.cu"
        source.write_text(f'// cass: {key} = ["{entry}"]\nint main() {{ return 0; }}\n')
        with pytest.raises(CassError) as info:
            load_run_spec(source)
        message = info.value.message
        assert str(source) in message and f"`{key}`" in message and repr(entry) in message
        assert "\n" not in message


def test_spec_accepts_relative_paths_and_limits(tmp_path: Path):
    from cass.runner.spec import load_run_spec

    source = tmp_path / "prog.cu"
    source.write_text(
        '// cass: input_files = ["data/in.txt"] output_files = ["out/o.bin:f32"]\n'
        '// cass: memory_limit = "2G" cpu_limit_s = 5 sandbox = true file_size_limit = "none"\n'
    )
    spec = load_run_spec(source)
    assert spec.input_files == ("data/in.txt",) and spec.output_files[0].path == "out/o.bin"
    assert (spec.memory_limit, spec.cpu_limit_s, spec.sandbox, spec.file_size_limit) == (
        2 << 30,
        5.0,
        True,
        0,
    )


def test_run_dir_refuses_escapes_and_links_out(tmp_path: Path):
    from cass.runner.diagnostics import CassError
    from cass.runner.process import collect_outputs, prepare_run_dir

    (tmp_path / "X").write_text("secret")
    with pytest.raises(CassError, match="`..` component"):
        prepare_run_dir(("../X",), tmp_path / "sub", prefix="t")
    run_dir = prepare_run_dir((), tmp_path, prefix="t")
    (run_dir / "out.txt").symlink_to(tmp_path / "X")
    assert collect_outputs(run_dir, ["out.txt", "../X"], 100) == {}
