"""Long inputs cut at kernel / function boundaries, translated piecewise, put back together.

Source: a unit is everything up to and including a top-level `}` (a function, kernel, struct or
namespace) with the comments and directives before it; braces in comments, strings and character
literals do not count. Assembly (cuobjdump / nvdisasm text): a unit starts at each
`Function : name` header or `.text.name` section. Units are packed greedily into pieces that fit
the model's token budget; a unit that alone is too long is reported, never cut mid-function.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise

from cass.models.engine import Level

_SASS_UNIT = re.compile(
    r"^[ \t]*(?:Function : \S|\.section[ \t]+\.text\.|\.text\.\S+:)", re.MULTILINE
)
_NAME = re.compile(r"([A-Za-z_]\w*)\s*(?:<[^{;]*>)?\s*\([^{;]*\)[^{;()]*$", re.DOTALL)
_SASS_NAME = re.compile(r"(?:Function : |\.text\.)([\w.$]+)")
_INCLUDE = re.compile(r"^[ \t]*#[ \t]*include\b.*$", re.MULTILINE)


@dataclass(frozen=True)
class Unit:
    text: str
    first_line: int  # 1-based line of the unit's first character
    name: str  # function / kernel name ("" for other top-level units)

    @property
    def last_line(self) -> int:
        return self.first_line + self.text.rstrip("\n").count("\n")


def _skip(text: str, i: int) -> int:
    """Index after a comment, string or character literal starting at i (i itself if none)."""
    two = text[i : i + 2]
    if two == "//":
        end = text.find("\n", i)
        return len(text) if end < 0 else end
    if two == "/*":
        end = text.find("*/", i + 2)
        return len(text) if end < 0 else end + 2
    if text[i] in "\"'":
        quote, j = text[i], i + 1
        while j < len(text) and text[j] != quote and text[j] != "\n":
            j += 2 if text[j] == "\\" else 1
        return j + 1
    return i


def _source_cuts(text: str) -> list[int]:
    cuts, depth, i = [], 0, 0
    while i < len(text):
        after = _skip(text, i)
        if after != i:
            i = after
            continue
        ch = text[i]
        if ch == "#" and (i == 0 or text[text.rfind("\n", 0, i) + 1 : i].strip() == ""):
            while True:  # a directive runs to an unescaped end of line
                end = text.find("\n", i)
                if end < 0 or text[end - 1] != "\\":
                    break
                i = end + 1
            i = len(text) if end < 0 else end
            continue
        depth += (ch == "{") - (ch == "}")
        if ch == "}" and depth == 0:
            end = text.find("\n", i)
            cuts.append(len(text) if end < 0 else end + 1)
        i += 1
    return cuts


def _sass_cuts(text: str) -> list[int]:
    return [m.start() for m in _SASS_UNIT.finditer(text) if m.start() > 0] + [len(text)]


def _unit_name(level: Level, text: str) -> str:
    if level == "assembly":
        found = _SASS_NAME.search(text)
        return found.group(1) if found else ""
    code = re.sub(
        r"//[^\n]*|/\*.*?\*/|^[ \t]*#(?:[^\n]*\\\n)*[^\n]*",
        " ",
        text,
        flags=re.DOTALL | re.MULTILINE,
    )
    head = code[: code.find("{")] if "{" in code else ""
    found = _NAME.search(head)
    return found.group(1) if found else ""


def units(level: Level, text: str) -> list[Unit]:
    """`text` cut at its top-level boundaries (concatenated back, the units are `text`)."""
    cuts = (_sass_cuts if level == "assembly" else _source_cuts)(text)
    bounds = sorted({0, *[c for c in cuts if 0 < c <= len(text)], len(text)})
    out, line = [], 1
    for start, end in pairwise(bounds):
        chunk = text[start:end]
        out.append(Unit(chunk, line, _unit_name(level, chunk)))
        line += chunk.count("\n")
    if out and not out[-1].text.strip() and len(out) > 1:  # trailing blank lines join the last unit
        last = out.pop()
        out[-1] = Unit(out[-1].text + last.text, out[-1].first_line, out[-1].name)
    return out or [Unit(text, 1, "")]


class TooLong(Exception):
    def __init__(self, unit: Unit, tokens: int, budget: int) -> None:
        super().__init__(
            f"{unit.name or 'a unit'} at line {unit.first_line} needs {tokens} tokens, over the budget of {budget}"
        )
        self.unit, self.tokens, self.budget = unit, tokens, budget


def pack(pieces: list[Unit], count_tokens: Callable[[str], int], budget: int) -> list[Unit]:
    """Consecutive units joined while they fit `budget` tokens; TooLong for a unit that alone
    does not fit."""
    packed: list[Unit] = []
    current: Unit | None = None
    for unit in pieces:
        tokens = count_tokens(unit.text)
        if tokens > budget:
            raise TooLong(unit, tokens, budget)
        if current is not None and count_tokens(current.text + unit.text) <= budget:
            current = Unit(current.text + unit.text, current.first_line, current.name or unit.name)
            continue
        if current is not None:
            packed.append(current)
        current = unit
    if current is not None:
        packed.append(current)
    return packed


def reassemble(level: Level, translated: list[str]) -> str:
    """Translated pieces joined; includes repeated by later pieces are dropped."""
    seen: set[str] = set()
    out = []
    for piece in translated:
        if level == "source":
            piece = _INCLUDE.sub(lambda m: _first_time(m.group(0), seen), piece)
        out.append(piece if piece.endswith("\n") else piece + "\n")
    return "".join(out)


def _first_time(line: str, seen: set[str]) -> str:
    key = " ".join(line.split())
    if key in seen:
        return ""
    seen.add(key)
    return line
