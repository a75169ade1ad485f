"""Compiler messages -> located `Diagnostic`s.

Three dialects reach cass: nvcc's front end (`k.cu(3): error: ...` followed by the source line
and a caret line that gives the column), clang/gcc/llvm-mc (`k.hip:3:5: error: ...`), and
ptxas/nvlink (`ptxas error   : ...`, no location). Each becomes a `Diagnostic`; messages about
temporary files are re-pointed at the user's source.
"""

from __future__ import annotations

import re
from dataclasses import replace

from cass.runner.diagnostics import Diagnostic, Severity

_NVCC_RE = re.compile(
    r"^(?P<file>.+?)\((?P<line>\d+)\): (?P<sev>catastrophic error|error|warning|remark)"
    r"(?: #(?P<num>[\w-]+))?: (?P<msg>.*)$"
)
_CLANG_RE = re.compile(
    r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (?P<sev>fatal error|error|warning|note|remark)"
    r": (?P<msg>.*?)(?: \[(?P<flag>-W[\w-]+)\])?$"
)
_TOOL_RE = re.compile(
    r"^(?P<tool>ptxas|nvlink|fatbinary|nvcc|ld\.lld|clang|llvm-mc)[\w.-]*:? ?"
    r"(?P<sev>error|fatal|warning)\s*: (?P<msg>.*)$"
)

_SEVERITY = {
    "catastrophic error": Severity.ERROR,
    "fatal error": Severity.ERROR,
    "fatal": Severity.ERROR,
    "error": Severity.ERROR,
    "warning": Severity.WARNING,
    "remark": Severity.INFO,
    "note": Severity.INFO,
}
NVCC_SOURCE_INDENT = 2  # nvcc echoes the offending source line indented by two spaces


def _caret_column(lines: list[str], index: int) -> int:
    """The 1-based column from nvcc's caret line two lines below message `index` (else 1)."""
    if index + 2 < len(lines) and lines[index + 2].strip() == "^":
        return max(1, lines[index + 2].index("^") - NVCC_SOURCE_INDENT + 1)
    return 1


def _parse_line(lines: list[str], i: int, tool: str) -> Diagnostic | None:
    text = lines[i].rstrip()
    if m := _NVCC_RE.match(text):
        code = f"nvcc-{m['num']}" if m["num"] else "nvcc"
        return Diagnostic(
            m["file"], int(m["line"]), _caret_column(lines, i), _SEVERITY[m["sev"]], code, m["msg"]
        )
    if m := _CLANG_RE.match(text):
        code = f"{tool}{m['flag']}" if m["flag"] else tool
        sev = _SEVERITY[m["sev"]]
        return Diagnostic(m["file"], int(m["line"]), int(m["col"]), sev, code, m["msg"])
    if m := _TOOL_RE.match(text):
        return Diagnostic("", 0, 0, _SEVERITY[m["sev"]], m["tool"], m["msg"].strip())
    return None


def parse_compiler_output(output: str, tool: str, source: str) -> list[Diagnostic]:
    """Every located message in a compiler's stderr, deduplicated, in order.

    `source` is the user's file as they named it: messages with no file, or about a temporary
    file cass made, are attributed to it so that every diagnostic names a real file.
    """
    lines = output.splitlines()
    found: list[Diagnostic] = []
    for i in range(len(lines)):
        diag = _parse_line(lines, i, tool)
        if diag is None:
            continue
        if not diag.path or "tmpxft" in diag.path or diag.path.startswith("/tmp/cass-"):
            diag = replace(diag, path=source, line=max(diag.line, 1), column=max(diag.column, 1))
        if diag not in found:
            found.append(diag)
    return found


def error_summary(diagnostics: list[Diagnostic], output: str, limit: int = 20) -> str:
    """A short reason for a failed step: the first error's message, else the output's tail."""
    errors = [d for d in diagnostics if d.severity is Severity.ERROR]
    if errors:
        return errors[0].message
    tail = [line for line in output.strip().splitlines() if line.strip()][-limit:]
    return " / ".join(tail) if tail else "no output"
