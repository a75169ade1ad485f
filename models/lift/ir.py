"""The typed IR of a SASS listing: operands, instructions, functions.

Small frozen classes in the style of llvmlite: the parser builds them, the passes read them.
Register operands carry their source modifiers (`-x`, `|x|`, `~x`, `!p`, half selectors).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

ZERO_REGS = frozenset({"RZ", "URZ", "SRZ"})
TRUE_PREDS = frozenset({"PT", "UPT"})


def register_kind(name: str) -> str:
    if name.startswith("SR"):
        return "SR"
    return name.rstrip("0123456789Z").rstrip("T") or name


_NEXT: dict[tuple[str, int], Reg] = {}  # (register name, k) -> the k-th register after it


@dataclass(frozen=True)
class Reg:
    """A register: R, UR (uniform), P, UP (predicates), B (barrier) or SR_* (special).
    Its kind and flags are computed once per object (a lifted kernel asks for each many times;
    the parser shares one object per operand text)."""

    name: str  # "R4", "RZ", "UR6", "P0", "PT", "SR_TID.X"
    neg: bool = False  # -x
    absolute: bool = False  # |x|
    invert: bool = False  # ~x (integer) or !p (predicate)
    half: str = ""  # "H0_H0", "H1_H1", "H0", "H1", "F32" (packed-half selectors)
    wide: bool = False  # "R2.64" in an address

    @cached_property
    def kind(self) -> str:
        return register_kind(self.name)

    @cached_property
    def is_pred(self) -> bool:
        return self.kind in ("P", "UP")

    @cached_property
    def is_zero(self) -> bool:
        return self.name in ZERO_REGS

    @cached_property
    def is_true(self) -> bool:
        return self.name in TRUE_PREDS

    @property
    def index(self) -> int:
        digits = self.name.lstrip("URPB")
        return int(digits) if digits.isdigit() else -1

    def offset(self, k: int) -> Reg:
        """The k-th register after this one (pairs and quads); RZ stays RZ."""
        if k == 0 or self.is_zero:
            return self
        reg = _NEXT.get((self.name, k))
        if reg is None:
            prefix = self.name.rstrip("0123456789")
            reg = _NEXT[(self.name, k)] = Reg(f"{prefix}{self.index + k}")
        return reg


@dataclass(frozen=True)
class Imm:
    value: int
    neg: bool = False


@dataclass(frozen=True)
class FImm:
    """A floating-point immediate as printed (decimal, `+INF`, `-QNAN`...)."""

    text: str


@dataclass(frozen=True)
class CBank:
    """`c[bank][offset]` or `c[bank][Rx+offset]`, possibly negated or abs'd."""

    bank: int
    offset: int
    reg: Reg | None = None
    neg: bool = False
    absolute: bool = False
    invert: bool = False


@dataclass(frozen=True)
class Mem:
    """A memory address `[R2.64+0x4]`, `[R7.X4+UR4+0x10]`, `desc[UR4][R2.64]`."""

    reg: Reg | None
    offset: int = 0
    ureg: Reg | None = None
    scale: int = 1


@dataclass(frozen=True)
class Target:
    """A branch/call target: a byte address within the function."""

    address: int


Operand = Reg | Imm | FImm | CBank | Mem | Target


@dataclass(frozen=True)
class Instruction:
    address: int
    opcode: str  # "IMAD"
    mods: tuple[str, ...]  # ("WIDE", "U32")
    operands: tuple[Operand, ...]
    guard: Reg | None = None  # @P0 / @!P0
    line: int = 0  # 1-based line in the input text
    text: str = ""  # the instruction as printed

    @property
    def full(self) -> str:
        return ".".join((self.opcode, *self.mods))

    def has(self, *mods: str) -> bool:
        for m in mods:
            if m in self.mods:
                return True
        return False


class Function:
    """One function of a listing. parse.parse_listing reads a function's instructions when they
    are first asked for (`lines`: its text, not read yet): the lifter starts on the first kernel
    before the others are read, and their reading overlaps that kernel's opt-16 and llc-16."""

    def __init__(self, name: str, instructions: list[Instruction] | None = None, line: int = 0,
                 labels: dict[str, int] | None = None) -> None:  # fmt: skip
        self.name = name
        self._instructions = instructions if instructions is not None else []
        self.line = line  # line of the `Function :` header
        self.labels = labels if labels is not None else {}  # nvdisasm label -> address
        self.lines: list[tuple[int, str]] = []  # (line number, text) still to read
        self.reader: Callable[[Function], None] | None = None
        self.size = 0  # instruction lines among `lines`

    @property
    def instructions(self) -> list[Instruction]:
        if self.reader is not None:
            reader, self.reader = self.reader, None
            reader(self)
        return self._instructions

    @instructions.setter
    def instructions(self, value: list[Instruction]) -> None:
        self.reader = None
        self._instructions = value

    def count(self) -> int:
        """Its instructions, counted without reading them where they are not read yet."""
        return self.size if self.reader is not None else len(self._instructions)

    def __repr__(self) -> str:
        return f"Function({self.name!r}, {self.count()} instructions, line={self.line})"


@dataclass
class Listing:
    """A parsed SASS text: its architecture (when printed) and its functions in order."""

    arch: str | None
    functions: list[Function]
