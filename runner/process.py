"""Run one program safely: its own directory, a time limit, an output limit, the whole process
tree killed when either is exceeded, peak memory measured by `wait4`. Standard library only.

    sandbox = prepare_run_dir(spec)             # a fresh temp dir with the input files copied in
    result = run_limited(cmd, cwd=sandbox, ...) # ProcessOutcome
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path

from cass.runner.diagnostics import CassError
from cass.runner.launcher import launcher, parse_report

POLL_S = 0.02


@dataclass(frozen=True)
class ProcessOutcome:
    exit_code: int | None  # None: killed by us (timeout / output limit)
    signal: int | None  # the signal that ended it, when one did
    stdout: bytes
    stderr: bytes
    wall_s: float
    peak_rss_kib: int | None
    timed_out: bool = False
    output_truncated: bool = False


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


class _Reaper(threading.Thread):
    """Waits for the child with wait4 so wall time and peak RSS are exact."""

    def __init__(self, pid: int, started: float):
        super().__init__(daemon=True)
        self.pid, self.started = pid, started
        self.status: int | None = None
        self.wall_s = 0.0
        self.rss_kib: int | None = None

    def run(self) -> None:
        _, status, usage = os.wait4(self.pid, 0)
        self.wall_s = time.perf_counter() - self.started
        self.status, self.rss_kib = status, int(usage.ru_maxrss)


def _read_head(path: Path, limit: int) -> bytes:
    with path.open("rb") as f:
        return f.read(limit)


def run_limited(
    cmd: list[str],
    *,
    cwd: Path,
    stdin: str | bytes | None = None,
    env: dict[str, str] | None = None,
    timeout_s: float = 60.0,
    max_output_bytes: int = 8 * 1024 * 1024,
    measure: bool = True,
) -> ProcessOutcome:
    """Run `cmd` in `cwd` in a new process group; kill the group on timeout or too much output.

    With `measure`, the program starts under `cass-launch` (see cass.runner.launcher) so that its
    peak RSS and wall time are its own; where no launcher can be built, peak RSS is None."""
    with tempfile.TemporaryDirectory(prefix="cass-log-") as logs:
        launch = launcher() if measure else None
        report = Path(logs) / "report"
        argv = [str(launch), str(report), *cmd] if launch else cmd
        outcome = _run_logged(argv, cwd, Path(logs), stdin, env, timeout_s, max_output_bytes)
        if not measure:
            return outcome
        return _measured(outcome, parse_report(report) if launch else None)


def _measured(outcome: ProcessOutcome, report: tuple[int, int, float] | None) -> ProcessOutcome:
    """The program's own figures from the launcher's report (none: RSS unknown)."""
    if outcome.timed_out or outcome.output_truncated or report is None:
        return replace(outcome, peak_rss_kib=None)
    rss, status, wall = report
    signal_ = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
    return replace(outcome, exit_code=_exit_code(status), signal=signal_, wall_s=wall, peak_rss_kib=rss)


def _run_logged(
    cmd: list[str], cwd: Path, logs: Path, stdin: str | bytes | None,
    env: dict[str, str] | None, timeout_s: float, max_output_bytes: int,
) -> ProcessOutcome:  # fmt: skip
    out_path, err_path = logs / "stdout", logs / "stderr"
    data = stdin.encode() if isinstance(stdin, str) else stdin
    with out_path.open("wb") as out, err_path.open("wb") as err, tempfile.TemporaryFile() as inp:
        inp.write(data or b"")
        inp.seek(0)
        try:
            proc = subprocess.Popen(
                cmd, cwd=cwd, stdin=inp, stdout=out, stderr=err, env=env,
                start_new_session=True,  # no preexec_fn: vfork keeps peak RSS the program's own
            )  # fmt: skip
        except OSError as exc:
            raise CassError(f"cannot start {cmd[0]}: {exc}") from None
        reaper = _Reaper(proc.pid, time.perf_counter())
        reaper.start()
        try:
            timed_out, truncated = _watch(reaper, proc.pid, out_path, err_path, timeout_s, max_output_bytes)
        except BaseException:  # interrupted (Ctrl-C): never leave the program running
            _kill_group(proc.pid)
            raise
    proc.returncode = 0  # reaped by wait4 already; keep Popen from waiting again
    status = reaper.status or 0
    killed = timed_out or truncated
    return ProcessOutcome(
        exit_code=None if killed else _exit_code(status),
        signal=os.WTERMSIG(status) if os.WIFSIGNALED(status) and not killed else None,
        stdout=_read_head(out_path, max_output_bytes),
        stderr=_read_head(err_path, max_output_bytes),
        wall_s=reaper.wall_s,
        peak_rss_kib=reaper.rss_kib,
        timed_out=timed_out,
        output_truncated=truncated,
    )


def _exit_code(status: int) -> int:
    if os.WIFEXITED(status):
        return os.WEXITSTATUS(status)
    return 128 + os.WTERMSIG(status)


def _watch(
    reaper: _Reaper, pid: int, out: Path, err: Path, timeout_s: float, limit: int
) -> tuple[bool, bool]:
    deadline = time.monotonic() + timeout_s
    while True:
        reaper.join(POLL_S)
        if not reaper.is_alive():
            _kill_group(pid)  # stray grandchildren left behind by the program
            return False, False
        if time.monotonic() > deadline:
            verdict = (True, False)
        elif out.stat().st_size + err.stat().st_size > limit:
            verdict = (False, True)
        else:
            continue
        _kill_group(pid)
        reaper.join(10)
        return verdict


def prepare_run_dir(inputs: tuple[str, ...], base_dir: Path | None, *, prefix: str) -> Path:
    """A fresh private directory with each input file copied in; a missing one is a CassError."""
    run_dir = Path(tempfile.mkdtemp(prefix=f"cass-{prefix}-"))
    for name in inputs:
        src = (base_dir or Path.cwd()) / name
        if not src.is_file():
            shutil.rmtree(run_dir, ignore_errors=True)
            raise CassError(
                f"input file {name} not found (looked for {src}); add it or fix `input_files` "
                "in the run spec"
            )
        dest = run_dir / Path(name).name if Path(name).is_absolute() else run_dir / name
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dest)
    return run_dir


def collect_outputs(run_dir: Path, names: list[str], limit: int) -> dict[str, bytes]:
    """The declared output files that exist (each read up to `limit` bytes)."""
    found = {}
    for name in names:
        path = run_dir / name
        if path.is_file():
            found[name] = _read_head(path, limit)
    return found


def run_compiler(
    cmd: list[str], *, cwd: Path, timeout_s: float = 300.0, env: dict[str, str] | None = None
) -> ProcessOutcome:
    """A compiler call under the same limits (a generous time limit, 1 MiB of diagnostics)."""
    return run_limited(cmd, cwd=cwd, env=env, timeout_s=timeout_s, max_output_bytes=1024 * 1024, measure=False)
