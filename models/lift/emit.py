"""The LLVM IR builder the semantic passes write into: register file, operands, blocks.

Every R/UR register is an `alloca i32` and every P/UP an `alloca i1` in the entry block; RZ/URZ
read 0, PT/UPT read true, writes to them vanish. Within a basic block the builder keeps each
register's current value: a register is loaded at its first read in the block (if not written
before it there), and stored once, before the block's terminator, if the block wrote it; mem2reg
turns the rest into SSA. (One load per read and one store per write made SHA-512's 10,000-line
blocks three times longer, and mem2reg scans a block once per register.)
64-bit values are register pairs {Rn+1:Rn}; floats are bitcasts at use.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cass.models.lift.ir import CBank, FImm, Imm, Instruction, Mem, Operand, Reg, Target
from cass.models.lift.literals import (
    BOOLS,
    M32,
    M64,
    f32_literal,
    float_literal,
    imm_value,
    int_literal,
    parse_float_bits,
    s32,
    s64,
)
from cass.models.lift.params import ParamLayout
from cass.models.lift.targets import LlvmTarget


class LiftError(Exception):
    """An instruction the lifter cannot translate; becomes a located diagnostic."""

    def __init__(self, ins: Instruction | None, message: str) -> None:
        super().__init__(message)
        self.ins = ins
        self.message = message


TERMINATORS = ("br ", "switch ", "ret ", "unreachable", "indirectbr ")
# c[0x0][off] below the parameters: driver-filled values (design brief §3.2).
CBANK0_SPECIALS = {0x0: "ntid.x", 0x4: "ntid.y", 0x8: "ntid.z", 0xC: "nctaid.x", 0x10: "nctaid.y",
                   0x14: "nctaid.z"}  # fmt: skip


@dataclass
class Emitter:
    target: LlvmTarget
    layout: ParamLayout
    stack_size: int = 0
    shared_size: int = 0
    body: list[str] = field(default_factory=list)
    regs: set[str] = field(default_factory=set)
    counter: int = 0
    terminated: bool = False
    ins: Instruction | None = None
    shared_symbol: str = '@"sass.shared"'
    uses_shared: bool = False
    uses_stack: bool = False
    guard_value: str | None = None
    uses_barrier_word: bool = False
    barrier_symbol: str = '@"sass.barred"'
    uses_named_barriers: bool = False
    polled: frozenset = frozenset()  # addresses of loads in spin-waits (cfg.polled_loads)
    named_barrier_symbol: str = '@"sass.named"'
    uses_printf: bool = False
    c4_regs: dict = field(default_factory=dict)
    imm_regs: dict = field(default_factory=dict)
    handle_regs: dict = field(default_factory=dict)  # register -> c[0x0] offset (textures.track)
    tracks_c4: bool = True  # run sem_sys.track (False: the function reads no c[0x4])
    tracks_handles: bool = True  # run textures.track (False: no texture or surface access)
    constants: object = None  # ConstantBanks: c[0x2]/c[0x3] contents from the cubin, when known
    values: dict = field(default_factory=dict)  # register -> its value in the current block
    dirty: dict = field(default_factory=dict)  # register -> type: written in this block, unstored
    joined: dict = field(default_factory=dict)  # (lo, hi) -> their i64, in the current block
    doubles: dict = field(default_factory=dict)  # i64 -> the double it is the bits of, ditto
    floats: dict = field(default_factory=dict)  # i32 -> the float it is the bits of, ditto

    # ---------------------------------------------------------------- basics
    def tmp(self, hint: str = "t") -> str:
        self.counter += 1
        return f"%{hint}{self.counter}"

    def emit(self, line: str) -> None:
        if (self.values or self.joined or self.floats) and line.startswith(TERMINATORS):
            self.flush_registers()
        self.body.append("  " + line)

    def flush_registers(self) -> None:
        """At the end of a block: store the registers it wrote, forget the values it read."""
        for name, ty in self.dirty.items():
            self.body.append(f"  store {ty} {self.values[name]}, {self.pspace} %r.{name}")
        self.values, self.dirty, self.joined, self.doubles, self.floats = {}, {}, {}, {}, {}

    def op(self, expr: str, hint: str = "t") -> str:
        """Emit `%tN = expr` and return %tN."""
        self.counter += 1
        name = f"%{hint}{self.counter}"
        self.body.append(f"  {name} = {expr}")  # never a terminator: emit's check is not needed
        return name

    def label(self, name: str) -> None:
        if not self.terminated:
            self.emit(f"br label %{name}")
        self.body.append(f"{name}:")
        self.terminated = False

    def branch(self, cond: str, then: str, other: str) -> None:
        self.emit(f"br i1 {cond}, label %{then}, label %{other}")
        self.terminated = True

    def jump(self, dest: str) -> None:
        self.emit(f"br label %{dest}")
        self.terminated = True

    def fresh_block(self, hint: str) -> str:
        self.counter += 1
        return f"{hint}.{self.counter}"

    def fail(self, message: str) -> LiftError:
        return LiftError(self.ins, message)

    @property
    def pspace(self) -> str:
        return self.target.ptr(self.target.private_as)

    # ---------------------------------------------------------------- registers
    def load_reg(self, reg: Reg) -> str:
        if reg.is_zero:
            return "0"
        if reg.is_true:
            return "true"
        if reg.kind == "SR":
            raise self.fail(f"special register {reg.name} read as an ordinary operand")
        return self.read_slot(reg.name, "i1" if reg.is_pred else "i32")

    def store_reg(self, reg: Reg, value: str) -> None:
        if reg.is_zero or reg.is_true:
            return
        ty = "i1" if reg.is_pred else "i32"
        if self.guard_value is not None:  # predicated ALU instruction: keep the old value when off
            old = self.read_slot(reg.name, ty)
            value = self.op(f"select i1 {self.guard_value}, {ty} {value}, {ty} {old}")
        self.write_slot(reg.name, ty, value)

    def read_slot(self, name: str, ty: str) -> str:
        """The register's value: the one this block wrote or read last, else a load."""
        value = self.values.get(name)
        if value is None:
            self.regs.add(name)
            value = self.values[name] = self.op(f"load {ty}, {self.pspace} %r.{name}")
        return value

    def write_slot(self, name: str, ty: str, value: str) -> None:
        """The register's new value; stored at the end of the block (flush_registers)."""
        self.regs.add(name)
        self.values[name] = value
        self.dirty[name] = ty

    # ---------------------------------------------------------------- integer operands
    def raw32(self, o: Operand) -> str:
        """An operand's 32 bits without applying modifiers."""
        if isinstance(o, Reg):
            return self.load_reg(o)
        if isinstance(o, Imm):
            return str(s32(o.value))
        if isinstance(o, FImm):
            return str(s32(parse_float_bits(o.text, 32)))
        if isinstance(o, CBank):
            return self.cbank(o, 4)
        raise self.fail(f"operand {o} is not a value")

    def i32(self, o: Operand) -> str:
        """Integer read: `-x` is two's complement, `~x` bitwise not, `|x|` absolute value."""
        v = self.raw32(o)
        if getattr(o, "absolute", False):
            v = self.op(f"call i32 @llvm.abs.i32(i32 {v}, i1 false)")
        if getattr(o, "neg", False) and not isinstance(o, Imm):
            v = self.op(f"sub i32 0, {v}")
        if getattr(o, "invert", False):
            v = self.op(f"xor i32 {v}, -1")
        return v

    def pred(self, o: Operand) -> str:
        assert isinstance(o, Reg), o
        v = self.load_reg(o)
        return self.not1(v) if o.invert else v

    # ---------------------------------------------------------------- folded arithmetic
    # An operand that is a literal (RZ, PT, an immediate moved into a register) is folded here
    # instead of emitted for opt-16 to fold: Rodinia's myocyte emitted 467 `mul i32 0, 0` (from
    # `IMAD.MOV.U32 R, RZ, RZ, imm`), 2,956 i1 operations with `true` and 1,021 `zext` of
    # constants in one kernel, all text to write, parse and combine again.
    def not1(self, v: str) -> str:
        if v in BOOLS:
            return BOOLS[v]
        return self.op(f"xor i1 {v}, true")

    def bool1(self, op: str, a: str, b: str) -> str:
        """`op` ("and", "or", "xor") of two i1 values, folded where one is `true` or `false`."""
        if a in BOOLS:
            a, b = b, a
        if b in BOOLS:
            if a in BOOLS:
                x, y = a == "true", b == "true"
                return str(x and y if op == "and" else x or y if op == "or" else x != y).lower()
            if op == "and":
                return a if b == "true" else "false"
            if op == "or":
                return "true" if b == "true" else a
            return self.not1(a) if b == "true" else a
        return self.op(f"{op} i1 {a}, {b}")

    def add32(self, a: str, b: str) -> str:
        x, y = int_literal(a), int_literal(b)
        if x is not None and y is not None:
            return str(s32(x + y))
        if x == 0:
            return b
        if y == 0:
            return a
        return self.op(f"add i32 {a}, {b}")

    def mul32(self, a: str, b: str) -> str:
        x, y = int_literal(a), int_literal(b)
        if x is not None and y is not None:
            return str(s32(x * y))
        if x == 0 or y == 0:
            return "0"
        if x == 1:
            return b
        if y == 1:
            return a
        return self.op(f"mul i32 {a}, {b}")

    def set_pred(self, o: Operand, value: str) -> None:
        if isinstance(o, Reg) and not o.is_true:
            self.store_reg(o, value)

    def write(self, o: Operand, value: str) -> None:
        assert isinstance(o, Reg), o
        self.store_reg(o, value)

    # ---------------------------------------------------------------- 64-bit pairs
    def pair(self, o: Operand) -> str:
        """The i64 {hi:lo} value of a register pair, a 64-bit immediate or a 64-bit c[] read."""
        if isinstance(o, Reg):
            if o.is_zero:
                return "0"
            lo, hi = self.load_reg(o), self.load_reg(o.offset(1))
            return self.join(lo, hi)
        if isinstance(o, Imm):
            return str(o.value)
        if isinstance(o, CBank):
            return self.cbank(o, 8)
        raise self.fail(f"operand {o} is not a 64-bit value")

    def join(self, lo: str, hi: str) -> str:
        """{hi:lo} as i64; the value they were split from when this block split one (a double
        written by one instruction and read by the next is not taken apart and put together)."""
        known = self.joined.get((lo, hi))
        if known is not None:
            return known
        x, y = int_literal(lo), int_literal(hi)
        if x is not None and y is not None:
            return str(s64((y & M32) << 32 | x & M32))
        zl = str(x & M32) if x is not None else self.op(f"zext i32 {lo} to i64")
        if y is not None:
            v = self.op(f"or i64 {zl}, {s64((y & M32) << 32)}") if y & M32 else zl
        else:
            sh = self.op(f"shl i64 {self.op(f'zext i32 {hi} to i64')}, 32")
            v = self.op(f"or i64 {sh}, {zl}") if x is None or x & M32 else sh
        self.joined[(lo, hi)] = v
        return v

    def split(self, v: str) -> tuple[str, str]:
        if (c := int_literal(v)) is not None:
            return str(s32(c)), str(s32(c >> 32))
        lo = self.op(f"trunc i64 {v} to i32")
        sh = self.op(f"lshr i64 {v}, 32")
        hi = self.op(f"trunc i64 {sh} to i32")
        if v.startswith("%"):
            self.joined[(lo, hi)] = v
        return lo, hi

    def write_pair(self, o: Operand, v: str) -> None:
        assert isinstance(o, Reg), o
        lo, hi = self.split(v)
        self.store_reg(o, lo)
        self.store_reg(o.offset(1), hi)

    # ---------------------------------------------------------------- floats
    def f32(self, o: Operand, ftz: bool = False) -> str:
        if isinstance(o, FImm):
            v = float_literal(o.text, 32)
        else:  # a float written or read before in this block is not cast again
            bits = self.raw32(o)
            v = (
                self.floats.get(bits)
                or f32_literal(bits)
                or self.op(f"bitcast i32 {bits} to float")
            )
            self.floats[bits] = v
        if ftz:
            v = self.op(f"call float @sass.ftz(float {v})")
        if getattr(o, "absolute", False):
            v = self.op(f"call float @llvm.fabs.f32(float {v})")
        if getattr(o, "neg", False):
            v = self.op(f"fneg float {v}")
        return v

    def write_f32(self, o: Operand, v: str) -> None:
        bits = self.op(f"bitcast float {v} to i32")
        if v.startswith("%"):
            self.floats[bits] = v
        self.write(o, bits)

    def f64(self, o: Operand) -> str:
        if isinstance(o, FImm):
            v = float_literal(o.text, 64)
        elif isinstance(o, Imm):  # a 32-bit immediate on a double op is the high word
            v = f"0x{(o.value & M32) << 32:016X}"
        else:
            bits = self.pair(o)
            if (c := int_literal(bits)) is not None:
                v = f"0x{c & M64:016X}"  # LLVM's hexadecimal double: its bits
            else:
                v = self.doubles.get(bits) or self.op(f"bitcast i64 {bits} to double")
        if getattr(o, "absolute", False):
            v = self.op(f"call double @llvm.fabs.f64(double {v})")
        if getattr(o, "neg", False):
            v = self.op(f"fneg double {v}")
        return v

    def write_f64(self, o: Operand, v: str) -> None:
        bits = self.op(f"bitcast double {v} to i64")
        if v.startswith("%"):
            self.doubles[bits] = v
        self.write_pair(o, bits)

    # ---------------------------------------------------------------- constant bank
    def cbank(self, c: CBank, width: int) -> str:
        ty = f"i{8 * width}"
        if c.bank != 0:
            return self.constants.read(self, c, width)
        base = self.layout.base
        if c.reg is None and c.offset < base:
            return self.cbank_special(c.offset, width)
        offset = str(c.offset - base)
        if c.reg is not None:
            offset = self.op(f"add i32 {self.i32(c.reg)}, {c.offset - base}")
        ptr = self.op(f"getelementptr i8, {self.pspace} %param.image, i32 {offset}")
        return self.op(f"load {ty}, {self.pspace} {ptr}, align {min(width, 4)}")

    def cbank_special(self, offset: int, width: int) -> str:
        if width == 8 and offset in (0x118, 0x208):
            return "0"  # the global memory descriptor: meaningless off NVIDIA
        if width == 8 and offset == 0x20:
            self.uses_stack = True
            return "%stack.base"
        if width == 4 and offset in (0x20, 0x24):
            self.uses_stack = True
            lo, hi = self.split("%stack.base")
            return lo if offset == 0x20 else hi
        if width == 4 and offset == 0x28:
            return str(self.stack_size)
        if width == 4 and offset in CBANK0_SPECIALS:
            return self.op(f"call i32 @sass.{CBANK0_SPECIALS[offset]}()")
        if width == 8 and offset in CBANK0_SPECIALS and offset + 4 in CBANK0_SPECIALS:
            lo = self.op(f"call i32 @sass.{CBANK0_SPECIALS[offset]}()")
            hi = self.op(f"call i32 @sass.{CBANK0_SPECIALS[offset + 4]}()")
            return self.join(lo, hi)
        if width == 4 and offset == 0x2C:
            return self.op("call i32 @sass.dynamic.smem()")
        if (
            self.constants is not None
            and (value := self.constants.driver(self, offset, width)) is not None
        ):
            return value
        raise self.fail(f"c[0x0][{offset:#x}] is a driver constant the lifter does not model")

    def target_of(self, o: Operand) -> int:
        if isinstance(o, Target):
            return o.address
        raise self.fail(f"expected a branch target, got {o}")


__all__ = ["Emitter", "LiftError", "Mem", "float_literal", "imm_value", "parse_float_bits"]
