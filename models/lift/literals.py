"""LLVM literals of SASS values: integer constants folded by the IR builder (emit.Emitter),
float immediates in LLVM's exact hexadecimal form, and immediate operand values."""

from __future__ import annotations

import struct

from cass.models.lift.ir import FImm, Imm, Operand

M32 = 0xFFFFFFFF
M64 = (1 << 64) - 1
BOOLS = {"true": "false", "false": "true"}


def s32(v: int) -> int:
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >= 1 << 31 else v


def s64(v: int) -> int:
    v &= M64
    return v - (1 << 64) if v >= 1 << 63 else v


def int_literal(v: str) -> int | None:
    """The value of an LLVM integer literal (`12`, `-3`), None for anything else (`%t4`,
    `true`, a hexadecimal float)."""
    if v[0] == "-" or ("0" <= v[0] <= "9" and v[1:2] != "x"):
        try:
            return int(v)
        except ValueError:
            return None
    return None


def f32_literal(bits: str) -> str | None:
    """The float literal whose bits are the integer literal `bits` (None: not a literal, or a
    NaN, whose payload an LLVM float literal may not keep)."""
    c = int_literal(bits)
    if c is None:
        return None
    value = struct.unpack("<f", struct.pack("<I", c & M32))[0]
    if value != value:
        return None
    return f"0x{struct.unpack('<Q', struct.pack('<d', value))[0]:016X}"


def parse_float_bits(text: str, bits: int) -> int:
    t = text.upper().lstrip("+")
    neg = t.startswith("-")
    t = t.lstrip("-")
    if t in ("INF",):
        value = float("inf")
    elif t in ("QNAN", "NAN", "SNAN"):
        return (0x7FC00000 if bits == 32 else 0x7FF8000000000000) | (
            (1 << (bits - 1)) if neg else 0
        )
    else:
        value = float(t)
    value = -value if neg else value
    fmt, ifmt = ("<f", "<I") if bits == 32 else ("<d", "<Q")
    if bits == 16:
        return struct.unpack("<H", struct.pack("<e", value))[0]
    return struct.unpack(ifmt, struct.pack(fmt, value))[0]


def float_literal(text: str, bits: int) -> str:
    """An LLVM float/double literal (hex form: exact for every value, NaN and infinity)."""
    if bits == 32:
        as_double = struct.unpack(
            "<d",
            struct.pack(
                "<d", struct.unpack("<f", struct.pack("<I", parse_float_bits(text, 32)))[0]
            ),
        )[0]
        if as_double != as_double:
            return "0x7FF8000000000000"
        return f"0x{struct.unpack('<Q', struct.pack('<d', as_double))[0]:016X}"
    return f"0x{parse_float_bits(text, 64):016X}"


def imm_value(o: Operand) -> int:
    if isinstance(o, Imm):
        return o.value
    if isinstance(o, FImm):
        return int(float(o.text))
    raise ValueError(o)
