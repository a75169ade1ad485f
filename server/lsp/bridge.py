"""Bridge: engine results (text, located cass diagnostics, fixes) -> LSP edits and diagnostics.

Pure functions over text; no server state. Positions follow the negotiated position encoding
(UTF-16 unless the client chose otherwise); cass diagnostics count columns in characters.
"""

from __future__ import annotations

import difflib
from bisect import bisect_right
from collections.abc import Mapping
from typing import Any

from cass.runner.diagnostics import Diagnostic, Fix, Severity
from lsprotocol import types as lsp

# Producers of a document's diagnostics (CassServer.publish): each replaces only its own set.
RULES_PRODUCER = "rules"  # the rules engine's findings as the user types
VERDICT_PRODUCER = "verify"  # the last "Port and verify" verdict

_SEVERITY = {
    Severity.ERROR: lsp.DiagnosticSeverity.Error,
    Severity.WARNING: lsp.DiagnosticSeverity.Warning,
    Severity.INFO: lsp.DiagnosticSeverity.Information,
    Severity.HINT: lsp.DiagnosticSeverity.Hint,
}


class LineIndex:
    """Offsets <-> LSP positions for one text, by bisect over line starts."""

    def __init__(self, text: str, encoding: str = "utf-16") -> None:
        self.text = text
        self.encoding = encoding
        self.starts = [0]
        newline = text.find("\n")
        while newline != -1:
            self.starts.append(newline + 1)
            newline = text.find("\n", newline + 1)

    def _units(self, chars: str) -> int:
        if self.encoding == "utf-32" or chars.isascii():
            return len(chars)
        if self.encoding == "utf-8":
            return len(chars.encode("utf-8"))
        return len(chars.encode("utf-16-le")) // 2

    def position(self, offset: int) -> lsp.Position:
        offset = max(0, min(offset, len(self.text)))
        line = bisect_right(self.starts, offset) - 1
        return lsp.Position(line=line, character=self._units(self.text[self.starts[line] : offset]))

    def offset(self, position: lsp.Position) -> int:
        """The character offset of an LSP position (clamped into the text)."""
        if position.line >= len(self.starts):
            return len(self.text)
        start = self.starts[max(position.line, 0)]
        end = (
            self.starts[position.line + 1] - 1
            if position.line + 1 < len(self.starts)
            else len(self.text)
        )
        column, units = 0, 0
        while start + column < end and units < position.character:
            units += self._units(self.text[start + column])
            column += 1
        return start + column

    def line_column(self, line: int, column: int) -> int:
        """The offset of a 1-based line and 1-based character column (clamped)."""
        line = min(max(line, 1), len(self.starts)) - 1
        end = self.starts[line + 1] - 1 if line + 1 < len(self.starts) else len(self.text)
        return min(self.starts[line] + max(column, 1) - 1, end)

    def range(self, start: int, end: int) -> lsp.Range:
        return lsp.Range(start=self.position(start), end=self.position(end))

    def whole(self) -> lsp.Range:
        return self.range(0, len(self.text))


def line_ending(text: str) -> str:
    """The document's line ending: CRLF when most lines end so, else LF."""
    crlf = text.count("\r\n")
    return "\r\n" if crlf and crlf >= text.count("\n") - crlf else "\n"


def with_line_ending(text: str, ending: str) -> str:
    normalised = text.replace("\r\n", "\n")
    return normalised if ending == "\n" else normalised.replace("\n", ending)


def minimal_edits(old: str, new: str, encoding: str = "utf-16") -> list[lsp.TextEdit]:
    """The few line-granular TextEdits turning `old` into `new` (difflib over lines).

    `new` takes the line ending of `old`, so a CRLF document stays CRLF.
    """
    new = with_line_ending(new, line_ending(old))
    if old == new:
        return []
    index = LineIndex(old, encoding)
    old_lines, new_lines = old.splitlines(keepends=True), new.splitlines(keepends=True)
    starts = index.starts[: len(old_lines)] + [len(old)]
    matcher = difflib.SequenceMatcher(a=old_lines, b=new_lines, autojunk=False)
    return [
        lsp.TextEdit(range=index.range(starts[i1], starts[i2]), new_text="".join(new_lines[j1:j2]))
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
        if tag != "equal"
    ]


def fix_edit(fix: Fix, index: LineIndex) -> lsp.TextEdit:
    start = index.line_column(fix.line, fix.column)
    end = index.line_column(fix.end_line, fix.end_column)
    return lsp.TextEdit(range=index.range(start, max(start, end)), new_text=fix.replacement)


def fix_to_data(fix: Fix) -> dict[str, Any]:
    return {
        "message": fix.message,
        "line": fix.line,
        "column": fix.column,
        "end_line": fix.end_line,
        "end_column": fix.end_column,
        "replacement": fix.replacement,
    }


def fix_from_data(data: Any) -> Fix | None:
    """The Fix a diagnostic carried in its `data`, or None when it carries none (or garbage)."""
    fix = data.get("fix") if isinstance(data, Mapping) else None
    if not isinstance(fix, Mapping):
        return None
    try:
        return Fix(
            message=str(fix["message"]),
            line=int(fix["line"]),
            column=int(fix["column"]),
            end_line=int(fix["end_line"]),
            end_column=int(fix["end_column"]),
            replacement=str(fix["replacement"]),
        )
    except (KeyError, TypeError, ValueError):
        return None


def diagnostic_from_dict(data: Mapping[str, Any]) -> Diagnostic | None:
    """A Diagnostic back from `Diagnostic.to_dict()` (None when the data is not one)."""
    try:
        fix = data.get("fix")
        return Diagnostic(
            path=str(data["path"]),
            line=int(data["line"]),
            column=int(data["column"]),
            severity=Severity(data["severity"]),
            code=str(data["code"]),
            message=str(data["message"]),
            end_line=data.get("end_line"),
            end_column=data.get("end_column"),
            fix=Fix(**fix) if isinstance(fix, Mapping) else None,
        )
    except (KeyError, TypeError, ValueError):
        return None


def to_lsp_diagnostic(
    diagnostic: Diagnostic, index: LineIndex, docs: Mapping[str, str] | None = None
) -> lsp.Diagnostic:
    """One cass Diagnostic as an LSP Diagnostic; its fix travels in `data` for quick fixes."""
    start = index.line_column(diagnostic.line, diagnostic.column)
    if diagnostic.end_line is not None and diagnostic.end_column is not None:
        end = index.line_column(diagnostic.end_line, diagnostic.end_column)
    else:
        end = _word_end(index.text, start)
    href = (docs or {}).get(diagnostic.code)
    return lsp.Diagnostic(
        range=index.range(start, max(start, end)),
        message=diagnostic.message,
        severity=_SEVERITY.get(diagnostic.severity, lsp.DiagnosticSeverity.Warning),
        code=diagnostic.code,
        code_description=lsp.CodeDescription(href=href) if href else None,
        source="cass",
        data={"fix": fix_to_data(diagnostic.fix)} if diagnostic.fix else None,
    )


def _word_end(text: str, start: int) -> int:
    end = start
    while end < len(text) and (text[end].isalnum() or text[end] == "_"):
        end += 1
    return end if end > start else min(start + 1, len(text))


def word_at(text: str, offset: int) -> tuple[int, int] | None:
    """The [start, end) offsets of the identifier touching `offset`, or None."""
    start = end = offset
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
        start -= 1
    while end < len(text) and (text[end].isalnum() or text[end] == "_"):
        end += 1
    return (start, end) if end > start else None
