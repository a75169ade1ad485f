"""Located diagnostics: the one currency every part of cass reports problems in.

Compilers, engines, the runner and the emulator all speak `Diagnostic`; front ends convert them
(LSP diagnostics, SARIF, terminal lines) at their edge.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import Enum


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"
    HINT = "hint"


@dataclass(frozen=True)
class Fix:
    """A replacement of text [line:column, end_line:end_column) (1-based lines and columns)."""

    message: str
    line: int
    column: int
    end_line: int
    end_column: int
    replacement: str


@dataclass(frozen=True)
class Diagnostic:
    """One finding at a place in a file. Lines and columns are 1-based; column counts characters."""

    path: str
    line: int
    column: int
    severity: Severity
    code: str
    message: str
    end_line: int | None = None
    end_column: int | None = None
    fix: Fix | None = None
    related: tuple[str, ...] = field(default_factory=tuple)

    def render(self) -> str:
        """`file:line:col: severity: message [code]`, the form compilers and editors parse."""
        return f"{self.path}:{self.line}:{self.column}: {self.severity.value}: {self.message} [{self.code}]"

    def to_dict(self) -> dict:
        d = asdict(self)
        d["severity"] = self.severity.value
        return d


class CassError(Exception):
    """An expected failure caused by input or environment; front ends print it without a traceback.

    `message` names the file, line and what to do; `diagnostics` locate it further. The class says
    what kind of failure it is, and each front end picks its exit status from the class alone: a
    plain CassError is a request that cannot be carried out as given (a missing file, a bad
    option, a tool that is not installed); a `WorkError` is work that was carried out and failed.
    Library code never chooses an exit status.
    """

    def __init__(self, message: str, *, diagnostics: tuple[Diagnostic, ...] = ()):
        super().__init__(message)
        self.message = message
        self.diagnostics = diagnostics


class WorkError(CassError):
    """The work was attempted and failed: a compiler rejected the code, a tool failed or ran past
    its limit, a translation has errors, an input could not be used as it is."""
