"""Long work off the event loop: a function run in a child process that can be cancelled.

`run_in_child("cass.server.lsp.work:verify_job", ...)` starts `python -m cass.server.lsp.worker`
in its own process group, sends it the call (pickled on stdin) and awaits the pickled reply.
Cancelling the awaiting task, or the time limit, kills the whole group (compilers, programs
under test and all), so cancelled work stops using the machine at once.
"""

from __future__ import annotations

import asyncio
import os
import pickle
import signal
import sys
from typing import Any

from cass.runner.diagnostics import CassError


async def run_in_child(target: str, *args: Any, timeout_s: float, what: str) -> Any:
    """Call `module:function(*args)` in a child process; its result, or its CassError re-raised.

    `what` names the work for messages ("verifying kernel.cu").
    """
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "cass.server.lsp.worker",
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        start_new_session=True,
    )
    try:
        payload = pickle.dumps((target, args))
        out, err = await asyncio.wait_for(process.communicate(payload), timeout=timeout_s)
    except TimeoutError:
        raise CassError(
            f"{what} took longer than {timeout_s:g} s and was stopped; raise "
            "cass.limits.timeoutS or run it from a terminal."
        ) from None
    finally:
        _kill_group(process)
    return _unpack(out, err, process.returncode, what)


def _unpack(out: bytes, err: bytes, returncode: int | None, what: str) -> Any:
    try:
        status, value = pickle.loads(out)
    # Broad on purpose: a worker that died mid-write leaves any bytes at all, and unpickling
    # them can raise nearly anything (UnpicklingError, EOFError, ValueError, TypeError, an
    # ImportError for a half-written class name); each means the same: no answer from it.
    except Exception:
        tail = err.decode("utf-8", "replace").strip().splitlines()[-5:]
        raise CassError(
            f"{what} failed: the worker process exited with code {returncode}"
            + (": " + " | ".join(tail) if tail else "")
        ) from None
    if status == "ok":
        return value
    if status == "cass-error":
        raise CassError(value)
    raise CassError(f"{what} failed unexpectedly: {value}")


def _kill_group(process: asyncio.subprocess.Process) -> None:
    if process.returncode is not None:
        return
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
