"""Argument evaluation order: C++ leaves it unspecified, and the two host compilers of a port
disagree in practice (nvcc's GCC evaluates call arguments right to left, clang left to right).
A call whose arguments each call the same function with the same arguments
(`make_int4(next(), next())`, `make_int2(draw(&state), draw(&state))`, a random-number generator
or a reader read twice) gets different values in a different order after the port; the port is
as correct as the original, so this is only reported. Functions known to be pure (`min`,
`sqrt`, ...) are left alone.
"""

from __future__ import annotations

from cass.models.rules.unit import Unit

_NOT_CALLS = frozenset(("if", "for", "while", "switch", "return", "sizeof", "decltype", "catch"))
_STATEMENT_EDGES = frozenset((";", "{", "}"))


_PURE = frozenset(
    "min max abs fabs fabsf sqrt sqrtf rsqrt sin cos tan sinf cosf exp expf log logf pow powf "
    "floor ceil floorf ceilf fmin fmax fminf fmaxf round roundf static_cast reinterpret_cast "
    "const_cast sizeof alignof make_int2 make_float2 make_int4 make_float4 dim3 strlen".split()
)


def _repeated_calls(unit: Unit) -> dict[str, list[int]]:
    """`name(args)` text -> indices of its calls, for calls made more than once with the same
    argument text (member calls such as `v.begin()` are accessors, pure functions are skipped)."""
    texts, code = unit.lexed.texts, unit.code
    calls: dict[str, list[int]] = {}
    for i in unit.index.get("(", ()):
        if i < 2 or code.kind(i - 1) != "ident" or texts[i - 2] in (".", "->"):
            continue
        if texts[i - 1] in _PURE or texts[i - 1] in _NOT_CALLS:
            continue
        close = unit.matching(i)
        if close is None or close - i > 12:  # a short argument list: a state or a stream
            continue
        key = unit.text[code.starts[i - 1] : code.end(close)]
        calls.setdefault(" ".join(key.split()), []).append(i - 1)
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
            if not j or texts[j - 1] in _NOT_CALLS:
                return None
            if unit.code.kind(j - 1) == "ident" or texts[j - 1] == ">":
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
    for name, calls in _repeated_calls(unit).items():
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
                    f"`{name}` is called in {len(used)} arguments of `{callee.text}(...)`: C++ "
                    "leaves their order unspecified and nvcc's host compiler (GCC, right to left) "
                    "and clang (left to right) differ, so the values land in other arguments after "
                    "the port; call it into named variables first",
                )
