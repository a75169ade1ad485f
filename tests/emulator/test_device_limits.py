"""The emulated device's limits and the containment of emulated runs, with a real hostile HIP
program (programs/hostile.hip) built by clang-16: device memory enforced like HIP, lazy
allocations, HIP's launch-configuration errors, statistics after a timeout, and `cass run-hip`,
`cass emulate` and `cass verify` stopped with their whole process tree by a timeout, an output
limit or a real SIGINT."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cass.runner.emulator import build_hip_program, run_program
from cass.runner.process import run_limited

pytestmark = pytest.mark.toolchain

HOSTILE = Path(__file__).parent / "programs" / "hostile.hip"
CASS = [sys.executable, "-m", "cass.server.cli"]


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> Path:
    return build_hip_program(HOSTILE, tmp_path_factory.mktemp("hostile") / "hostile")


def _fields(text: str) -> dict[str, str]:
    pairs = (
        item.split("=", 1) for line in text.splitlines() for item in line.split() if "=" in item
    )
    return dict(pairs)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def _wait_for(path: Path, seconds: float = 60) -> int:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if path.is_file() and path.read_text().strip():
            return int(path.read_text())
        time.sleep(0.05)
    raise AssertionError(f"{path} never appeared")


def test_device_memory_is_enforced_like_hip(hostile: Path):
    env = {**os.environ, "CASS_EMULATOR_DEVICE_MEMORY": str(1 << 30)}
    got = _fields(run_program(hostile, ["oom"], env=env, timeout_s=60).stdout)
    assert got == {"total": str(1 << 30), "too_big": "hipErrorOutOfMemory", "first": "hipSuccess",
                   "second": "hipErrorOutOfMemory", "free": "hipSuccess"}  # fmt: skip
    default = _fields(run_program(hostile, ["oom"], timeout_s=60).stdout)
    assert (default["total"], default["too_big"]) == (str(24 << 30), "hipErrorOutOfMemory")


def test_a_large_malloc_costs_only_what_is_touched(hostile: Path):
    env = dict(os.environ)
    if env.get("CASS_EMULATOR_ENGINE") == "both":  # the oracle saves and restores every
        env["CASS_EMULATOR_ENGINE"] = "jit"  # allocation around a launch: 4 GiB twice here
    got = _fields(run_program(hostile, ["lazy"], env=env, timeout_s=120).stdout)
    assert got["values"] == "7,9"
    assert int(got["peak_rss_kib"]) < 1024 * 1024  # 4 GiB allocated, two words touched


def test_launch_configurations_are_checked_like_hip(hostile: Path):
    run = run_program(hostile, ["config"], timeout_s=60)
    assert run.exit_code == 0 and "fault" not in run.stderr
    assert _fields(run.stdout) == {
        "x_over_2^32_items": "hipErrorInvalidConfiguration",
        "y_over_2^32_items": "hipErrorInvalidConfiguration",
        "block_1025": "hipErrorInvalidConfiguration",
        "block_z_2048": "hipErrorInvalidConfiguration",
        "grid_zero": "hipErrorInvalidConfiguration",
        "shmem_65537": "hipErrorInvalidValue",
        "fine": "hipSuccess",
    }


def test_statistics_count_the_launch_a_timeout_stopped(hostile: Path, tmp_path: Path):
    run = run_program(hostile, ["spin", str(tmp_path / "pid")], timeout_s=3)
    assert run.timed_out
    assert run.stats.kernel_launches == 1 and run.stats.instructions > 0
    assert "1 launches" in run.stats.summary()


def test_run_hip_timeout_ends_on_time_and_takes_the_daemon_along(tmp_path: Path):
    pid_file = tmp_path / "pid"
    started = time.monotonic()
    proc = subprocess.run([*CASS, "run-hip", str(HOSTILE), "escape", str(pid_file), "--timeout", "3"],
                          capture_output=True, text=True, timeout=120, check=False)  # fmt: skip
    assert proc.returncode == 124 and "time limit" in proc.stderr
    assert time.monotonic() - started < 30  # compile (a few s) + 3 s; was 90 s and more
    assert "1 launches" in proc.stderr
    assert not _alive(int(pid_file.read_text())) and not _alive(
        int(Path(f"{pid_file}.main").read_text())
    )


def test_ctrl_c_stops_emulate_and_its_tree(hostile: Path, tmp_path: Path):
    pid_file = tmp_path / "pid"
    proc = subprocess.Popen([*CASS, "emulate", str(hostile), "escape", str(pid_file), "--timeout", "120"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    daemon, program = _wait_for(pid_file), _wait_for(Path(f"{pid_file}.main"))
    time.sleep(0.5)  # in the endless kernel now
    started = time.monotonic()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=20)
    assert proc.returncode == 130 and time.monotonic() - started < 5
    assert err.strip().splitlines() == [
        "interrupted: stopped the running program and its processes"
    ]
    assert not _alive(daemon) and not _alive(program)


def test_endless_output_is_capped_and_kept_out_of_memory(hostile: Path, tmp_path: Path):
    cmd = [*CASS, "emulate", str(hostile), "flood", "--max-output", "4M", "--no-stats"]
    out = run_limited(cmd, cwd=tmp_path, timeout_s=120, max_output_bytes=64 << 20)
    assert out.exit_code == 1
    assert 4 << 20 <= len(out.stdout) < 5 << 20
    assert b"output truncated at 4194304 bytes" in out.stderr
    assert out.peak_rss_kib is not None and out.peak_rss_kib < 400 * 1024


CU = """#include <cstdio>
int main() { puts("never"); return 0; }
"""


def test_ctrl_c_stops_verify_and_the_port_it_runs(tmp_path: Path):
    from cass.runner.recorded import write_record
    from cass.runner.results import RunResult
    from cass.runner.spec import load_run_spec

    pid_file = tmp_path / "pid"
    source, port = tmp_path / "prog.cu", tmp_path / "prog.hip"
    source.write_text(f'// cass: args = ["escape", "{pid_file}"] timeout_s = 300\n' + CU)
    shutil.copy(HOSTILE, port)
    write_record(
        source, load_run_spec(source), RunResult("nvidia", 0, "never\n", runtimes_s=(0.1,))
    )
    proc = subprocess.Popen([*CASS, "verify", str(source), str(port), "-r", "recorded", "-p", "emulator"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    daemon, program = _wait_for(pid_file, 120), _wait_for(Path(f"{pid_file}.main"))
    started = time.monotonic()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and time.monotonic() - started < 5, err
    assert (
        err.strip().splitlines()[-1] == "interrupted: stopped the running program and its processes"
    )
    assert not _alive(daemon) and not _alive(program)


def test_verify_says_which_limit_ended_the_port(tmp_path: Path):
    from cass.runner.recorded import write_record
    from cass.runner.results import RunResult
    from cass.runner.spec import load_run_spec
    from cass.runner.verify import verify

    source, port = tmp_path / "prog.cu", tmp_path / "prog.hip"
    source.write_text(
        f'// cass: args = ["spin", "{tmp_path / "pid"}"] cpu_limit_s = 2 timeout_s = 60\n' + CU
    )
    shutil.copy(HOSTILE, port)
    write_record(
        source, load_run_spec(source), RunResult("nvidia", 0, "never\n", runtimes_s=(0.1,))
    )
    verdict = verify(source, port, backends=("recorded", "emulator"))
    assert (
        verdict.status in ("error", "mismatch")
        and "stopped by its CPU-time limit" in verdict.message
    ), verdict.message
