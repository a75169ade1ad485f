"""A C++ lexer over the whole text: comments, string and character literals (with encoding
prefixes and raw strings), numbers, identifiers, punctuators, `#include` header names,
whitespace with line continuations and line endings are recognised in one left-to-right scan.

Only significant tokens become `Token` objects (whitespace and comments are skipped: the passes
never look at them and rendering works on character offsets, so every byte between tokens is
kept as it was). Tokens of a preprocessing directive carry the directive's number in `pp`.
Problems (an unterminated comment or literal, a NUL byte) are returned, never raised.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_NL = r"(?:\r\n|\n|\r)"
_PREFIX = r"(?:u8|u|U|L)?"
# Each match is one token with the blanks before it; the most frequent kinds come first.
_TOKEN_RE = re.compile(
    rf"""
    [ \t\f\v\r\n]*(?:\\{_NL}[ \t\f\v\r\n]*)*
    (?:
      (?P<ident>(?!{_PREFIX}R?["'])[^\W\d]\w*)
    | (?P<punct>(?=[^/"'.\d])(?:<<<|>>>|<<=|>>=|->\*|::|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*%&|^]=|\#\#
                |[{{}}\[\]();:,<>+\-*%&|^!~?=\#@$\\`]))
    | (?P<number>\.?[0-9](?:[eEpP][+-]|[\w.'])*)
    | (?P<comment>//[^\r\n\\]*(?:\\(?:{_NL})?[^\r\n\\]*)*|/\*.*?\*/)
    | (?P<raw>{_PREFIX}R"(?P<delim>[^ ()\\\t\v\f\r\n"]{{0,16}})\(.*?\)(?P=delim)")
    | (?P<string>{_PREFIX}"[^"\\\r\n]*(?:\\(?:{_NL}|.)[^"\\\r\n]*)*")
    | (?P<char>{_PREFIX}'[^'\\\r\n]*(?:\\(?:{_NL}|.)[^'\\\r\n]*)*')
    | (?P<unterminated>/\*.*|{_PREFIX}R?"[^\r\n]*|{_PREFIX}'[^\r\n]*)
    | (?P<slash>\.\.\.|/=|[/.])
    | (?P<bad>[^ \t\f\v\r\n])
    )
    """,
    re.VERBOSE | re.DOTALL,
)

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


_SPECIAL = frozenset(("unterminated", "bad", "raw"))


def _starts_line(text: str, offset: int) -> bool:
    line_start = max(text.rfind("\n", 0, offset), text.rfind("\r", 0, offset)) + 1
    return not text[line_start:offset].strip(" \t\f\v")


def _raw_tokens(text: str, problems: list[LexProblem]) -> list[Token]:
    """Significant tokens and line breaks (which end directives)."""
    tokens = [
        Token(k, m.group(k), m.start(k))
        for m in _TOKEN_RE.finditer(text)
        if (k := m.lastgroup) != "comment"
    ]
    for tok in [t for t in tokens if t.kind == "slash"]:
        tok.kind = "punct"
    for tok in [t for t in tokens if t.kind in _SPECIAL or t.text == "#"]:
        if tok.kind == "punct":
            if tok.text == "#" and _starts_line(text, tok.start):
                tok.pp = -2  # a directive starts here (see _mark_directives)
        elif tok.kind == "raw":
            tok.kind = "string"
        elif tok.kind == "unterminated":
            comment = tok.text.startswith("/*")
            tok.kind = "comment" if comment else "string"
            what = (
                "/* comment"
                if comment
                else ("character literal" if tok.text[0] == "'" else "string literal")
            )
            problems.append(
                LexProblem(tok.start, "CASS001" if comment else "CASS002", f"unterminated {what}")
            )
        elif tok.text == "\0":
            problems.append(LexProblem(tok.start, "CASS003", "NUL byte in the source"))
    return tokens


_INCLUDE_WORDS = frozenset(("include", "include_next", "import"))


def _mark_directives(tokens: list[Token], text: str) -> tuple[list[Token], list[tuple[int, int]]]:
    """Number directive tokens (`pp`), merge `#include <...>` names, drop the line breaks.

    Returns the significant tokens and, per directive, its [first, last] indices among them.
    """
    starts = [i for i, t in enumerate(tokens) if t.pp == -2]
    sizes = []
    for number, i in enumerate(starts):
        line_end = _LOGICAL_LINE.match(text, tokens[i].start).end()
        j = i
        while j < len(tokens) and tokens[j].start < line_end:
            tokens[j].pp = number
            j += 1
        sizes.append(j - i)
    for number in range(len(starts) - 1, -1, -1):
        sizes[number] -= _merge_header_name(tokens, starts[number], text)
    code = tokens
    if not starts:
        return code, []
    firsts = [k for k, t in enumerate(code) if t.pp >= 0 and (k == 0 or code[k - 1].pp != t.pp)]
    return code, [(first, first + size - 1) for first, size in zip(firsts, sizes)]


def _merge_header_name(tokens: list[Token], i: int, text: str) -> int:
    """Merge `<` ... `>` after `#include` at tokens[i] into one 'header' token; tokens removed."""
    number = tokens[i].pp
    if (
        i + 2 >= len(tokens)
        or tokens[i + 1].text not in _INCLUDE_WORDS
        or tokens[i + 2].text != "<"
    ):
        return 0
    j = i + 2
    while j < len(tokens) and tokens[j].pp == number and tokens[j].text not in (">", ">>", ">>>"):
        j += 1
    if j == len(tokens) or tokens[j].pp != number or tokens[j].text != ">":
        return 0
    header = Token("header", text[tokens[i + 2].start : tokens[j].end], tokens[i + 2].start)
    header.pp = number
    tokens[i + 2 : j + 1] = [header]
    return j - (i + 2)


def lex(text: str) -> Lexed:
    problems: list[LexProblem] = []
    tokens = _raw_tokens(text, problems)
    code, directives = _mark_directives(tokens, text)
    return Lexed(code, directives, problems)
