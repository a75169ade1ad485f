"""Differential comparison of two program outputs: token-wise, numbers with tolerance.

Text is split into tokens: numbers (integers, floats in any notation, hex, NaN/Inf) and the runs
of other non-space characters between them. A token that is an integer in the reference (decimal
digits or hex, no point, no exponent) and an integer in the output must be equal exactly, unless
the run spec declares an integer tolerance (`int_atol`, `int_rtol`: counts that legitimately
vary, e.g. derived from float atomics). Any other pair of numbers — both floating-point, or one
of each, as `%g` prints a float that happens to be integral — agrees when
`|actual - expected| <= atol + rtol * |expected|` (NaN equals NaN, whatever its sign; infinities
must agree in sign). Everything else must be identical. Whitespace only separates tokens. Lines
matching an `ignore_lines` regex are dropped on both sides first. Output files are compared as
text, as exact bytes, or as typed little-endian arrays element by element (integer arrays under
the integer tolerance, float arrays under rtol/atol).
"""

from __future__ import annotations

import itertools
import math
import re
import struct
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from typing import Any, NamedTuple

from cass.runner.results import RunResult
from cass.runner.spec import ARRAY_FORMATS, OutputFile, RunSpec

NUMBER = r"""
    [+-]?(?:
        0[xX][0-9a-fA-F]+
      | (?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?
      | (?:nan|inf(?:inity)?)(?![A-Za-z])
    )
"""
NUMBER_RE = re.compile(rf"((?<!\w)(?<!\d\.){NUMBER}(?!\w)(?!\.\d))", re.VERBOSE | re.IGNORECASE)
MAX_REPORTED = 10


class Token(NamedTuple):
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
    """The value of a NUMBER token: int, float (any notation, nan, inf) or hex."""
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return int(text, 16)


def kept_lines(text: str, ignore: tuple[str, ...] = ()) -> list[tuple[int, str]]:
    """(1-based number, line) of every line no `ignore` regex matches."""
    patterns = [re.compile(p) for p in ignore]
    lines = enumerate(text.splitlines(), start=1)
    return [(n, line) for n, line in lines if not any(p.search(line) for p in patterns)]


def tokenize(text: str, ignore: tuple[str, ...] = ()) -> list[Token]:
    return _tokens(kept_lines(text, ignore))


def _tokens(lines: list[tuple[int, str]]) -> list[Token]:
    tokens: list[Token] = []
    for number, line in lines:
        tokens += _line_tokens(line, number)
    return tokens


def _line_tokens(line: str, number: int) -> Iterator[Token]:
    """Numbers, and the runs of other non-space characters around them."""
    pieces = NUMBER_RE.split(line)  # [text, number, text, number, ..., text]
    for i, piece in enumerate(pieces):
        if i % 2:
            yield Token(piece, number, parse_number(piece))
        else:
            yield from (Token(word, number, None) for word in piece.split())


def integers_close(expected: int, actual: int, int_rtol: float = 0.0, int_atol: int = 0) -> bool:
    """Exact by default; within `int_atol + int_rtol * |expected|` when the spec declares one
    (exact integer arithmetic: no rounding through float for 64-bit values)."""
    if actual == expected:
        return True
    allowed = int_atol + int_rtol * abs(expected)
    return abs(actual - expected) <= allowed


def numbers_close(expected: float | int, actual: float | int, rtol: float, atol: float) -> bool:
    """Floating-point agreement: `|a - e| <= atol + rtol * |e|`, NaN == NaN, signed infinities."""
    e, a = float(expected), float(actual)
    if math.isnan(e) or math.isnan(a):
        return math.isnan(e) and math.isnan(a)
    if math.isinf(e) or math.isinf(a):
        return e == a
    return abs(a - e) <= atol + rtol * abs(e)


def _line(text: str, number: int) -> str:
    lines = text.splitlines()
    return lines[number - 1].strip() if 0 < number <= len(lines) else ""


def _token_differs(e: Token, a: Token, spec: RunSpec) -> str | None:
    if isinstance(e.value, int) and isinstance(a.value, int):
        if integers_close(e.value, a.value, spec.int_rtol, spec.int_atol):
            return None
        return f"integers differ ({integer_rule(spec)})"
    if e.value is not None and a.value is not None:
        if numbers_close(e.value, a.value, spec.rtol, spec.atol):
            return None
        return f"numbers differ beyond rtol={spec.rtol:g}, atol={spec.atol:g}"
    if e.text == a.text:
        return None
    return "text differs"


def integer_rule(spec: RunSpec) -> str:
    """How integers are compared under `spec`, for messages and verdicts."""
    if not (spec.int_atol or spec.int_rtol):
        return "integers exact"
    parts = [f"int_atol={spec.int_atol}"] * bool(spec.int_atol) + [
        f"int_rtol={spec.int_rtol:g}"
    ] * bool(spec.int_rtol)
    return "integers within " + ", ".join(parts)


def tolerance_rule(spec: RunSpec) -> str:
    """Every tolerance a comparison under `spec` applies, e.g. `rtol=1e-05, atol=1e-08, integers exact`."""
    return f"rtol={spec.rtol:g}, atol={spec.atol:g}, {integer_rule(spec)}"


def compare_text(
    where: str, expected: str, actual: str, spec: RunSpec, limit: int = MAX_REPORTED
) -> list[Mismatch]:
    """Token-wise comparison; the first `limit` mismatches, each with its lines as context."""
    exp_lines, act_lines = (
        kept_lines(expected, spec.ignore_lines),
        kept_lines(actual, spec.ignore_lines),
    )
    same = _common_prefix(exp_lines, act_lines)  # identical lines hold identical tokens
    exp, act = _tokens(exp_lines[same:]), _tokens(act_lines[same:])
    found: list[Mismatch] = []
    for e, a in zip(exp, act):
        why = _token_differs(e, a, spec)
        if why:
            found.append(Mismatch(where, e.line, e.text, a.text, why,
                                  _line(expected, e.line), _line(actual, a.line)))  # fmt: skip
            if len(found) >= limit:
                return found
    if len(exp) != len(act):
        found.append(_length_mismatch(where, exp, act, expected, actual))
    return found


def _common_prefix(a: list[tuple[int, str]], b: list[tuple[int, str]]) -> int:
    n = 0
    for (_, x), (_, y) in zip(a, b):
        if x != y:
            break
        n += 1
    return n


def _length_mismatch(
    where: str, exp: list[Token], act: list[Token], e_text: str, a_text: str
) -> Mismatch:
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


def _elements_close(expected: float | int, actual: float | int, spec: RunSpec) -> bool:
    if isinstance(expected, int) and isinstance(actual, int):
        return integers_close(expected, actual, spec.int_rtol, spec.int_atol)
    return numbers_close(expected, actual, spec.rtol, spec.atol)


def _differing_indices(
    expected: bytes, actual: bytes, fmt: str, spec: RunSpec, limit: int
) -> list[tuple[int, Any, Any]]:
    """(index, expected, actual) of the first `limit` elements that differ beyond tolerance."""
    try:
        import numpy as np
    except ImportError:  # the standard-library path: element by element
        pairs = enumerate(zip(_elements(expected, fmt), _elements(actual, fmt)))
        bad = ((i, e, a) for i, (e, a) in pairs if not _elements_close(e, a, spec))
        return list(itertools.islice(bad, limit))
    dtype = np.dtype("<" + ARRAY_FORMATS[fmt])
    n = min(len(expected), len(actual)) // dtype.itemsize
    e = np.frombuffer(expected, dtype, n)
    a = np.frombuffer(actual, dtype, n)
    if dtype.kind in "iu":  # integers: check the unequal ones in Python arithmetic
        unequal = (int(i) for i in np.flatnonzero(e != a))
        bad = ((i, e[i].item(), a[i].item()) for i in unequal)
        return list(
            itertools.islice((t for t in bad if not _elements_close(t[1], t[2], spec)), limit)
        )
    close = np.isclose(
        a.astype(np.float64), e.astype(np.float64), rtol=spec.rtol, atol=spec.atol, equal_nan=True
    )
    return [(int(i), e[i].item(), a[i].item()) for i in np.flatnonzero(~close)[:limit]]


def compare_array(
    where: str, expected: bytes, actual: bytes, fmt: str, spec: RunSpec, limit: int = MAX_REPORTED
) -> list[Mismatch]:
    found: list[Mismatch] = []
    size = struct.calcsize(ARRAY_FORMATS[fmt])
    if len(expected) != len(actual):
        found.append(Mismatch(where, None, f"{len(expected) // size} x {fmt}",
                              f"{len(actual) // size} x {fmt}", "array lengths differ"))  # fmt: skip
    for index, e, a in _differing_indices(expected, actual, fmt, spec, limit - len(found)):
        rule = (
            integer_rule(spec) if isinstance(e, int) else f"rtol={spec.rtol:g}, atol={spec.atol:g}"
        )
        why = f"element [{index}] differs ({rule})"
        found.append(Mismatch(where, None, repr(e), repr(a), why))
    return found


def compare_file(
    out: OutputFile, expected: bytes | None, actual: bytes | None, spec: RunSpec
) -> list[Mismatch]:
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
        at = next(
            (i for i, (x, y) in enumerate(zip(expected, actual)) if x != y),
            min(len(expected), len(actual)),
        )
        return [
            Mismatch(
                where,
                None,
                expected[at : at + 8].hex(),
                actual[at : at + 8].hex(),
                f"bytes differ from offset {at}",
            )
        ]
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
        found += compare_file(
            out, reference.output_files.get(out.path), candidate.output_files.get(out.path), spec
        )
    return found
