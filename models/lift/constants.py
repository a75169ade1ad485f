"""Constant banks other than the parameters: c[0x3] (`__constant__` variables, module globals the
host fills with hipMemcpyToSymbol) and c[0x2] (the kernel's literal pool). Their layout and
contents come from the cubin; from text alone they are unknown and reading them is an error."""

from __future__ import annotations

from dataclasses import dataclass, field

from cass.models.lift.elfinfo import ConstantSymbol, CubinInfo
from cass.models.lift.ir import CBank
from cass.models.lift.sem_mem import shared_window


@dataclass
class ConstantBanks:
    symbols: list[ConstantSymbol] = field(default_factory=list)
    pool: bytes | None = None  # c[0x2] of this kernel
    pool_symbol: str = ""
    known: bool = False
    constant4: dict = field(default_factory=dict)
    strings: dict = field(default_factory=dict)
    zeroed: dict = field(default_factory=dict)
    kernel: str = "kernel"
    uses_grid_workspace: bool = False
    texrefs: dict = field(default_factory=dict)  # c[0x0] byte offset -> texture reference name
    surfrefs: dict = field(default_factory=dict)  # c[0x0] byte offset -> surface reference name

    def constant4_entry(self, offset: int):
        return self.constant4.get(offset)

    @classmethod
    def for_kernel(cls, cubin: CubinInfo | None, kernel: str) -> ConstantBanks:
        if cubin is None:
            return cls(kernel=kernel)
        return cls(cubin.constant3_symbols, cubin.constant2.get(kernel), f'@"sass.const2.{kernel}"', True,
                   cubin.constant4, cubin.strings, cubin.zeroed, kernel,
                   texrefs=cubin.texrefs.get(kernel, {}), surfrefs=cubin.surfrefs.get(kernel, {}))  # fmt: skip

    @property
    def grid_workspace_symbol(self) -> str:
        return f'@"sass.gridws.{self.kernel}"'

    def driver(self, e, offset: int, width: int) -> str | None:
        """A driver-filled word of c[0x0] below the parameters that `DRIVER_WORDS` models, or None."""
        if width == 8 and offset % 8 == 0:
            lo, hi = self.driver(e, offset, 4), self.driver(e, offset + 4, 4)
            return None if lo is None or hi is None else e.join(lo, hi)
        meaning = driver_word(offset, e.layout.base)
        if meaning is None or width != 4:
            return None
        if meaning in ("shared.window.lo", "shared.window.hi"):
            return e.split(shared_window(e))[meaning.endswith("hi")]
        if meaning in ("grid.workspace.hi", "grid.workspace.lo"):
            self.uses_grid_workspace = True
            lo, hi = e.split(e.op(f"ptrtoint ptr addrspace(1) {self.grid_workspace_symbol} to i64"))
            return hi if meaning.endswith("hi") else lo
        return None

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
        elif c.bank == 3 and c.reg is not None and len(self.symbols) > 1:
            return self._indexed_constant(e, c, ty, width)
        elif c.bank == 3:
            sym = self._symbol(c.offset) if c.reg is None else (self.symbols or [None])[0]
            if sym is None:
                raise e.fail(
                    f"c[0x3][{c.offset:#x}] is outside every __constant__ variable of the cubin"
                )
            base, start = f'@"{sym.name}"', sym.offset
        else:
            raise e.fail(f"constant bank c[{c.bank:#x}] is not supported")
        offset = str(c.offset - start)
        if c.reg is not None:
            offset = e.op(f"add i32 {e.i32(c.reg)}, {c.offset - start}")
        ptr = e.op(f"getelementptr i8, ptr addrspace(4) {base}, i32 {offset}")
        return e.op(f"load {ty}, ptr addrspace(4) {ptr}, align {min(width, 4)}")

    def _indexed_constant(self, e, c: CBank, ty: str, width: int) -> str:
        """c[0x3][Rx+off]: Rx holds a bank-3 offset (the immediate may be negative, ptxas folds
        index arithmetic into it), so the variable is chosen at run time by the offset's range."""
        at = e.op(f"add i32 {e.i32(c.reg)}, {c.offset}")
        ptr = None
        for sym in self.symbols:
            rel = e.op(f"sub i32 {at}, {sym.offset}")
            here = e.op(f'getelementptr i8, ptr addrspace(4) @"{sym.name}", i32 {rel}')
            if ptr is None:
                ptr = here
                continue
            inside = e.op(f"icmp sge i32 {at}, {sym.offset}")
            ptr = e.op(f"select i1 {inside}, ptr addrspace(4) {here}, ptr addrspace(4) {ptr}")
        return e.op(f"load {ty}, ptr addrspace(4) {ptr}, align {min(width, 4)}")

    def _address_constant(self, e, offset: int, width: int) -> str:
        """c[0x4]: loader-patched addresses; strings get the address of their copy, vprintf a tag."""
        base = offset - offset % 8
        name, addend = self.constant4.get(base, (None, 0))
        if name in self.strings or name in self.zeroed:
            value = e.op(
                f"ptrtoint ptr addrspacecast (ptr addrspace(1) {global_symbol(name)} to ptr) to i64"
            )
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
        out = ""
        if self.uses_grid_workspace:  # the cooperative-launch barrier word (see DRIVER_WORDS)
            out += f"{self.grid_workspace_symbol} = internal addrspace(1) global [16 x i8] zeroinitializer, align 16\n"
        if self.pool is not None:
            out += f"{self.pool_symbol} = internal addrspace(4) constant [{len(self.pool)} x i8] {_bytes(self.pool)}, align 16\n"
        return out


# Words of c[0x0] below the parameters that the NVIDIA driver fills at launch, as ptxas 13.0 reads
# them for PTX special registers (probe: one `mov.u32 %r, %<sreg>` per output word, sm_80 and
# sm_90 cubins). Layouts differ by architecture: the parameter base says which one a kernel has.
#   both:  0x0-0x8 %ntid, 0xc-0x14 %nctaid, 0x18-0x1c generic base of the shared window (sm_80
#          cvta.shared; sm_90 uses SR_SWINHI instead), 0x20-0x24 generic base of the local window,
#          0x28 initial stack pointer, 0x2c %dynamic_smem_size, 0x30-0x34 %gridid, 0x10c %nsmid
#   sm_80: %envreg0..31 at 0x88 + 4k, 0x114 (SR_SMEMSZ - it = %total_smem_size), 0x118 memory
#          descriptor, 0x120 %reserved_smem_offset_end
#   sm_90: %envreg0..31 at 0x40 + 4k (%reserved_smem_offset_end reads %envreg10), 0x13c
#          %aggr_smem_size bound, 0x144 %cluster_nctaid.x, 0x150 1/%cluster_nctaid.x (f32),
#          0x15c %nclusterid.x, 0x188 %cluster_nctarank, 0x208 memory descriptor
# cooperative_groups' grid_group reads its barrier workspace pointer from %envreg1 (high word)
# and %envreg2 (low word); a null pointer means "not a cooperative launch" and grid.sync() traps.
# The lift gives each kernel a zeroed 16-byte global of its own as that workspace: the barrier
# itself (warp-aggregated ATOM.ADD on word 1, then a STRONG.GPU load spin on bit 31) is ordinary
# code, correct whenever all blocks are resident, as hipLaunchCooperativeKernel guarantees.
ENVREG_BASE = {0x160: 0x88, 0x210: 0x40}
GRID_WORKSPACE_ENVREGS = {1: "grid.workspace.hi", 2: "grid.workspace.lo"}


COMMON_WORDS = {0x18: "shared.window.lo", 0x1C: "shared.window.hi"}


def driver_word(offset: int, param_base: int) -> str | None:
    """What the driver-filled word at c[0x0][offset] means for this parameter layout (or None)."""
    if offset in COMMON_WORDS:
        return COMMON_WORDS[offset]
    envregs = ENVREG_BASE.get(param_base)
    if envregs is not None and envregs <= offset < envregs + 32 * 4 and offset % 4 == 0:
        return GRID_WORKSPACE_ENVREGS.get((offset - envregs) // 4)
    return None


VPRINTF_TAG = 0x7FFF_F000_0000_0001


def global_symbol(name: str) -> str:
    """The module global for a `.nv.global(.init)` symbol: compiler strings (`$str`, printf
    formats) are internal constants; `__device__` variables keep their name, so the host's
    hipMemcpyToSymbol/FromSymbol finds them."""
    return f'@"sass.gstr.{name}"' if name.startswith("$") else f'@"{name}"'


# HIP 5.2's textureReference (hip/texture_types.h): 88 bytes, the bound
# texture object (a pointer to the image descriptor) at byte 72. The runtime's bind copies the
# host shadow into the device global of the texture's name (runner/emulator/native/runtime_texref.cpp).
TEXTURE_REFERENCE_BYTES, TEXTURE_OBJECT_OFFSET = 88, 72


def module_globals(cubin: CubinInfo | None) -> str:
    """One externally visible addrspace(4) global per `__constant__` variable and one addrspace(1)
    global per `__device__` variable, initialised from the cubin; one internal copy of each string
    the code addresses (printf formats); one addrspace(1) textureReference per texture reference
    of the module (read by a kernel or not: the host binds each), which hipBindTexture* fills."""
    if cubin is None:
        return ""
    lines = []
    for name, data in cubin.strings.items():
        kind = (
            "internal addrspace(1) constant"
            if name.startswith("$")
            else "protected addrspace(1) externally_initialized global"
        )
        lines.append(
            f"{global_symbol(name)} = {kind} [{max(len(data), 1)} x i8] {_bytes(data)}, align 8"
        )
    for name, size in cubin.zeroed.items():
        lines.append(f"{global_symbol(name)} = protected addrspace(1) externally_initialized global [{max(size, 1)} x i8] "
                     "zeroinitializer, align 8")  # fmt: skip
    read = {t for slots in cubin.texrefs.values() for t in slots.values()}
    for name in sorted(read | set(cubin.textures)):  # every reference: the host binds them all
        lines.append(f'@"{name}" = protected addrspace(1) externally_initialized global '
                     f"[{TEXTURE_REFERENCE_BYTES} x i8] zeroinitializer, align 8")  # fmt: skip
    for sym in cubin.constant3_symbols:
        data = cubin.constant3[sym.offset : sym.offset + sym.size]
        lines.append(f'@"{sym.name}" = protected addrspace(4) externally_initialized global [{max(sym.size, 1)} x i8] '
                     f"{_bytes(data) if data else 'zeroinitializer'}, align 16")  # fmt: skip
    return "\n".join(lines) + "\n"


def _bytes(data: bytes) -> str:
    if not any(data):
        return "zeroinitializer"
    return 'c"' + "".join(f"\\{b:02X}" for b in data) + '"'
