"""Argument evaluation order: C++ leaves it unspecified, and the two host compilers of a port
disagree in practice (nvcc's GCC evaluates call arguments right to left, clang left to right).
A call whose arguments each call the same zero-argument function (`make_int4(next(), next())`,
a random-number generator read twice) gets different values in a different order after the
port; the port is as correct as the original, so this is only reported.
"""

from __future__ import annotations

from cass.models.rules.unit import Unit

_NOT_CALLS = frozenset(("if", "for", "while", "switch", "return", "sizeof", "decltype", "catch"))
_STATEMENT_EDGES = frozenset((";", "{", "}"))


def _zero_argument_calls(unit: Unit) -> dict[str, list[int]]:
    """Function name -> indices of its `name()` calls, for names called more than once (member
    calls such as `v.begin()` or `s.size()` are accessors, not counted)."""
    texts, code = unit.lexed.texts, unit.code
    calls: dict[str, list[int]] = {}
    for i in unit.index.get("(", ()):
        empty = i > 1 and i + 1 < len(texts) and texts[i + 1] == ")"
        if empty and code[i - 1].kind == "ident" and texts[i - 2] not in (".", "->"):
            calls.setdefault(texts[i - 1], []).append(i - 1)
    return {name: found for name, found in calls.items() if len(found) > 1}


def _enclosing_call(unit: Unit, i: int) -> int | None:
    """Index of the `(` of the call whose argument list holds token `i`, or None."""
    texts, depth, j = unit.lexed.texts, 0, i - 1
    while j >= 0 and not (depth == 0 and texts[j] in _STATEMENT_EDGES):
        if texts[j] == ")":
            depth += 1
        elif texts[j] == "(" and depth:
            depth -= 1
        elif texts[j] == "(":
            before = unit.code[j - 1] if j else None
            if before is None or before.text in _NOT_CALLS:
                return None
            if before.kind == "ident" or before.text == ">":
                return j
            # a grouping or cast parenthesis: the call, if any, is further out
        j -= 1
    return None


def _argument_of(unit: Unit, open_index: int, i: int) -> int | None:
    parsed = unit.call_args(open_index)
    if parsed is None:
        return None
    return next((n for n, (first, last) in enumerate(parsed[0]) if first <= i <= last), None)


def report_argument_order(unit: Unit) -> None:
    reported: set[int] = set()
    for name, calls in _zero_argument_calls(unit).items():
        arguments: dict[int, set[int]] = {}
        for i in calls:
            outer = _enclosing_call(unit, i)
            if outer is not None:
                argument = _argument_of(unit, outer, i)
                if argument is not None:
                    arguments.setdefault(outer, set()).add(argument)
        for outer, used in arguments.items():
            if len(used) > 1 and outer not in reported:
                reported.add(outer)
                callee = unit.code[outer - 1]
                unit.report(
                    "CASS068",
                    callee.start,
                    unit.code[outer].end,
                    f"`{name}()` is called in {len(used)} arguments of `{callee.text}(...)`: C++ "
                    "leaves their order unspecified and nvcc's host compiler (GCC, right to left) "
                    "and clang (left to right) differ, so the values land in other arguments after "
                    "the port; call it into named variables first",
                )
