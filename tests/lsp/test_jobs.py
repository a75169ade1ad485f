"""Child-process jobs: results, errors, time limits, and cancellation that kills the child."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
from cass.runner.diagnostics import CassError
from cass.server.lsp.documents import Snapshot
from cass.server.lsp.jobs import run_in_child

pytestmark = pytest.mark.asyncio


def worker_children() -> list[int]:
    """Pids of this process's children running the cass worker."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == os.getpid() and b"cass.server.lsp.worker" in cmdline:
            found.append(int(entry.name))
    return found


async def no_worker_left() -> bool:
    """True once no worker child is alive (a killed child needs a moment to go)."""
    for _ in range(250):
        if not worker_children():
            return True
        await asyncio.sleep(0.02)
    return False


async def test_result_comes_back() -> None:
    pid = await run_in_child("os:getpid", timeout_s=60, what="asking")
    assert isinstance(pid, int) and pid != os.getpid()


async def test_cass_error_is_reraised_with_its_message() -> None:
    snap = Snapshot("file:///x/notes.txt", 1, "hello")
    with pytest.raises(CassError, match="notes.txt is not a CUDA file"):
        await run_in_child(
            "cass.server.lsp.documents:require_kind", snap, "cuda", timeout_s=60, what="checking"
        )


async def test_unexpected_error_becomes_a_message() -> None:
    with pytest.raises(CassError, match="checking failed unexpectedly: AttributeError"):
        await run_in_child("os:no_such_function", timeout_s=60, what="checking")


async def test_time_limit_stops_the_child() -> None:
    with pytest.raises(CassError, match="took longer than 0.5 s"):
        await run_in_child("time:sleep", 60, timeout_s=0.5, what="sleeping")
    assert await no_worker_left()


async def test_cancellation_kills_the_child() -> None:
    task = asyncio.ensure_future(run_in_child("time:sleep", 60, timeout_s=120, what="sleeping"))
    for _ in range(200):
        if worker_children():
            break
        await asyncio.sleep(0.02)
    assert worker_children(), "the worker never started"
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await no_worker_left()
