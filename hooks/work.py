"""What every hook shares: printing findings and exit codes.

Exit codes (pre-commit's convention): 0 nothing to do or all good; 1 the hook wrote a file or found
a problem (review, stage, fix); 2 a usage mistake (bad option, bad config, not a repository);
3 an unexpected failure (the traceback goes to a log file, whose path is printed). The work itself
(pairs, outcomes, workers) is `cass.models.workflow`.
"""

from __future__ import annotations

import os
import sys
import tempfile
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from cass.runner.diagnostics import CassError, Diagnostic, WorkError
from cass.runner.process import RunCancelled

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3


def print_diagnostics(diagnostics: Sequence[Diagnostic], stream: TextIO | None = None) -> None:
    stream = stream or sys.stdout
    for d in diagnostics:
        print(d.render(), file=stream)


def exit_status(error: CassError) -> int:
    """A hook's exit code for an expected error, from its class: the work failed (`WorkError`)
    is a finding, anything else a usage mistake; interrupted is 130."""
    if isinstance(error, RunCancelled):
        return 130
    return EXIT_FINDINGS if isinstance(error, WorkError) else EXIT_USAGE


def guarded_main(hook: str, body: Callable[[], int]) -> int:
    """Run a hook's main body: CassError -> its message and exit code; anything unexpected ->
    exit 3 with the traceback in a log file."""
    try:
        return body()
    except CassError as exc:
        print(f"{hook}: error: {exc.message}", file=sys.stderr)
        print_diagnostics(exc.diagnostics, sys.stderr)
        return exit_status(exc)
    except KeyboardInterrupt:
        print(f"{hook}: interrupted; no mirror was left half-written", file=sys.stderr)
        return 130
    except Exception:  # noqa: BLE001 - the edge where unexpected failures become exit 3
        log = Path(tempfile.gettempdir()) / f"{hook}-crash-{os.getpid()}.log"
        log.write_text(traceback.format_exc(), encoding="utf-8")
        print(f"{hook}: internal error (a bug in cass); the traceback is in {log}", file=sys.stderr)
        return EXIT_INTERNAL
