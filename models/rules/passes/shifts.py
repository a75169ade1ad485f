"""Shifts whose amount can be the full width: `dw << 32 - bit`, `x >> (32 - n)` in device code.

PTX's `shl`/`shr` clamp the amount to the register's width, so on NVIDIA GPUs a 32-bit value
shifted by 32 is 0 (or its sign, shifted right as a signed value), and code such as Rodinia
huffman's bit packer relies on it when `bit` is 0. AMD GPUs' shifts (`v_lshlrev_b32`, ...) take
the amount modulo 32: the same shift leaves the value as it was. C++ calls the shift undefined,
so both compilers are right and the port changes behaviour silently. The shifted value's type is
not known here (shifted by `64 - n` it is 64 bits wide, by `32 - n` a 64-bit value is safe), so
this is reported, not rewritten; an amount subtracted from constants only (`32 - WARP_LOG_SIZE`,
upper-case names taken as constants) is left alone, as are a shift a conditional guards by what
it subtracts (`bit ? dw << 32 - bit : 0`) and host code (x86 takes the amount modulo 32 too).
"""

from __future__ import annotations

from cass.models.rules.unit import Unit

_SHIFTS = ("<<", ">>", "<<=", ">>=")
_WIDTHS = ("32", "64")
# tokens that end a shift's right operand (an additive expression) at its own depth
_ENDS = frozenset(
    "; , ) ] } ? : << >> < > <= >= == != && || & | ^ = += -= *= /= %= <<= >>= &= |= ^=".split()
)


def report_full_width_shifts(unit: Unit) -> None:
    texts, code = unit.lexed.texts, unit.code
    for i in unit.positions(_SHIFTS):
        if not unit.in_device(i):
            continue
        j, close = i + 1, None
        if j < len(texts) and texts[j] == "(":
            close = unit.matching(j)
            if close is None:
                continue
            j, end = j + 1, close
        else:
            end = _operand_end(texts, j)
        if end - j < 3 or texts[j] not in _WIDTHS or texts[j + 1] != "-":
            continue
        names = {texts[k] for k in range(j + 2, end) if code.kind(k) == "ident"}
        if not any(not name.isupper() for name in names):
            continue  # constants only: the compiler folds it, and it is not the width
        if _guarded(texts, i, names):
            continue
        amount, width = unit.text[code.starts[j] : code.end(end - 1)], texts[j]
        message = (
            f"shift by `{amount}`, which is {width}, the full width of a {width}-bit value, when "
            f"what it subtracts is 0: NVIDIA GPUs clamp the amount (the result is 0, or the sign "
            f"of a signed value shifted right) and AMD GPUs take it modulo {width} (the value is "
            f"not shifted); if it can be {width}, guard the shift (`{amount} < {width} ? ... : 0`)"
        )
        left = _left_operand(texts, code, i) if texts[i] == "<<" and end - j == 3 else None
        if left is None or code.kind(j + 2) != "ident":
            unit.report("CASS096", code.starts[i], code.end(end - 1), message)
            continue
        last = close if close is not None else end - 1  # the amount's `)` too, when it has one
        shift = unit.text[code.starts[left] : code.end(last)]
        guard = f"({texts[j + 2]} ? {shift} : 0)"
        unit.report("CASS096", code.starts[left], code.end(last), message,
                    fix=(f"guard the shift: {guard} (0 when {texts[j + 2]} is 0, as on NVIDIA)",
                         guard))  # fmt: skip


# what may stand before a shift's left operand for the operand to be the token run the scan found
# (operators binding looser than `<<`, and delimiters): `a + dw << n` shifts `a + dw`
_BEFORE_LEFT = frozenset(
    "= += -= *= /= %= &= |= ^= <<= >>= ( , ; { } ? : return < > <= >= == != & ^ | && ||".split()
)


def _left_operand(texts: list[str], code, i: int) -> int | None:
    """Index of the first token of `<<`'s left operand when it is a name, an element, a member or
    a parenthesised expression (`dw`, `words[k]`, `s.bits`, `(a | b)`) standing alone, with no
    call, increment or assignment in it; None when it may be more (a cast, a unary operator, an
    arithmetic term before it) or has effects the guard would skip."""
    k = i - 1
    while k >= 0:
        if texts[k] in (")", "]"):
            depth, opener = 0, "(" if texts[k] == ")" else "["
            while k >= 0:
                depth += texts[k] in (")", "]")
                depth -= texts[k] in ("(", "[")
                if depth == 0:
                    break
                k -= 1
            if k < 0 or texts[k] != opener:
                return None
            k -= 1
            if k >= 0 and (code.kind(k) == "ident" or texts[k] in (")", "]")):
                continue  # a call or a subscript: its callee or array comes before
        elif code.kind(k) == "ident":
            k -= 1
        else:
            return None
        if k >= 0 and texts[k] in (".", "->"):
            k -= 1
            continue
        break
    if k >= 0 and texts[k] not in _BEFORE_LEFT:
        return None
    effects = any(
        texts[t] in ("++", "--") or texts[t].endswith("=") or (texts[t] == "(" and t > k + 1
                                                              and code.kind(t - 1) == "ident")
        for t in range(k + 1, i)
    )  # fmt: skip
    return None if effects else k + 1  # the guard skips the operand: only one without effects


def _guarded(texts: list[str], i: int, names: set[str]) -> bool:
    """Whether the shift at `i` lies in the true branch of a conditional whose condition, in the
    same statement, names what the amount subtracts (`bit ? dw << 32 - bit : 0`; in the false
    branch, `bit ? 0 : dw << 32 - bit`, the shift runs when `bit` is 0)."""
    j, colons = i - 1, 0
    while j >= 0 and texts[j] not in (";", "{", "}"):
        if texts[j] == ":":
            colons += 1  # a conditional's false branch the shift lies in, or follows
        elif texts[j] == "?" and colons:
            colons -= 1
        elif texts[j] == "?":
            k = j - 1
            while k >= 0 and texts[k] not in (";", "{", "}", "=", "(", ","):
                if texts[k] in names:
                    return True
                k -= 1
        j -= 1
    return False


def _operand_end(texts: list[str], j: int) -> int:
    """Index just past a shift's unparenthesised right operand starting at `j`."""
    depth = 0
    while j < len(texts):
        t = texts[j]
        if t in ("(", "["):
            depth += 1
        elif depth and t in (")", "]"):
            depth -= 1
        elif not depth and t in _ENDS:
            break
        j += 1
    return j
