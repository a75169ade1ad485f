"""Operands as C++ expressions for the translator: per-lane VGPR reads, scalar reads hoisted out
of the lane loop, constants resolved to their bit patterns exactly as the interpreter resolves
them (`state.res`), abs/neg on float bits, typed views, and SGPR writes with the interpreter's
rules (NULL ignored, a write to EXEC clears EXEC_HI)."""

from __future__ import annotations

from cass.runner.emulator.decode import Operand
from cass.runner.emulator.state import EXEC, NULL, res, width_of

SIGN = {"f16": 0x8000, "f32": 0x80000000, "f64": 0x8000000000000000}
SIXTEEN = ("f16", "i16", "u16", "b16")
TYPED = {
    "f16": "hf({})",
    "i16": "(int32_t)(int16_t)({})",
    "f32": "bf({})",
    "f64": "bd({})",
    "i32": "(int32_t)({})",
    "i64": "(int64_t)({})",
}
BITS = {
    "f16": "(uint32_t)fh({})",
    "b16": "((uint32_t)({}) & 0xFFFFu)",
    "f32": "fb({})",
    "f64": "db({})",
    "b64": "(uint64_t)({})",
}


class Untranslated(Exception):
    """The instruction (or one of its operands) is outside what the translator handles."""


class Hoist:
    """Statements to run once before a lane loop (scalar operand reads)."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self._count = 0

    def name(self, ctype: str, expr: str) -> str:
        self._count += 1
        var = f"h{self._count}"
        self.lines.append(f"const {ctype} {var} = {expr};")
        return var


def sreg32(index: int) -> str:
    return f"s[{index}]"


def sreg64(index: int) -> str:
    return f"u64of(s[{index}], {'0u' if index == NULL else f's[{index + 1}]'})"


def scalar(op: Operand, typ: str = "b32") -> str:
    """A scalar operand (SGPR, SCC or constant) as an expression of its bits."""
    op = res(op, typ)
    wide = width_of(typ) == 64
    if op.kind == "s":
        return sreg64(op.index) if wide else sreg32(op.index)
    if op.kind == "scc":
        return "(uint64_t)scc" if wide else "scc"
    if op.kind == "const":
        return f"{int(op.value)}ull" if wide else f"{int(op.value) & 0xFFFFFFFF}u"
    raise Untranslated(f"operand {op.text}")


def lane_bits(op: Operand, typ: str, hoist: Hoist, hi: bool = False) -> str:
    """A source operand's bits in lane `l`, abs/neg applied for float types (as `typed`); a
    16-bit type's half (the high one when `hi`, op_sel) as the low 16 bits."""
    wide = width_of(typ) == 64
    known = ("b32", "u32", "i32", "b64", "u64", "i64", "u24", "i24", *SIXTEEN)
    if typ not in SIGN and typ not in known:
        raise Untranslated(f"type {typ}")
    op = res(op, typ)
    if op.kind == "v":
        expr = f"u64of(VR({op.index})[l], VR({op.index + 1})[l])" if wide else f"VR({op.index})[l]"
    elif op.kind in ("s", "scc", "const"):
        expr = scalar(op, typ)
        if op.kind != "const":
            expr = hoist.name("uint64_t" if wide else "uint32_t", expr)
    else:
        raise Untranslated(f"operand {op.text}")
    if typ in SIGN and (op.abs or op.neg):
        sign = SIGN[typ] << (16 if hi and typ == "f16" else 0)
        suffix = "ull" if wide else "u"
        if op.abs:
            expr = f"({expr} & {~sign & ((1 << max(width_of(typ), 32)) - 1)}{suffix})"
        if op.neg:
            expr = f"({expr} ^ {sign}{suffix})"
    if typ in SIXTEEN:
        expr = f"(({expr} >> 16) & 0xFFFFu)" if hi else f"({expr} & 0xFFFFu)"
    return expr


def typed(bits: str, typ: str) -> str:
    return "(" + TYPED.get(typ, "({})").format(bits) + ")"


def as_bits(value: str, typ: str) -> str:
    """A result of type `typ` as its bit pattern (uint32_t, or uint64_t for 64-bit types)."""
    if typ in BITS:
        return BITS[typ].format(value)
    if width_of(typ) == 64:
        return f"(uint64_t)({value})"
    return f"(uint32_t)({value})"


def swrite(index: int, value: str, wide: bool = False) -> str:
    """Statement writing an SGPR (a pair when `wide`) as `WaveState.swrite` does."""
    if index == NULL:
        return ""
    if not wide:
        tail = " s[127] = 0;" if index == EXEC else ""
        return f"s[{index}] = (uint32_t)({value});{tail}"
    tail = " s[127] = 0;" if EXEC in (index, index + 1) else ""
    return (
        f"{{ const uint64_t t_ = {value}; s[{index}] = (uint32_t)t_; "
        f"s[{index + 1}] = (uint32_t)(t_ >> 32);{tail} }}"
    )
