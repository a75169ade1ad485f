"""Run one program contained: its own directory, a time limit, an output limit, resource limits,
and its whole process tree killed when any of them ends the run, when it exits, or on Ctrl-C;
peak memory measured by `wait4`. Standard library only.

    sandbox = prepare_run_dir(spec)             # a fresh temp dir with the input files copied in
    result = run_limited(cmd, cwd=sandbox, ...) # ProcessOutcome

Each run starts in a new session and process group under `cass-launch` (cass.runner.launcher),
a child subreaper that applies the `RunLimits` (cass.runner.limits) and kills every descendant,
`setsid` daemons included, when the program exits or the run is stopped. Output goes to files
(never pipes): a background child that keeps stdout open cannot hold a run open, and a flood
costs disk up to the output limit, not memory. `stop_all_runs()` (the CLI's SIGINT/SIGTERM
handler) kills every run in progress, in any thread, and refuses new ones.
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
from cass.runner.limits import RunLimits, limit_hit, sandbox_prefix
from cass.runner.spec import run_dir_path_problem

POLL_S = 0.02
STOP_GRACE_S = 2.0  # for the launcher to kill the tree before its group is killed outright


class RunCancelled(CassError):
    """The run was stopped by Ctrl-C or SIGTERM (see `stop_all_runs`)."""

    def __init__(self) -> None:
        super().__init__("interrupted: the program and its processes were stopped")


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
    limit: str | None = None  # which resource limit ended the run (a sentence), if one did
    stdout_path: Path | None = None  # with `output_dir`: the captured files (bytes left empty)
    stderr_path: Path | None = None


class _Runs:
    """The launchers running now (pid -> whether it is a cass-launch), for `stop_all_runs`."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.active: dict[int, bool] = {}
        self.cancelled = threading.Event()

    def add(self, pid: int, launched: bool) -> None:
        with self.lock:
            self.active[pid] = launched

    def remove(self, pid: int) -> None:
        with self.lock:
            self.active.pop(pid, None)

    def snapshot(self) -> list[tuple[int, bool]]:
        with self.lock:
            return list(self.active.items())


_RUNS = _Runs()


def stop_all_runs() -> None:
    """Kill every run in progress with its process tree, and refuse new runs (Ctrl-C, SIGTERM).
    Safe to call from a signal handler."""
    _RUNS.cancelled.set()
    for pid, launched in _RUNS.snapshot():
        _signal_tree(pid, launched)


def pool_worker_started() -> None:
    """Initializer of a worker process of a pool (the bench, the dataset): Ctrl-C reaches the
    terminal's whole process group, but the parent decides (it stops the workers); SIGTERM from
    the parent kills the programs the worker runs, with their process trees, and ends the worker
    at once (no traceback from a handler the worker inherited)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _pool_worker_stop)


def _pool_worker_stop(signum: int, _frame: object) -> None:
    stop_all_runs()
    os._exit(128 + signum)


def _signal_tree(pid: int, launched: bool) -> None:
    """Ask the launcher to kill its tree (it kills `setsid` escapees too); without a launcher,
    kill the process group."""
    try:
        if launched:
            os.kill(pid, signal.SIGTERM)
        else:
            os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


class _Reaper(threading.Thread):
    """Waits for the child with wait4 so wall time and peak RSS are exact. Others wait on
    `done`, never on join(): in Python 3.11 a join() interrupted by a signal handler that raises
    marks the thread as stopped while it still runs."""

    def __init__(self, pid: int, started: float):
        super().__init__(daemon=True)
        self.pid, self.started = pid, started
        self.status: int | None = None
        self.wall_s = 0.0
        self.rss_kib: int | None = None
        self.done = threading.Event()

    def run(self) -> None:
        try:
            _, status, usage = os.wait4(self.pid, 0)
            self.wall_s = time.perf_counter() - self.started
            self.status, self.rss_kib = status, int(usage.ru_maxrss)
        finally:
            self.done.set()

    def wait(self, timeout: float) -> bool:
        """True once the child has been reaped."""
        return self.done.wait(timeout)


def _read_head(path: Path | None, limit: int) -> bytes:
    if path is None:
        return b""
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
    limits: RunLimits | None = None,
    output_dir: Path | None = None,
) -> ProcessOutcome:
    """Run `cmd` in `cwd` contained (see the module docstring); the outcome says how it ended.

    With `measure`, peak RSS and wall time are the program's own (from `cass-launch`; None where
    no launcher can be built). `limits` default to `RunLimits.defaults()`. With `output_dir`,
    stdout and stderr stay in files there (`stdout_path`, `stderr_path`) instead of memory.
    Raises RunCancelled after `stop_all_runs()`."""
    if _RUNS.cancelled.is_set():
        raise RunCancelled()
    limits = limits or RunLimits.defaults()
    with tempfile.TemporaryDirectory(prefix="cass-log-") as logs:
        launch = launcher()
        report = Path(logs) / "report"
        wrapped = [*sandbox_prefix(), *cmd] if limits.sandbox else cmd
        argv = (
            [str(launch), str(report), limits.launcher_spec(timeout_s), *wrapped]
            if launch
            else wrapped
        )
        folder = output_dir or Path(logs)
        outcome = _run_logged(
            argv, cwd, folder, stdin, env, timeout_s, max_output_bytes, bool(launch)
        )
        if output_dir is None:
            outcome = replace(outcome, stdout=_read_head(outcome.stdout_path, max_output_bytes),
                              stderr=_read_head(outcome.stderr_path, max_output_bytes),
                              stdout_path=None, stderr_path=None)  # fmt: skip
        if launch:
            outcome = _measured(outcome, parse_report(report))
        if not measure:
            outcome = replace(outcome, peak_rss_kib=None)
        return _with_limit(outcome, limits, output_dir is None)


def _with_limit(outcome: ProcessOutcome, limits: RunLimits, in_memory: bool) -> ProcessOutcome:
    stderr = outcome.stderr if in_memory else _tail(outcome.stderr_path, 64 * 1024)
    hit = limit_hit(outcome.signal, outcome.exit_code, stderr, outcome.peak_rss_kib, limits)
    return replace(outcome, limit=hit) if hit else outcome


def _tail(path: Path | None, size: int) -> bytes:
    if path is None or not path.is_file():
        return b""
    with path.open("rb") as f:
        f.seek(max(0, path.stat().st_size - size))
        return f.read()


def _measured(outcome: ProcessOutcome, report: tuple[int, int, float] | None) -> ProcessOutcome:
    """The program's own figures from the launcher's report (none: RSS unknown)."""
    if outcome.timed_out or outcome.output_truncated or report is None:
        return replace(outcome, peak_rss_kib=None)
    rss, status, wall = report
    signal_ = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
    return replace(
        outcome, exit_code=_exit_code(status), signal=signal_, wall_s=wall, peak_rss_kib=rss
    )


def _run_logged(
    cmd: list[str], cwd: Path, logs: Path, stdin: str | bytes | None,
    env: dict[str, str] | None, timeout_s: float, max_output_bytes: int, launched: bool,
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
        _RUNS.add(proc.pid, launched)
        reaper = _Reaper(proc.pid, time.perf_counter())
        reaper.start()
        try:
            ending = _watch(reaper, proc.pid, out_path, err_path, timeout_s, max_output_bytes)
            if ending == "cancelled":
                _stop(reaper, proc.pid, launched)
                raise RunCancelled()
        except BaseException:  # interrupted (Ctrl-C): never leave the program running
            _stop(reaper, proc.pid, launched)
            raise
        finally:
            _RUNS.remove(proc.pid)
        if ending != "exited":
            _stop(reaper, proc.pid, launched)
    proc.returncode = 0  # reaped by wait4 already; keep Popen from waiting again
    return _outcome(reaper, ending, out_path, err_path)


def _outcome(reaper: _Reaper, ending: str, out: Path, err: Path) -> ProcessOutcome:
    status = reaper.status or 0
    killed = ending != "exited"
    return ProcessOutcome(
        exit_code=None if killed else _exit_code(status),
        signal=os.WTERMSIG(status) if os.WIFSIGNALED(status) and not killed else None,
        stdout=b"",
        stderr=b"",
        wall_s=reaper.wall_s,
        peak_rss_kib=reaper.rss_kib,
        timed_out=ending == "timeout",
        output_truncated=ending == "output",
        stdout_path=out,
        stderr_path=err,
    )


def _exit_code(status: int) -> int:
    if os.WIFEXITED(status):
        return os.WEXITSTATUS(status)
    return 128 + os.WTERMSIG(status)


def _watch(reaper: _Reaper, pid: int, out: Path, err: Path, timeout_s: float, limit: int) -> str:
    """How the run ends: "exited", "timeout", "output" (over the limit) or "cancelled"."""
    deadline = time.monotonic() + timeout_s
    while True:
        exited = reaper.wait(POLL_S)
        if _RUNS.cancelled.is_set():  # first: a stopped launcher exits at once
            return "cancelled"
        if exited:
            _kill_group(pid)  # stray group members (the launcher killed the rest of the tree)
            return "exited"
        if time.monotonic() > deadline:
            return "timeout"
        if out.stat().st_size + err.stat().st_size > limit:
            return "output"


def _stop(reaper: _Reaper, pid: int, launched: bool) -> None:
    """Kill the run's tree: the launcher first (it reaches `setsid` escapees), then the group."""
    _signal_tree(pid, launched)
    reaper.wait(STOP_GRACE_S if launched else 10)
    _kill_group(pid)
    reaper.wait(10)


def prepare_run_dir(inputs: tuple[str, ...], base_dir: Path | None, *, prefix: str) -> Path:
    """A fresh private directory with each input file copied in; a missing input, or one that
    would land outside the directory (absolute, `..`), is a CassError."""
    for name in inputs:
        problem = run_dir_path_problem(name)
        if problem:
            raise CassError(
                f"input file {name!r} {problem}; `input_files` must name files inside the run directory"
            )
    run_dir = Path(tempfile.mkdtemp(prefix=f"cass-{prefix}-"))
    for name in inputs:
        src = (base_dir or Path.cwd()) / name
        if not src.is_file():
            shutil.rmtree(run_dir, ignore_errors=True)
            raise CassError(
                f"input file {name} not found (looked for {src}); add it or fix `input_files` "
                "in the run spec"
            )
        dest = run_dir / name
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dest)
    return run_dir


def collect_outputs(run_dir: Path, names: list[str], limit: int) -> dict[str, bytes]:
    """The declared output files that exist inside `run_dir` (each read up to `limit` bytes); a
    name outside it, or a link the program made to a file outside it, is not read."""
    found = {}
    root = run_dir.resolve()
    for name in names:
        path = (run_dir / name).resolve()
        if run_dir_path_problem(name) is None and path.is_relative_to(root) and path.is_file():
            found[name] = _read_head(path, limit)
    return found


def run_compiler(
    cmd: list[str], *, cwd: Path, timeout_s: float = 300.0, env: dict[str, str] | None = None
) -> ProcessOutcome:
    """A compiler call under the same limits (a generous time limit, 1 MiB of diagnostics)."""
    return run_limited(
        cmd, cwd=cwd, env=env, timeout_s=timeout_s, max_output_bytes=1024 * 1024, measure=False
    )
