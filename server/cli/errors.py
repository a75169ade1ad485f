"""The command line's exit statuses: decided here, from the class of the error, and nowhere else.

| status | when |
| --- | --- |
| 1 | the work was carried out and failed (`WorkError`: a compiler error, a tool failure) |
| 2 | the request cannot be carried out as given (any other `CassError`: a missing file, a bad option, a tool not installed) |
| 124 | a program `cass emulate`/`run-hip` ran went past its time limit (`ProgramEnded`) |
| 128+N | that program was killed by signal N (`ProgramEnded`) |
| 130 | interrupted (`RunCancelled`, Ctrl-C) |

A verdict (`cass verify`, `cass model port`) ends with `VERDICT_STATUS`: match 0, mismatch 1,
error 1, unverifiable 2.
"""

from __future__ import annotations

from cass.runner.diagnostics import CassError, WorkError
from cass.runner.process import RunCancelled

EXIT_FAILED, EXIT_USAGE, EXIT_TIMEOUT, EXIT_INTERRUPTED = 1, 2, 124, 130
VERDICT_STATUS = {
    "match": 0,
    "mismatch": EXIT_FAILED,
    "error": EXIT_FAILED,
    "unverifiable": EXIT_USAGE,
}


class ProgramEnded(CassError):
    """A program the command ran ended abnormally; `status` is the shell's convention for it."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


def exit_status(error: CassError) -> int:
    """The exit status `cass` ends with after printing `error`."""
    if isinstance(error, ProgramEnded):
        return error.status
    if isinstance(error, RunCancelled):
        return EXIT_INTERRUPTED
    return EXIT_FAILED if isinstance(error, WorkError) else EXIT_USAGE
