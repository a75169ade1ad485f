"""Differential comparison of two program outputs: token-wise, numbers with tolerance.

Text is split into tokens: numbers (integers, floats in any notation, hex, NaN/Inf) and the runs
of other non-space characters between them. Numbers agree when
`|actual - expected| <= atol + rtol * |expected|` (NaN equals NaN, whatever its sign; infinities
must agree in sign); everything else must be identical. Whitespace only separates tokens. Lines
matching an `ignore_lines` regex are dropped on both sides first. Output files are compared as
text, as exact bytes, or as typed little-endian arrays element by element.
"""

from __future__ import annotations

import math
import re
import struct
from dataclasses import asdict, dataclass
from typing import Iterator

from cass.runner.results import RunResult
from cass.runner.spec import ARRAY_FORMATS, OutputFile, RunSpec

NUMBER = r"""
    [+-]?(?:
        0[xX][0-9a-fA-F]+
      | (?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?
      | (?:nan|inf(?:inity)?)(?![A-Za-z])
    )
"""
NUMBER_RE = re.compile(rf"(?<!\w)(?<!\d\.){NUMBER}(?!\w)(?!\.\d)", re.VERBOSE | re.IGNORECASE)
MAX_REPORTED = 10


@dataclass(frozen=True)
class Token:
    text: str
    line: int  # 1-based line in the original output
    value: float | int | None  # None for non-numeric tokens


@dataclass(frozen=True)
class Mismatch:
    """One difference: where (stdout, exit_code, file:NAME), which line/element, both values."""

    where: str
    line: int | None
    expected: str
    actual: str
    message: str
    expected_context: str = ""
    actual_context: str = ""

    def to_dict(self) -> dict:
        return asdict(self)

    def render(self) -> str:
        at = f"{self.where}:{self.line}" if self.line is not None else self.where
        return f"{at}: {self.message}: expected {self.expected!r}, got {self.actual!r}"


def parse_number(text: str) -> float | int:
    body = text.lstrip("+-")
    sign = -1 if text.startswith("-") else 1
    low = body.lower()
    if low.startswith("0x"):
        return sign * int(body, 16)
    if low.startswith("nan"):
        return math.nan
    if low.startswith("inf"):
        return sign * math.inf
    if re.fullmatch(r"\d+", body):
        return sign * int(body)
    return float(text)


def tokenize(text: str, ignore: tuple[str, ...] = ()) -> list[Token]:
    patterns = [re.compile(p) for p in ignore]
    tokens: list[Token] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if any(p.search(line) for p in patterns):
            continue
        tokens += _line_tokens(line, number)
    return tokens


def _line_tokens(line: str, number: int) -> Iterator[Token]:
    """Numbers, and the runs of other non-space characters around them."""
    for chunk in line.split():
        pos = 0
        for m in NUMBER_RE.finditer(chunk):
            if m.start() > pos:
                yield Token(chunk[pos : m.start()], number, None)
            yield Token(m.group(0), number, parse_number(m.group(0)))
            pos = m.end()
        if pos < len(chunk):
            yield Token(chunk[pos:], number, None)


def numbers_close(expected: float | int, actual: float | int, rtol: float, atol: float) -> bool:
    if isinstance(expected, int) and isinstance(actual, int) and expected == actual:
        return True
    e, a = float(expected), float(actual)
    if math.isnan(e) or math.isnan(a):
        return math.isnan(e) and math.isnan(a)
    if math.isinf(e) or math.isinf(a):
        return e == a
    return abs(a - e) <= atol + rtol * abs(e)


def _line(text: str, number: int) -> str:
    lines = text.splitlines()
    return lines[number - 1].strip() if 0 < number <= len(lines) else ""


def _token_differs(e: Token, a: Token, rtol: float, atol: float) -> str | None:
    if e.value is not None and a.value is not None:
        if numbers_close(e.value, a.value, rtol, atol):
            return None
        return f"numbers differ beyond rtol={rtol:g}, atol={atol:g}"
    if e.text == a.text:
        return None
    return "text differs"


def compare_text(
    where: str, expected: str, actual: str, spec: RunSpec, limit: int = MAX_REPORTED
) -> list[Mismatch]:
    """Token-wise comparison; the first `limit` mismatches, each with its lines as context."""
    exp, act = tokenize(expected, spec.ignore_lines), tokenize(actual, spec.ignore_lines)
    found: list[Mismatch] = []
    for e, a in zip(exp, act):
        why = _token_differs(e, a, spec.rtol, spec.atol)
        if why:
            found.append(Mismatch(where, e.line, e.text, a.text, why,
                                  _line(expected, e.line), _line(actual, a.line)))  # fmt: skip
            if len(found) >= limit:
                return found
    if len(exp) != len(act):
        found.append(_length_mismatch(where, exp, act, expected, actual))
    return found


def _length_mismatch(where: str, exp: list[Token], act: list[Token], e_text: str, a_text: str) -> Mismatch:
    n = min(len(exp), len(act))
    if len(exp) > n:
        first = exp[n]
        return Mismatch(where, first.line, first.text, "<end of output>",
                        f"output ends early: {len(exp) - n} more token(s) expected",
                        _line(e_text, first.line), "")  # fmt: skip
    first = act[n]
    return Mismatch(where, first.line, "<end of output>", first.text,
                    f"extra output: {len(act) - n} more token(s) than the reference",
                    "", _line(a_text, first.line))  # fmt: skip


def _elements(data: bytes, fmt: str) -> Iterator[float | int]:
    code = ARRAY_FORMATS[fmt]
    usable = len(data) - len(data) % struct.calcsize(code)
    return (v[0] for v in struct.iter_unpack("<" + code, data[:usable]))


def compare_array(
    where: str, expected: bytes, actual: bytes, fmt: str, spec: RunSpec, limit: int = MAX_REPORTED
) -> list[Mismatch]:
    found: list[Mismatch] = []
    size = struct.calcsize(ARRAY_FORMATS[fmt])
    if len(expected) != len(actual):
        found.append(Mismatch(where, None, f"{len(expected) // size} x {fmt}",
                              f"{len(actual) // size} x {fmt}", "array lengths differ"))  # fmt: skip
    for index, (e, a) in enumerate(zip(_elements(expected, fmt), _elements(actual, fmt))):
        if not numbers_close(e, a, spec.rtol, spec.atol):
            found.append(Mismatch(where, None, repr(e), repr(a),
                                  f"element [{index}] differs beyond rtol={spec.rtol:g}, atol={spec.atol:g}"))  # fmt: skip
            if len(found) >= limit:
                break
    return found


def compare_file(out: OutputFile, expected: bytes | None, actual: bytes | None, spec: RunSpec) -> list[Mismatch]:
    where = f"file:{out.path}"
    if expected is None or actual is None:
        side = "reference" if expected is None else "port"
        return [Mismatch(where, None, "<file>" if actual is None else "<missing>",
                         "<missing>" if actual is None else "<file>",
                         f"the {side} did not write {out.path}")]  # fmt: skip
    if out.format == "text":
        return compare_text(where, _decode(expected), _decode(actual), spec)
    if out.format == "bytes":
        if expected == actual:
            return []
        at = next((i for i, (x, y) in enumerate(zip(expected, actual)) if x != y), min(len(expected), len(actual)))
        return [Mismatch(where, None, expected[at : at + 8].hex(), actual[at : at + 8].hex(), f"bytes differ from offset {at}")]
    return compare_array(where, expected, actual, out.format, spec)


def _decode(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")


def compare_results(reference: RunResult, candidate: RunResult, spec: RunSpec) -> list[Mismatch]:
    """Every difference that matters between the two runs, per the spec, first ones first."""
    found: list[Mismatch] = []
    if spec.compare_exit_code and reference.exit_code != candidate.exit_code:
        found.append(Mismatch("exit_code", None, str(reference.exit_code), str(candidate.exit_code),
                              f"exit codes differ (port {candidate.describe_end()})",
                              "", candidate.stderr.strip()[-400:]))  # fmt: skip
    if spec.compare_stdout:
        found += compare_text("stdout", reference.stdout, candidate.stdout, spec)
    for out in spec.output_files:
        found += compare_file(out, reference.output_files.get(out.path), candidate.output_files.get(out.path), spec)
    return found
