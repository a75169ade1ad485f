"""`Unit`: one file being ported: its tokens, the edits the passes queue, their diagnostics.

Passes never change the text directly: they queue non-overlapping replacements of byte ranges
and report diagnostics; `render()` applies the edits once, so every byte outside a rewritten
range stays exactly as it was (line endings included).
"""

from __future__ import annotations

import bisect
import re
from array import array
from collections.abc import Callable
from dataclasses import dataclass, field

from cass.models.engine import Target
from cass.models.rules.codes import DIAGNOSTIC_CODES
from cass.models.rules.lexer import Lexed, Token, Tokens, lex
from cass.runner.diagnostics import Diagnostic, Fix, Severity

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_OPEN = {"(": ")", "[": "]", "{": "}", "<<<": ">>>"}
_CLOSE = frozenset(_OPEN.values())
_BRACKETS = (*_OPEN, *_CLOSE)


@dataclass
class Unit:
    path: str
    text: str
    target: Target
    lexed: Lexed = field(init=False)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    shims: set[str] = field(default_factory=set)  # names of helper snippets the output needs
    defines: list[str] = field(default_factory=list)  # macros to define before the HIP include
    _edits: list[tuple[int, int, str]] = field(default_factory=list)
    _inserts: list[tuple[int, int, str]] = field(default_factory=list)
    _device: list[tuple[int, int]] | None = None
    _index: dict[str, array] | None = None
    _line_starts: array | None = None
    _matches: array | None = None  # per token: index of its closing bracket, or -1
    _names_made: int = 0  # names new_name() has handed out
    # How the engine ports CUDA embedded in this file (an NVRTC program's text) with its own
    # pipeline; set by the engine, so passes need not import it.
    port_embedded: Callable[[str], Unit] | None = None

    def __post_init__(self) -> None:
        self.lexed = lex(self.text)

    @property
    def code(self) -> Tokens:
        return self.lexed.code

    def new_name(self, stem: str) -> str:
        """A local name for code a pass adds (`stem1`, `stem2`, ...: numbered per unit)."""
        self._names_made += 1
        return f"{stem}{self._names_made}"

    # ------------------------------------------------------------ positions and reports

    def position(self, offset: int) -> tuple[int, int]:
        """1-based (line, column) of a character offset."""
        if self._line_starts is None:
            starts = array("i" if len(self.text) < 2**31 else "q", (0,))
            starts.extend(m.end() for m in _LINE_BREAK.finditer(self.text))
            self._line_starts = starts
        line = bisect.bisect_right(self._line_starts, offset)
        return line, offset - self._line_starts[line - 1] + 1

    def report(
        self,
        code: str,
        start: int,
        end: int,
        message: str,
        *,
        severity: Severity | None = None,
        fix: tuple[str, str] | None = None,
    ) -> None:
        """Report `code` over [start, end); `fix` is (description, replacement) for that range."""
        line, column = self.position(start)
        end_line, end_column = self.position(end)
        fix_obj = None
        if fix is not None:
            fix_obj = Fix(fix[0], line, column, end_line, end_column, fix[1])
        self.diagnostics.append(
            Diagnostic(
                path=self.path,
                line=line,
                column=column,
                severity=severity or DIAGNOSTIC_CODES[code].severity,
                code=code,
                message=message,
                end_line=end_line,
                end_column=end_column,
                fix=fix_obj,
            )
        )

    def report_tokens(self, code: str, first: Token, last: Token, message: str, **kw) -> None:
        self.report(code, first.start, last.end, message, **kw)

    # ------------------------------------------------------------ edits

    def replace(self, start: int, end: int, text: str) -> bool:
        """Queue a replacement of [start, end); False (and nothing queued) if it overlaps one."""
        i = bisect.bisect_left(self._edits, (start, -1, ""))
        if i > 0 and self._edits[i - 1][1] > start:
            return False
        if i < len(self._edits) and self._edits[i][0] < max(end, start + 1):
            return False
        self._edits.insert(i, (start, end, text))
        return True

    def insert(self, offset: int, text: str) -> bool:
        """Queue an insertion at `offset` (before any replacement starting there)."""
        i = bisect.bisect_left(self._edits, (offset, -1, ""))
        if i > 0 and self._edits[i - 1][1] > offset:
            return False
        self._inserts.append((offset, len(self._inserts), text))
        return True

    def replace_tokens(self, first: Token, last: Token, text: str) -> bool:
        return self.replace(first.start, last.end, text)

    def is_edited(self, tok: Token) -> bool:
        i = bisect.bisect_right(self._edits, (tok.start, float("inf"), ""))
        return i > 0 and self._edits[i - 1][1] > tok.start

    def render(self) -> str:
        inserts = [(offset, offset, text) for offset, _, text in sorted(self._inserts)]
        parts, pos = [], 0
        for start, end, text in sorted(self._edits + inserts, key=lambda e: (e[0], e[1] - e[0])):
            parts.append(self.text[pos:start])
            parts.append(text)
            pos = end
        parts.append(self.text[pos:])
        return "".join(parts)

    @property
    def changed(self) -> bool:
        return bool(self._edits or self._inserts)

    # ------------------------------------------------------------ device code

    def device_ranges(self) -> list[tuple[int, int]]:
        """[open brace, close brace] index pairs of `__global__` / `__device__` function bodies."""
        if self._device is None:
            self._device = _device_bodies(self)
        return self._device

    def in_device(self, index: int) -> bool:
        ranges = self.device_ranges()
        i = bisect.bisect_right(ranges, (index, len(self.code)))
        return i > 0 and ranges[i - 1][0] < index < ranges[i - 1][1]

    # ------------------------------------------------------------ token navigation

    @property
    def index(self) -> dict[str, array]:
        """Token text (identifier, bracket, `<<<`, `##` ...) -> its indices in `code` (ascending,
        an int array: 4 bytes an entry), built in one scan: passes visit only the tokens they
        need."""
        if self._index is None:
            index: dict[str, array] = {}
            for i, text in enumerate(self.lexed.texts):
                found = index.get(text)
                if found is None:
                    index[text] = array("i", (i,))
                else:
                    found.append(i)
            self._index = index
        return self._index

    def positions(self, names) -> list[int]:
        """Sorted indices of the tokens spelled like any of `names`."""
        index = self.index
        found = [i for name in names if name in index for i in index[name]]
        found.sort()
        return found

    def slice(self, first: Token, last: Token) -> str:
        """The exact source text from `first` through `last`."""
        return self.text[first.start : last.end]

    def matching(self, index: int) -> int | None:
        """Index (into `code`) of the bracket closing the one at `index`, or None."""
        if self._matches is None:
            self._matches = _match_brackets(
                self.code.pp, self.lexed.texts, self.positions(_BRACKETS)
            )
        close = self._matches[index] if 0 <= index < len(self._matches) else -1
        return None if close < 0 else close

    def call_args(self, open_index: int) -> tuple[list[tuple[int, int]], int] | None:
        """For `(` at `open_index`: ([(first, last) per argument], index of `)`), or None."""
        close = self.matching(open_index)
        if close is None:
            return None
        args, start, i = [], open_index + 1, open_index + 1
        while i < close:
            tok = self.code[i]
            if tok.text in _OPEN:
                i = self.matching(i) or i
            elif tok.text == ",":
                args.append((start, i - 1))
                start = i + 1
            i += 1
        if start <= close - 1 or args:
            args.append((start, close - 1))
        return args, close

    def arg_text(self, span: tuple[int, int]) -> str:
        return self.slice(self.code[span[0]], self.code[span[1]]) if span[0] <= span[1] else ""

    def prev_text(self, index: int, back: int = 1) -> str:
        j = index - back
        return self.code[j].text if j >= 0 else ""

    def next_text(self, index: int, ahead: int = 1) -> str:
        j = index + ahead
        return self.code[j].text if j < len(self.code) else ""


def _match_brackets(pps: array, texts: list[str], brackets: list[int]) -> array:
    """Pair brackets: per token, the index of the bracket closing it, -1 where none does. A
    directive's brackets pair only within that directive. A closer with no opener of its kind on
    top pairs with the nearest one below (the ones above stay unpaired)."""
    matches = array("i", [-1]) * len(texts)
    stack: list[int] = []
    pp_stack: list[int] = []
    pp_current = -1
    for i in brackets:
        pp = pps[i]
        if pp != pp_current:
            pp_stack, pp_current = [], pp
        active = stack if pp == -1 else pp_stack
        text = texts[i]
        if text in _OPEN:
            active.append(i)
        elif active and _OPEN[texts[active[-1]]] == text:
            matches[active.pop()] = i
        else:
            for k in range(len(active) - 2, -1, -1):
                if _OPEN[texts[active[k]]] == text:
                    matches[active[k]] = i
                    del active[k:]
                    break
    return matches


_DECL_STOPS = frozenset((";", "=", "{", "}"))


def _device_bodies(unit: Unit) -> list[tuple[int, int]]:
    ranges: list[tuple[int, int]] = []
    for i in unit.positions(("__global__", "__device__")):
        if unit.code[i].pp != -1 or (ranges and i < ranges[-1][1]):
            continue
        body = _body_after(unit, i)
        if body is not None:
            ranges.append(body)
    return ranges


def _body_after(unit: Unit, i: int) -> tuple[int, int] | None:
    """The function body following a `__device__` at `i`, or None for a variable or declaration."""
    code = unit.code
    j = i + 1
    while j < len(code) and code[j].text != "(":
        if code[j].text in _DECL_STOPS:
            return None
        if code[j].text == "__launch_bounds__" and j + 1 < len(code):
            j = unit.matching(j + 1) or j
        j += 1
    close = unit.matching(j) if j < len(code) else None
    if close is None:
        return None
    j = close + 1
    while j < len(code) and code[j].text not in ("{", ";", "="):
        j += 1
    if j < len(code) and code[j].text == "{":
        end = unit.matching(j)
        return (j, end) if end is not None else None
    return None


def make_unit(text: str, path: str, target: Target) -> Unit:
    return Unit(path=path, text=text, target=target)
