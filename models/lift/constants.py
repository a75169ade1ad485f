"""Constant banks other than the parameters: c[0x3] (`__constant__` variables, module globals the
host fills with hipMemcpyToSymbol) and c[0x2] (the kernel's literal pool). Their layout and
contents come from the cubin; from text alone they are unknown and reading them is an error."""

from __future__ import annotations

from dataclasses import dataclass, field

from cass.models.lift.elfinfo import ConstantSymbol, CubinInfo
from cass.models.lift.ir import CBank


@dataclass
class ConstantBanks:
    symbols: list[ConstantSymbol] = field(default_factory=list)
    pool: bytes | None = None  # c[0x2] of this kernel
    pool_symbol: str = ""
    known: bool = False
    constant4: dict = field(default_factory=dict)
    strings: dict = field(default_factory=dict)

    def constant4_entry(self, offset: int):
        return self.constant4.get(offset)

    @classmethod
    def for_kernel(cls, cubin: CubinInfo | None, kernel: str) -> ConstantBanks:
        if cubin is None:
            return cls()
        return cls(cubin.constant3_symbols, cubin.constant2.get(kernel), f'@"sass.const2.{kernel}"', True,
                   cubin.constant4, cubin.strings)  # fmt: skip

    def read(self, e, c: CBank, width: int) -> str:
        ty = f"i{8 * width}"
        if not self.known:
            raise e.fail(f"constant bank c[{c.bank:#x}] (__constant__ data or a literal pool) is not in SASS text; "
                         "give the cubin (or, in the benchmark, the CUDA source is compiled for it)")  # fmt: skip
        if c.bank == 4:
            index = 0 if c.reg is None else e.imm_regs.get(c.reg.name)
            if index is None:
                raise e.fail("c[0x4] indexed by a register whose value is not a known constant")
            return self._address_constant(e, c.offset + index, width)
        if c.bank == 2 and self.pool is not None:
            base, start = self.pool_symbol, 0
        elif c.bank == 3:
            sym = self._symbol(c.offset)
            if sym is None:
                raise e.fail(f"c[0x3][{c.offset:#x}] is outside every __constant__ variable of the cubin")
            base, start = f'@"{sym.name}"', sym.offset
        else:
            raise e.fail(f"constant bank c[{c.bank:#x}] is not supported")
        offset = str(c.offset - start)
        if c.reg is not None:
            offset = e.op(f"add i32 {e.i32(c.reg)}, {c.offset - start}")
        ptr = e.op(f"getelementptr i8, ptr addrspace(4) {base}, i32 {offset}")
        return e.op(f"load {ty}, ptr addrspace(4) {ptr}, align {min(width, 4)}")

    def _address_constant(self, e, offset: int, width: int) -> str:
        """c[0x4]: loader-patched addresses; strings get the address of their copy, vprintf a tag."""
        base = offset - offset % 8
        name, addend = self.constant4.get(base, (None, 0))
        if name in self.strings:
            value = e.op(f'ptrtoint ptr addrspacecast (ptr addrspace(1) @"sass.gstr.{name}" to ptr) to i64')
            value = e.op(f"add i64 {value}, {addend}")
        elif name == "vprintf":
            value = str(VPRINTF_TAG)
        else:
            raise e.fail(f"c[0x4][{offset:#x}] is not a relocated address the lifter knows")
        if width == 8:
            return value
        lo, hi = e.split(value)
        return lo if offset % 8 == 0 else hi

    def _symbol(self, offset: int) -> ConstantSymbol | None:
        inside = [s for s in self.symbols if s.offset <= offset < s.offset + max(s.size, 1)]
        if inside:
            return inside[0]
        before = [s for s in self.symbols if s.offset <= offset]
        return before[-1] if before else None

    def kernel_globals(self) -> str:
        if self.pool is None:
            return ""
        return f"{self.pool_symbol} = internal addrspace(4) constant [{len(self.pool)} x i8] {_bytes(self.pool)}, align 16\n"


VPRINTF_TAG = 0x7FFF_F000_0000_0001


def module_globals(cubin: CubinInfo | None) -> str:
    """One externally visible addrspace(4) global per `__constant__` variable, initialised from the
    cubin; one global copy of each string the code addresses (printf formats)."""
    if cubin is None:
        return ""
    lines = [f'@"sass.gstr.{name}" = internal addrspace(1) constant [{max(len(data), 1)} x i8] {_bytes(data)}, align 8'
             for name, data in cubin.strings.items()]  # fmt: skip
    for sym in cubin.constant3_symbols:
        data = cubin.constant3[sym.offset:sym.offset + sym.size]
        lines.append(f'@"{sym.name}" = protected addrspace(4) externally_initialized global [{max(sym.size, 1)} x i8] '
                     f"{_bytes(data) if data else 'zeroinitializer'}, align 16")  # fmt: skip
    return "\n".join(lines) + "\n"


def _bytes(data: bytes) -> str:
    if not any(data):
        return "zeroinitializer"
    return 'c"' + "".join(f"\\{b:02X}" for b in data) + '"'
