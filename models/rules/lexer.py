"""A C++ lexer that keeps every byte: the concatenation of all token texts is the input.

Comments, string and character literals (with encoding prefixes and raw strings), numbers,
identifiers, punctuators, `#include` header names, whitespace with line continuations and
line endings are tokens. Tokens of a preprocessing directive carry the directive's number in
`pp`. Problems (an unterminated comment or literal, a NUL byte) are returned, never raised:
the lexer always reaches the end of the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_NL = r"(?:\r\n|\n|\r)"
_PREFIX = r"(?:u8|u|U|L)?"
_TOKEN_RE = re.compile(
    rf"""
    (?P<nl>{_NL})
  | (?P<ws>(?:[ \t\f\v]|\\{_NL})+)
  | (?P<comment>//(?:[^\r\n\\]|\\{_NL}?)*|/\*.*?\*/)
  | (?P<raw>{_PREFIX}R"(?P<delim>[^ ()\\\t\v\f\r\n"]{{0,16}})\(.*?\)(?P=delim)")
  | (?P<string>{_PREFIX}"(?:[^"\\\r\n]|\\(?:{_NL}|.))*")
  | (?P<char>{_PREFIX}'(?:[^'\\\r\n]|\\(?:{_NL}|.))*')
  | (?P<unterminated>/\*|"|')
  | (?P<number>\.?[0-9](?:[eEpP][+-]|[\w.'])*)
  | (?P<ident>[^\W\d]\w*)
  | (?P<punct><<<|>>>|<<=|>>=|->\*|\.\.\.|::|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^]=|\#\#
              |[{{}}\[\]();:,.<>+\-*/%&|^!~?=\#@$\\`])
  | (?P<bad>.)
    """,
    re.VERBOSE | re.DOTALL,
)

KINDS = ("nl", "ws", "comment", "raw", "string", "char", "number", "ident", "punct", "bad")
TRIVIA = frozenset(("nl", "ws", "comment"))


class Token:
    """One lexeme. `pp` is the number of the directive it belongs to, or -1 in ordinary code."""

    __slots__ = ("kind", "text", "start", "end", "pp", "index")

    def __init__(self, kind: str, text: str, start: int, pp: int = -1) -> None:
        self.kind = kind
        self.text = text
        self.start = start
        self.end = start + len(text)
        self.pp = pp
        self.index = -1  # position among the significant (non-trivia) tokens

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
    tokens: list[Token]  # every token, trivia included
    code: list[Token]  # the significant tokens, in order
    directives: list[tuple[int, int]]  # per directive: [first, last] indices into `code`
    problems: list[LexProblem]


def _unterminated(text: str, start: int) -> tuple[str, int, LexProblem]:
    """Kind, end offset and problem for the unmatched opener at `start`."""
    if text.startswith("/*", start):
        return "comment", len(text), LexProblem(start, "CASS001", "unterminated /* comment")
    line_end = len(text)
    for stop in ("\n", "\r"):
        found = text.find(stop, start)
        if found != -1:
            line_end = min(line_end, found)
    what = "character" if text[start] == "'" else "string"
    return "string", line_end, LexProblem(start, "CASS002", f"unterminated {what} literal")


def _raw_tokens(text: str, problems: list[LexProblem]) -> list[Token]:
    tokens: list[Token] = []
    pos, size = 0, len(text)
    while pos < size:
        for m in _TOKEN_RE.finditer(text, pos):
            kind = m.lastgroup
            if kind == "delim":  # the named group inside `raw`
                kind = "raw"
            if kind == "unterminated":
                kind, end, problem = _unterminated(text, m.start())
                problems.append(problem)
                tokens.append(Token(kind, text[m.start() : end], m.start()))
                pos = end
                break
            if kind == "bad" and m.group() == "\0":
                problems.append(LexProblem(m.start(), "CASS003", "NUL byte in the source"))
            tokens.append(Token(kind, m.group(), m.start()))
        else:
            pos = size
    for t in tokens:
        if t.kind == "raw":
            t.kind = "string"
    return tokens


def _mark_directives(tokens: list[Token]) -> tuple[list[Token], list[tuple[int, int]]]:
    """Fill `pp`, merge `#include <...>` header names into one token, collect `code`."""
    code: list[Token] = []
    directives: list[tuple[int, int]] = []
    at_line_start, current = True, -1
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        kind = tok.kind
        if kind == "nl":
            if current != -1:
                directives.append((directives_start, len(code) - 1))
            at_line_start, current = True, -1
            i += 1
            continue
        if kind in TRIVIA:
            tok.pp = current
            i += 1
            continue
        if at_line_start and tok.text == "#":
            current = len(directives)
            directives_start = len(code)
        at_line_start = False
        tok.pp = current
        if current != -1 and tok.text == "<" and code and code[-1].text in ("include", "include_next", "import"):
            i = _merge_header_name(tokens, i)
            tok = tokens[i]
            tok.pp = current
        tok.index = len(code)
        code.append(tok)
        i += 1
    if current != -1:
        directives.append((directives_start, len(code) - 1))
    return code, directives


def _merge_header_name(tokens: list[Token], i: int) -> int:
    """Merge tokens from `<` up to the closing `>` on the same line into one 'header' token."""
    j = i
    while j < len(tokens) and tokens[j].kind != "nl" and tokens[j].text not in (">", ">>", ">>>"):
        j += 1
    if j == len(tokens) or tokens[j].kind == "nl":
        return i
    if tokens[j].text != ">":  # `>>` ends the name and leaves a stray `>`: keep the tokens
        return i
    merged = Token("header", "".join(t.text for t in tokens[i : j + 1]), tokens[i].start)
    tokens[i : j + 1] = [merged]
    return i


def lex(text: str) -> Lexed:
    problems: list[LexProblem] = []
    tokens = _raw_tokens(text, problems)
    code, directives = _mark_directives(tokens)
    return Lexed(tokens, code, directives, problems)
