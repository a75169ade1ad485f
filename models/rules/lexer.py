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
from array import array
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import accumulate, repeat
from operator import add, itemgetter, sub
from typing import overload

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

    def __init__(self, kind: str, text: str, start: int, pp: int = -1) -> None:
        self.kind = kind
        self.text = text
        self.start = start
        self.pp = pp

    @property
    def end(self) -> int:
        return self.start + len(self.text)

    def __repr__(self) -> str:
        return f"Token({self.kind}, {self.text!r}, {self.start})"


# Token kinds, numbered for `Tokens.kinds` (one byte a token).
KINDS = ("ident", "number", "punct", "string", "char", "comment", "header", "bad")
_KIND_CODE = {kind: code for code, kind in enumerate(KINDS)}


class Tokens:
    """The significant tokens of a file as parallel arrays: texts (one shared string object per
    distinct spelling), start offsets, kinds and directive numbers, about 17 bytes a token where a
    `Token` object costs over 100. Indexing makes the `Token` on demand; passes that scan many
    tokens read the arrays (`texts`, `pp`) directly."""

    __slots__ = ("kinds", "pp", "starts", "texts")

    def __init__(self, texts: list[str], starts: array, kinds: bytearray, pp: array) -> None:
        self.texts = texts
        self.starts = starts
        self.kinds = kinds
        self.pp = pp

    def __len__(self) -> int:
        return len(self.texts)

    def __bool__(self) -> bool:
        return bool(self.texts)

    @overload
    def __getitem__(self, i: int) -> Token: ...
    @overload
    def __getitem__(self, i: slice) -> list[Token]: ...
    def __getitem__(self, i: int | slice) -> Token | list[Token]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self.texts)))]
        return Token(KINDS[self.kinds[i]], self.texts[i], self.starts[i], self.pp[i])

    def __iter__(self) -> Iterator[Token]:
        return map(Token, map(KINDS.__getitem__, self.kinds), self.texts, self.starts, self.pp)

    def kind(self, i: int) -> str:
        return KINDS[self.kinds[i]]

    def end(self, i: int) -> int:
        return self.starts[i] + len(self.texts[i])


@dataclass(frozen=True)
class LexProblem:
    """Something malformed at `offset`: `code` names it in the diagnostic codes table."""

    offset: int
    code: str
    message: str


@dataclass
class Lexed:
    code: Tokens  # the significant tokens, in order
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
) -> tuple[list[LexProblem], int | None]:
    """Settle the ambiguous kinds in place; report unterminated literals and NUL bytes.

    `texts` may come from scanning a piece of `source`: the second result is the index of the
    first token whose extent in the whole source differs (a raw string or comment running past
    the piece), before which the piece's tokens are exact; None when all are."""
    problems = []
    i = -1
    for _ in range(kinds.count(_AMBIGUOUS)):
        i = kinds.index(_AMBIGUOUS, i + 1)
        text = texts[i]
        match = _KIND_RE.match(source, starts[i])
        assert match is not None  # the `bad` alternative matches any character
        if match.end() != starts[i] + len(text):
            return problems, i
        kind = _KIND_RENAMES.get(match.lastgroup, match.lastgroup)  # type: ignore[arg-type]
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
    return problems, None


# Characters scanned at a time: the scanner makes a few string objects per token, so a piece
# bounds that temporary memory; only the compact arrays of `Tokens` grow with the file.
_PIECE = 1 << 20


def _tokens(text: str) -> tuple[Tokens, list[LexProblem]]:
    """The significant tokens and the problems found, scanned a piece of the text at a time.

    A piece's last two tokens may be cut by its end, so they are scanned again with the next piece;
    a token whose extent in the whole text differs from the piece's (a raw string or comment
    longer than the rest of the piece) ends the piece before it; a piece with nothing exact in it
    is doubled until it has (a comment of megabytes) or reaches the end."""
    texts: list[str] = []
    starts = array("i" if len(text) < 2**31 else "q")
    kinds = bytearray()
    problems: list[LexProblem] = []
    # One string object per distinct token text (identifiers and keywords repeat): the scanner
    # makes one per occurrence, ~50 bytes each.
    distinct: dict[str, str] = {}
    pos, size = 0, _PIECE
    while True:
        final = pos + size >= len(text)
        parts = _SCAN_RE.split(text[pos:] if final else text[pos : pos + size])
        piece_texts = parts[2::4]
        while piece_texts and not piece_texts[-1]:  # the end of the piece
            piece_texts.pop()
        keep = len(piece_texts) if final else len(piece_texts) - 2
        del piece_texts[max(keep, 0) :]
        piece_starts = [pos + start for start in _offsets(parts[1::4], piece_texts)]
        del parts  # the blanks' strings
        piece_kinds = list(
            map(_KIND_OF_FIRST.get, map(itemgetter(0), piece_texts), repeat(_AMBIGUOUS))
        )
        found, cut = _classify(piece_kinds, piece_texts, piece_starts, text)
        if cut is not None:
            keep = cut
            problems += (p for p in found if p.offset < piece_starts[cut])
        else:
            problems += found
        if keep <= 0 and not final:
            size *= 2
            continue
        texts += map(distinct.setdefault, piece_texts[:keep], piece_texts[:keep])
        starts.extend(piece_starts[:keep])
        kinds += bytes(map(_KIND_CODE.__getitem__, piece_kinds[:keep]))
        if final:
            break
        pos, size = piece_starts[keep - 1] + len(piece_texts[keep - 1]), _PIECE
    pp = array("i", [-1]) * len(texts)
    return Tokens(texts, starts, kinds, pp), problems


_INCLUDE_WORDS = frozenset(("include", "include_next", "import"))


def _indices_of(texts: list[str], value: str) -> list[int]:
    """Every index of `value` in `texts` (the scanning is list.index's, in C)."""
    found, i = [], -1
    for _ in range(texts.count(value)):
        i = texts.index(value, i + 1)
        found.append(i)
    return found


def _mark_directives(tokens: Tokens, text: str) -> tuple[Tokens, list[tuple[int, int]]]:
    """Number directive tokens (`pp`) and merge `#include <...>` names into 'header' tokens.

    Returns the tokens and, per directive, its [first, last] indices among them.
    """
    texts, starts, pp = tokens.texts, tokens.starts, tokens.pp
    firsts = [i for i in _indices_of(texts, "#") if _starts_line(text, starts[i])]
    sizes = []
    for number, i in enumerate(firsts):
        line_end = _LOGICAL_LINE.match(text, starts[i]).end()  # type: ignore[union-attr]
        j = i
        while j < len(texts) and starts[j] < line_end:
            pp[j] = number
            j += 1
        sizes.append(j - i)
    merges = [_header_name(tokens, i, text) for i in firsts]
    removed = [last - first if first >= 0 else 0 for first, last, _ in merges]
    sizes = [size - r for size, r in zip(sizes, removed)]
    firsts = [i - r for i, r in zip(firsts, accumulate([0, *removed]))]
    if any(removed):
        tokens = _spliced(tokens, [m for m in merges if m[0] >= 0])
    return tokens, [(first, first + size - 1) for first, size in zip(firsts, sizes)]


_NO_HEADER = (-1, -1, "")


def _header_name(tokens: Tokens, i: int, text: str) -> tuple[int, int, str]:
    """For `#include <...>` at token i: the indices of `<` and `>` and the header name's text
    (`<...>`, which replaces them); `_NO_HEADER` for any other directive."""
    texts, pp = tokens.texts, tokens.pp
    number = pp[i]
    if i + 2 >= len(texts) or texts[i + 1] not in _INCLUDE_WORDS or texts[i + 2] != "<":
        return _NO_HEADER
    j = i + 2
    while j < len(texts) and pp[j] == number and texts[j] not in (">", ">>", ">>>"):
        j += 1
    if j == len(texts) or pp[j] != number or texts[j] != ">":
        return _NO_HEADER
    return i + 2, j, text[tokens.starts[i + 2] : tokens.starts[j] + 1]


def _spliced(tokens: Tokens, merges: list[tuple[int, int, str]]) -> Tokens:
    """Replace each [first, last] run of tokens by one 'header' token, in one pass."""
    texts: list[str] = []
    starts = array(tokens.starts.typecode)
    kinds = bytearray()
    pp = array("i")
    header = _KIND_CODE["header"]
    pos = 0
    for first, last, name in merges:
        texts += tokens.texts[pos:first]
        texts.append(name)
        starts += tokens.starts[pos : first + 1]
        kinds += tokens.kinds[pos:first]
        kinds.append(header)
        pp += tokens.pp[pos : first + 1]
        pos = last + 1
    texts += tokens.texts[pos:]
    starts += tokens.starts[pos:]
    kinds += tokens.kinds[pos:]
    pp += tokens.pp[pos:]
    return Tokens(texts, starts, kinds, pp)


def lex(text: str) -> Lexed:
    tokens, problems = _tokens(text)
    tokens, directives = _mark_directives(tokens, text)
    return Lexed(tokens, directives, problems, tokens.texts)
