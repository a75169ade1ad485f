"""Resource limits of one run, and the network-less sandbox. Standard library only.

Every program the runner starts (the CUDA original, the HIP port on the emulator, compilers) runs
under `cass-launch` (see cass.runner.launcher), which sets these limits in the child with
setrlimit before exec:

- memory: RLIMIT_DATA, the program's heap and private writable mappings (default: a third of
  the machine's memory, at least 2 GiB: two runs side by side leave the machine room);
- processes: RLIMIT_NPROC, counted per user by Linux, so the limit is the user's current number
  of tasks plus `processes` (default 512; Linux does not apply it to root);
- file size: RLIMIT_FSIZE, the largest file the program may write (default 4 GiB);
- CPU time: RLIMIT_CPU (default: the time limit times the number of cores, plus 5 s; a backstop
  behind the wall-clock limit).

Environment defaults (a run spec's keys and the CLI flags win): `CASS_RUN_MEMORY`,
`CASS_RUN_PROCESSES`, `CASS_RUN_FILE_SIZE`, `CASS_RUN_CPU_S` (sizes like `8G`, `512M`; `none`
for no limit) and `CASS_SANDBOX=1`.
"""

from __future__ import annotations

import functools
import os
import re
import signal
import subprocess
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from cass.runner.diagnostics import CassError

GIB = 1 << 30
SIZE_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?\s*$", re.IGNORECASE)
UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
NO_LIMIT = ("none", "unlimited", "0")


def physical_memory() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError):
        return 8 * GIB


def default_memory() -> int:
    return max(2 * GIB, physical_memory() // 3)


def parse_size(text: str | int, what: str) -> int | None:
    """`8G`, `512M`, `4096` (bytes) -> bytes; `none`/`unlimited`/`0` -> None (no limit)."""
    if isinstance(text, int) and not isinstance(text, bool):
        return text or None
    if str(text).strip().lower() in NO_LIMIT:
        return None
    match = SIZE_RE.match(str(text))
    if not match:
        raise CassError(f"{what}: cannot read {text!r} as a size; write e.g. 8G, 512M or none")
    return int(float(match.group(1)) * UNITS[match.group(2).lower()])


def _env_size(name: str, default: int | None) -> int | None:
    value = os.environ.get(name)
    return default if value is None else parse_size(value, name)


def _env_number(name: str, default: float | None) -> float | None:
    value = os.environ.get(name)
    if value is None:
        return default
    if value.strip().lower() in NO_LIMIT:
        return None
    try:
        return float(value)
    except ValueError:
        raise CassError(f"{name}: expected a number of seconds or none, got {value!r}") from None


@dataclass(frozen=True)
class RunLimits:
    """The limits of one run; None means no limit of that kind."""

    memory_bytes: int | None
    processes: int | None
    file_bytes: int | None
    cpu_s: float | None  # None: derived from the run's time limit
    sandbox: bool = False

    @classmethod
    def defaults(cls) -> RunLimits:
        """The built-in defaults with the `CASS_RUN_*` / `CASS_SANDBOX` environment on top."""
        return cls(
            memory_bytes=_env_size("CASS_RUN_MEMORY", default_memory()),
            processes=_env_size("CASS_RUN_PROCESSES", 512),
            file_bytes=_env_size("CASS_RUN_FILE_SIZE", 4 * GIB),
            cpu_s=_env_number("CASS_RUN_CPU_S", None),
            sandbox=os.environ.get("CASS_SANDBOX", "").strip().lower() in ("1", "true", "yes"),
        )

    def with_overrides(self, **given: Any) -> RunLimits:
        """These limits with the given non-None values on top."""
        return replace(self, **{k: v for k, v in given.items() if v is not None})

    def launcher_spec(self, timeout_s: float) -> str:
        """The launcher's LIMITS argument (see cass.runner.launcher)."""
        cpu = self.cpu_s if self.cpu_s is not None else timeout_s * (os.cpu_count() or 1) + 5
        parts = [f"parent={os.getpid()}", f"cpu={max(1, int(cpu + 0.999))}"]
        if self.memory_bytes:
            parts.append(f"data={self.memory_bytes}")
        if self.file_bytes:
            parts.append(f"fsize={self.file_bytes}")
        if self.processes:
            parts.append(f"nproc={user_tasks() + self.processes}")
        return ",".join(parts)


_TASKS_CACHE: list[float] = [-1.0, 0.0]  # [monotonic time counted, count]
TASKS_CACHE_S = 2.0


def user_tasks() -> int:
    """Tasks (threads included, as RLIMIT_NPROC counts them) this user runs now; counted from
    /proc at most every TASKS_CACHE_S (a scan costs milliseconds, a run's limit adds 512)."""
    now = time.monotonic()
    if now - _TASKS_CACHE[0] < TASKS_CACHE_S:
        return int(_TASKS_CACHE[1])
    _TASKS_CACHE[:] = [now, _count_user_tasks()]
    return int(_TASKS_CACHE[1])


def _count_user_tasks() -> int:
    uid, total = os.getuid(), 0
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            if entry.stat().st_uid == uid:
                stat = Path(entry.path, "stat").read_text()
                total += int(stat.rsplit(")", 1)[1].split()[17])
        except (OSError, ValueError, IndexError):
            continue
    return total


# ---------------------------------------------------------------- which limit ended a run

MEMORY_SIGNS = ("std::bad_alloc", "Cannot allocate memory", "MemoryError", "out of memory")


def limit_hit(
    status_signal: int | None, exit_code: int | None, stderr: bytes, peak_rss_kib: int | None,
    limits: RunLimits,
) -> str | None:  # fmt: skip
    """A sentence naming the resource limit that ended a run, or None when none did."""
    if status_signal == signal.SIGXCPU:
        return "stopped by its CPU-time limit (SIGXCPU); raise it with --cpu-limit or `cpu_limit_s`"
    if status_signal == signal.SIGXFSZ:
        size = _size_text(limits.file_bytes)
        return f"stopped writing a file past its file-size limit of {size} (SIGXFSZ); raise it with --file-size-limit or `file_size_limit`"
    if exit_code in (0, None) or not limits.memory_bytes:
        return None
    near = peak_rss_kib is not None and peak_rss_kib * 1024 >= 0.9 * limits.memory_bytes
    if near or any(sign.encode() in stderr for sign in MEMORY_SIGNS):
        return (f"ran out of memory under its memory limit of {_size_text(limits.memory_bytes)}; "
                "raise it with --memory-limit or `memory_limit`")  # fmt: skip
    return None


def _size_text(size: int | None) -> str:
    if size is None:
        return "none"
    for unit, scale in (("GiB", GIB), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if size >= scale and size % (scale // 16 or 1) == 0:
            return f"{size / scale:g} {unit}"
    return f"{size} bytes"


# ---------------------------------------------------------------- the network-less sandbox

SANDBOX_PREFIXES = (
    ("unshare", "--user", "--map-current-user", "--net", "--ipc", "--"),
    ("unshare", "--user", "--map-root-user", "--net", "--ipc", "--"),
    ("unshare", "--net", "--ipc", "--"),
)


@functools.cache
def sandbox_prefix() -> tuple[str, ...]:
    """The command prefix that runs a program with no network (new user, network and IPC
    namespaces: only a down loopback device); a CassError where Linux namespaces are not
    available here."""
    reasons = []
    for prefix in SANDBOX_PREFIXES:
        try:
            proc = subprocess.run(
                [*prefix, "true"], capture_output=True, text=True, timeout=10, check=False
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            reasons.append(str(exc))
            continue
        if proc.returncode == 0:
            return prefix
        reasons.append(proc.stderr.strip() or f"exit {proc.returncode}")
    raise CassError(
        "--sandbox: this machine cannot run programs without network: `unshare` (util-linux) "
        f"could not create user and network namespaces ({reasons[-1]}); enable unprivileged "
        "user namespaces (sysctl kernel.unprivileged_userns_clone=1) or run without --sandbox"
    )


__all__ = ["RunLimits", "limit_hit", "parse_size", "sandbox_prefix", "user_tasks"]
