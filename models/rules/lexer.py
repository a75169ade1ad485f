"""A C++ lexer over the whole text: comments, string and character literals (with encoding
prefixes and raw strings), numbers, identifiers, punctuators, `#include` header names,
whitespace with line continuations and line endings are recognised in one left-to-right scan.

One compiled scanner splits the text into (blanks, token) pairs in C; token offsets are running
sums of their lengths and most kinds follow from the first character, so Python touches each
token about once (to make its `Token`). Only significant tokens become `Token` objects
(whitespace and comments are blanks: the passes never look at them and rendering works on
character offsets, so every byte between tokens is kept as it was). Tokens of a preprocessing
directive carry the directive's number in `pp`. Problems (an unterminated comment or literal, a
NUL byte) are returned, never raised.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import accumulate, repeat
from operator import add, itemgetter, sub

_NL = r"(?:\r\n|\n|\r)"
_PREFIX = r"(?:u8|u|U|L)?"
_COMMENT = rf"//[^\r\n\\]*(?:\\(?:{_NL})?[^\r\n\\]*)*|/\*.*?\*/"
# One alternative per token kind, most frequent first (`slash` is `/`, `/=`, `.` and `...`).
_KINDS = rf"""
      (?P<ident>(?!{_PREFIX}R?["'])[^\W\d]\w*)
    | (?P<punct>(?=[^/"'.\d])(?:<<<|>>>|<<=|>>=|->\*|::|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*%&|^]=|\#\#
                |[{{}}\[\]();:,<>+\-*%&|^!~?=\#@$\\`]))
    | (?P<number>\.?[0-9](?:[eEpP][+-]|[\w.'])*)
    | (?P<raw>{_PREFIX}R"(?P<delim>[^ ()\\\t\v\f\r\n"]{{0,16}})\(.*?\)(?P=delim)")
    | (?P<string>{_PREFIX}"[^"\\\r\n]*(?:\\(?:{_NL}|.)[^"\\\r\n]*)*")
    | (?P<char>{_PREFIX}'[^'\\\r\n]*(?:\\(?:{_NL}|.)[^'\\\r\n]*)*')
    | (?P<unterminated>/\*.*|{_PREFIX}R?"[^\r\n]*|{_PREFIX}'[^\r\n]*)
    | (?P<slash>\.\.\.|/=|[/.])
    | (?P<bad>[^ \t\f\v\r\n])
"""
# Whitespace, line continuations and comments, possessive: never re-scanned when no token follows.
_BLANKS = rf"(?:[ \t\f\v\r\n]++|\\{_NL}|{_COMMENT})*+"
# The scanner: each match is the blanks before a token, the token ('' at the end of the text) and
# a raw string's delimiter. Matches are contiguous from offset 0, so token offsets are running
# sums of the lengths (no match objects).
_SCAN_RE = re.compile(
    f"({_BLANKS})(" + re.sub(r"\(\?P<(?!delim)\w+>", "(?:", _KINDS) + r"|\Z)",
    re.VERBOSE | re.DOTALL,
)
# Classifies one token that its first character leaves ambiguous.
_KIND_RE = re.compile(_KINDS, re.VERBOSE | re.DOTALL)

_LOGICAL_LINE = re.compile(r"(?:[^\\\r\n]|\\(?:\r\n|\n|\r)?)*")


class Token:
    """One lexeme. `pp` is the number of the directive it belongs to, or -1 in ordinary code."""

    __slots__ = ("kind", "pp", "start", "text")

    def __init__(self, kind: str, text: str, start: int) -> None:
        self.kind = kind
        self.text = text
        self.start = start
        self.pp = -1

    @property
    def end(self) -> int:
        return self.start + len(self.text)

    def __repr__(self) -> str:
        return f"Token({self.kind}, {self.text!r}, {self.start})"


@dataclass(frozen=True)
class LexProblem:
    """Something malformed at `offset`: `code` names it in the diagnostic codes table."""

    offset: int
    code: str
    message: str


@dataclass
class Lexed:
    code: list[Token]  # the significant tokens, in order
    directives: list[tuple[int, int]]  # per directive: [first, last] indices into `code`
    problems: list[LexProblem]
    texts: list[str] = field(default_factory=list)  # the text of each token in `code`


_AMBIGUOUS = "?"
# Kind by first character, where that alone decides it; `_AMBIGUOUS` sends a token to _KIND_RE
# (prefixed literals start like identifiers, `.` starts numbers and punctuators, `/` unterminated
# comments and punctuators, quotes unterminated literals).
_KIND_OF_FIRST = {
    **dict.fromkeys("abcdefghijklmnopqrstvwxyzABCDEFGHIJKMNOPQSTVWXYZ_", "ident"),
    **dict.fromkeys("0123456789", "number"),
    **dict.fromkeys("{}[]();:,<>+-*%&|^!~?=#@$\\`", "punct"),
}
_KIND_RENAMES = {"slash": "punct", "raw": "string"}


def _starts_line(text: str, offset: int) -> bool:
    """Only blanks between the start of its line and `offset` (scans the indent, not the file)."""
    i = offset
    while i > 0 and text[i - 1] in " \t\f\v":
        i -= 1
    return i == 0 or text[i - 1] in "\r\n"


def _offsets(blanks: list[str], texts: list[str]) -> list[int]:
    """Start offset of every token: blanks and tokens alternate without gaps from offset 0."""
    lengths = list(map(len, texts))
    ends = accumulate(map(add, map(len, blanks), lengths))
    return list(map(sub, ends, lengths))


def _classify(
    kinds: list[str], texts: list[str], starts: list[int], source: str
) -> list[LexProblem]:
    """Settle the ambiguous kinds in place; report unterminated literals and NUL bytes."""
    problems = []
    i = -1
    for _ in range(kinds.count(_AMBIGUOUS)):
        i = kinds.index(_AMBIGUOUS, i + 1)
        text = texts[i]
        kind = _KIND_RE.match(source, starts[i]).lastgroup  # type: ignore[union-attr]
        kind = _KIND_RENAMES.get(kind, kind)  # type: ignore[arg-type]
        if kind == "unterminated":
            comment = text.startswith("/*")
            kind = "comment" if comment else "string"
            what = (
                "/* comment"
                if comment
                else ("character literal" if text[0] == "'" else "string literal")
            )
            problems.append(
                LexProblem(starts[i], "CASS001" if comment else "CASS002", f"unterminated {what}")
            )
        elif kind == "bad" and text == "\0":
            problems.append(LexProblem(starts[i], "CASS003", "NUL byte in the source"))
        kinds[i] = kind
    return problems


def _tokens(text: str) -> tuple[list[Token], list[str], list[LexProblem]]:
    """The significant tokens, their texts and the problems found."""
    # [gap, blanks, token, raw-string delimiter] per match, then the trailing blanks
    parts = _SCAN_RE.split(text)
    texts = parts[2::4]
    while texts and not texts[-1]:  # the end of the text
        texts.pop()
    starts = _offsets(parts[1::4], texts)
    del parts  # the blanks' strings: as many objects as tokens, no longer needed
    # One string object per distinct token text (identifiers and keywords repeat): the split made
    # one per occurrence, ~50 bytes each, most of a large file's memory.
    distinct: dict[str, str] = {}
    texts = list(map(distinct.setdefault, texts, texts))
    del distinct
    kinds = list(map(_KIND_OF_FIRST.get, map(itemgetter(0), texts), repeat(_AMBIGUOUS)))
    problems = _classify(kinds, texts, starts, text)
    return list(map(Token, kinds, texts, starts)), texts, problems


_INCLUDE_WORDS = frozenset(("include", "include_next", "import"))


def _indices_of(texts: list[str], value: str) -> list[int]:
    """Every index of `value` in `texts` (the scanning is list.index's, in C)."""
    found, i = [], -1
    for _ in range(texts.count(value)):
        i = texts.index(value, i + 1)
        found.append(i)
    return found


def _mark_directives(
    tokens: list[Token], texts: list[str], text: str
) -> tuple[list[Token], list[str], list[tuple[int, int]]]:
    """Number directive tokens (`pp`) and merge `#include <...>` names into 'header' tokens.

    Returns the tokens, their texts and, per directive, its [first, last] indices among them.
    """
    starts = [i for i in _indices_of(texts, "#") if _starts_line(text, tokens[i].start)]
    sizes = []
    for number, i in enumerate(starts):
        line_end = _LOGICAL_LINE.match(text, tokens[i].start).end()  # type: ignore[union-attr]
        j = i
        while j < len(tokens) and tokens[j].start < line_end:
            tokens[j].pp = number
            j += 1
        sizes.append(j - i)
    merges = [_header_name(tokens, i, text) for i in starts]
    removed = [last - first if first >= 0 else 0 for first, last, _ in merges]
    sizes = [size - r for size, r in zip(sizes, removed)]
    firsts = [i - r for i, r in zip(starts, accumulate([0, *removed]))]
    if any(removed):
        tokens, texts = _spliced(tokens, texts, [m for m in merges if m[0] >= 0])
    return tokens, texts, [(first, first + size - 1) for first, size in zip(firsts, sizes)]


_NO_HEADER = (-1, -1, None)


def _header_name(tokens: list[Token], i: int, text: str) -> tuple[int, int, Token | None]:
    """For `#include <...>` at tokens[i]: the indices of `<` and `>` and the 'header' token that
    replaces them; `_NO_HEADER` for any other directive."""
    number = tokens[i].pp
    if (
        i + 2 >= len(tokens)
        or tokens[i + 1].text not in _INCLUDE_WORDS
        or tokens[i + 2].text != "<"
    ):
        return _NO_HEADER
    j = i + 2
    while j < len(tokens) and tokens[j].pp == number and tokens[j].text not in (">", ">>", ">>>"):
        j += 1
    if j == len(tokens) or tokens[j].pp != number or tokens[j].text != ">":
        return _NO_HEADER
    header = Token("header", text[tokens[i + 2].start : tokens[j].end], tokens[i + 2].start)
    header.pp = number
    return i + 2, j, header


def _spliced(
    tokens: list[Token], texts: list[str], merges: list[tuple[int, int, Token | None]]
) -> tuple[list[Token], list[str]]:
    """Replace each [first, last] run of tokens by its merged token, in one pass."""
    out_tokens: list[Token] = []
    out_texts: list[str] = []
    pos = 0
    for first, last, merged in merges:
        assert merged is not None
        out_tokens += tokens[pos:first]
        out_tokens.append(merged)
        out_texts += texts[pos:first]
        out_texts.append(merged.text)
        pos = last + 1
    out_tokens += tokens[pos:]
    out_texts += texts[pos:]
    return out_tokens, out_texts


def lex(text: str) -> Lexed:
    tokens, texts, problems = _tokens(text)
    tokens, texts, directives = _mark_directives(tokens, texts, text)
    return Lexed(tokens, directives, problems, texts)
