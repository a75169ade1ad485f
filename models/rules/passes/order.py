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
                _report_one(unit, name, outer, sorted(used))


def _report_one(unit: Unit, name: str, outer: int, used: list[int]) -> None:
    callee = unit.code[outer - 1]
    message = (
        f"`{name}` is called in {len(used)} arguments of `{callee.text}(...)`: C++ leaves their "
        "order unspecified and nvcc's host compiler (GCC, right to left) and clang (left to "
        "right) differ, so the values land in other arguments after the port; call it into named "
        "variables first"
    )
    hoisted = _hoisted(unit, outer, used)
    if hoisted is None:
        unit.report("CASS068", callee.start, unit.code[outer].end, message)
        return
    start, end, text = hoisted
    if unit.target.hoist_argument_calls and unit.replace(start, end, text):
        message += " (done: the arguments are evaluated into variables in GCC's order)"
        unit.report("CASS068", callee.start, unit.code[outer].end, message)
        return
    unit.report(
        "CASS068",
        start,
        end,
        message + " (cass port --hoist-argument-calls does it)",
        fix=("evaluate the arguments into variables in GCC's order (right to left)", text),
    )


_NOT_HOISTABLE = frozenset(("for", "while", "do", "else", "case", "default", "#"))
_CONDITIONAL = frozenset(("?", "&&", "||"))


def _hoisted(unit: Unit, outer: int, used: list[int]) -> tuple[int, int, str] | None:
    """The statement holding the call at `outer`, rewritten to evaluate the arguments numbered
    `used` into variables first, right to left (GCC's order): (start, end, new text), or None
    where that would change what runs (a loop condition, a conditional operand, a directive,
    no enclosing block)."""
    texts, code = unit.lexed.texts, unit.code
    parsed = unit.call_args(outer)
    if parsed is None or code.pp[outer] != -1:
        return None
    first, depth = outer - 1, 0
    while first > 0 and not (depth == 0 and texts[first - 1] in (";", "{", "}")):
        depth += {")": 1, "]": 1, "(": -1, "[": -1}.get(texts[first - 1], 0)
        if depth < 0:  # inside a parenthesis of the statement (`for (`, `if (`, a grouping)
            return None
        first -= 1
    if first == 0 or not _in_function_body(texts, first) or _inside_parentheses(texts, first):
        return None
    last = parsed[1]
    while last + 1 < len(texts) and texts[last + 1] != ";":
        if texts[last + 1] in ("{", "}"):
            return None
        last += 1
    last += 1
    if last >= len(texts) or texts[first] in _NOT_HOISTABLE:
        return None
    if _CONDITIONAL & set(texts[first : last + 1]):
        return None
    statement_start, statement_end = code.starts[first], code.end(last)
    line_start = unit.text.rfind("\n", 0, statement_start) + 1
    indent = unit.text[line_start:statement_start]
    if indent.strip():
        indent = ""
    args = parsed[0]
    names = {n: unit.new_name("cass_arg") for n in sorted(used, reverse=True)}
    lines = [f"auto&& {names[n]} = {unit.arg_text(args[n])};" for n in names]
    body, pos = [], statement_start
    for n in sorted(used):
        arg_first, arg_last = args[n]
        body += [unit.text[pos : code.starts[arg_first]], names[n]]
        pos = code.end(arg_last)
    body.append(unit.text[pos:statement_end])
    separator = "\n" + indent if indent or line_start == statement_start else " "
    return statement_start, statement_end, separator.join([*lines, "".join(body)])


_BODY_OPENERS = frozenset(
    (
        ")",
        "else",
        "do",
        "try",
        "{",
        "}",
        ";",
        ":",
        "const",
        "noexcept",
        "mutable",
        "override",
        "final",
    )
)


def _in_function_body(texts: list[str], first: int) -> bool:
    """Whether token `first` is in a function body or a block nested in one: the innermost open
    `{` follows `)`, `else`, `;`, another brace ... (not `namespace N`, `struct S`, `= `)."""
    depth, i = 0, first - 1
    while i >= 0:
        if texts[i] == "}":
            depth += 1
        elif texts[i] == "{":
            if depth == 0:
                return i > 0 and texts[i - 1] in _BODY_OPENERS
            depth -= 1
        i -= 1
    return False


def _inside_parentheses(texts: list[str], first: int) -> bool:
    """Whether token `first` lies inside an unclosed `(` of its block (`for (a; b; c)`)."""
    depth, i = 0, first - 1
    while i >= 0 and texts[i] not in ("{", "}"):
        depth += {")": 1, "(": -1}.get(texts[i], 0)
        if depth < 0:
            return True
        i -= 1
    return False
