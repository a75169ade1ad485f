"""Memory semantics: global, shared, local and generic loads/stores, atomics, fences.

Address spaces: global = `addrspace(1)` from a 64-bit register pair; shared = the kernel's LDS
window (`addrspace(3)`, indexed by the low 24 bits of the 32-bit SASS shared address, so sm_90's
`(CgaCtaId << 24) + 0x400` window base lands inside it); local = the per-thread stack array (R1
is an offset into it); generic = flat pointers.
"""

from __future__ import annotations

from cass.models.lift.emit import Emitter
from cass.models.lift.ir import Instruction, Mem, Operand, Reg
from cass.models.lift.sem_int import Handler

SIZES = {"U8": (1, "zext"), "S8": (1, "sext"), "U16": (2, "zext"), "S16": (2, "sext"), "64": (8, ""),
         "128": (16, ""), "32": (4, "")}  # fmt: skip
RMW = {"ADD": "add", "MIN": "min", "MAX": "max", "AND": "and", "OR": "or", "XOR": "xor", "EXCH": "xchg",
       "INC": "uinc_wrap", "DEC": "udec_wrap"}  # fmt: skip
SCOPES = {"GPU": "agent", "SYS": "", "CTA": "workgroup", "SM": "workgroup", "VC": "workgroup"}


def _size(ins: Instruction) -> tuple[int, str]:
    return next((SIZES[m] for m in ins.mods if m in SIZES), (4, ""))


def address(e: Emitter, ins: Instruction, mem: Operand, space: str) -> str:
    """A typed pointer for `mem` in `space` ("global", "shared", "local", "generic")."""
    if not isinstance(mem, Mem):
        raise e.fail(f"expected a memory address, got {mem}")
    if space in ("global", "generic"):
        base = "0"
        if mem.reg is not None and not mem.reg.is_zero:
            base = e.pair(mem.reg) if (mem.reg.wide or ins.has("E") or space == "generic") else e.op(
                f"zext i32 {e.i32(mem.reg)} to i64")
        if mem.ureg is not None and not mem.ureg.is_zero:
            base = e.op(f"add i64 {base}, {e.op(f'zext i32 {e.i32(mem.ureg)} to i64')}")
        addr = e.op(f"add i64 {base}, {mem.offset}") if mem.offset else base
        return e.op(f"inttoptr i64 {addr} to {'ptr addrspace(1)' if space == 'global' else 'ptr'}")
    off = str(mem.offset)
    if mem.reg is not None and not mem.reg.is_zero:
        r = e.i32(mem.reg)
        if mem.scale != 1:
            r = e.op(f"mul i32 {r}, {mem.scale}")
        off = e.op(f"add i32 {r}, {mem.offset}")
    if mem.ureg is not None and not mem.ureg.is_zero:
        off = e.op(f"add i32 {off}, {e.i32(mem.ureg)}")
    if space == "shared":
        e.uses_shared = True
        off = e.op(f"and i32 {off}, 16777215")
        return e.op(f"getelementptr i8, ptr addrspace(3) {e.shared_symbol}, i32 {off}")
    e.uses_stack = True
    return e.op(f"getelementptr i8, {e.pspace} %stack, i32 {off}")


def _pointer_type(space: str, e: Emitter) -> str:
    return {"global": "ptr addrspace(1)", "shared": "ptr addrspace(3)", "generic": "ptr",
            "local": e.pspace}[space]  # fmt: skip


def load(e: Emitter, ins: Instruction, space: str) -> None:
    d, mem = ins.operands[0], ins.operands[1]
    size, ext = _size(ins)
    ptr = address(e, ins, mem, space)
    pty = _pointer_type(space, e)
    if size < 4:
        v = e.op(f"load i{8 * size}, {pty} {ptr}, align {size}")
        e.write(d, e.op(f"{ext} i{8 * size} {v} to i32"))
        return
    n = size // 4
    v = e.op(f"load <{n} x i32>, {pty} {ptr}, align {size}")
    assert isinstance(d, Reg)
    for k in range(n):
        e.write(d.offset(k), e.op(f"extractelement <{n} x i32> {v}, i32 {k}"))


def store(e: Emitter, ins: Instruction, space: str) -> None:
    mem, src = ins.operands[0], ins.operands[1]
    size, _ = _size(ins)
    ptr = address(e, ins, mem, space)
    pty = _pointer_type(space, e)
    if size < 4:
        v = e.op(f"trunc i32 {e.i32(src)} to i{8 * size}")
        e.emit(f"store i{8 * size} {v}, {pty} {ptr}, align {size}")
        return
    n = size // 4
    assert isinstance(src, Reg)
    vec = "undef"
    for k in range(n):
        vec = e.op(f"insertelement <{n} x i32> {vec}, i32 {e.i32(src.offset(k))}, i32 {k}")
    e.emit(f"store <{n} x i32> {vec}, {pty} {ptr}, align {size}")


def _scope(ins: Instruction, space: str) -> str:
    if space == "shared":
        return ' syncscope("workgroup")'
    scope = next((SCOPES[m] for m in ins.mods if m in SCOPES), "agent")
    return f' syncscope("{scope}")' if scope else ""


def atomic(e: Emitter, ins: Instruction, space: str, returns: bool) -> None:
    """ATOMG/ATOMS/ATOM (returning) and RED/REDG (not): `[pd,] d, [a], b[, c]`."""
    ops = [o for o in ins.operands if not (isinstance(o, Reg) and o.is_pred)]
    pout = next((o for o in ins.operands if isinstance(o, Reg) and o.is_pred), None)
    success = None
    if ins.has("CAST") and isinstance(ops[0], Reg):  # sm_90: the success flag lands in a register
        success, ops = ops[0], ops[1:]
    if returns and not ins.has("CAST"):
        d, mem, *vals = ops
    else:
        d, (mem, *vals) = None, ops
    ptr = address(e, ins, mem, space)
    pty = _pointer_type(space, e)
    wide = ins.has("64", "S64", "U64", "F64")
    ity = "i64" if wide else "i32"
    read = e.pair if wide else e.i32
    scope = _scope(ins, space)
    if ins.has("CAS", "CAST"):
        cmp, new = read(vals[0]), read(vals[1])
        pair = e.op(f"cmpxchg {pty} {ptr}, {ity} {cmp}, {ity} {new}{scope} monotonic monotonic")
        old = e.op(f"extractvalue {{ {ity}, i1 }} {pair}, 0")
        ok = e.op(f"extractvalue {{ {ity}, i1 }} {pair}, 1")
        if ins.has("CAST") and pout is not None:
            e.set_pred(pout, ok)
        if success is not None:
            e.write(success, e.op(f"zext i1 {ok} to i32"))
    else:
        if ins.has("POPC") and ins.has("INC"):
            op, value = "add", "1"
        else:
            name = next((m for m in ins.mods if m in RMW), None)
            if name is None:
                raise e.fail(f"atomic operation {ins.full} is not supported")
            op, value = RMW[name], read(vals[0])
        if op in ("min", "max") and not ins.has("S32", "S64"):
            op = "u" + op
        fty = "float" if ins.has("F32") else "double" if ins.has("F64") else None
        if fty and op == "add":
            fv = e.op(f"bitcast {ity} {value} to {fty}")
            res = e.op(f"atomicrmw fadd {pty} {ptr}, {fty} {fv}{scope} monotonic")
            old = e.op(f"bitcast {fty} {res} to {ity}")
        elif fty:
            raise e.fail(f"atomic operation {ins.full} is not supported")
        else:
            old = e.op(f"atomicrmw {op} {pty} {ptr}, {ity} {value}{scope} monotonic")
    if d is not None and isinstance(d, Reg) and not d.is_zero:
        (e.write_pair if wide else e.write)(d, old)


def membar(e: Emitter, ins: Instruction) -> None:
    scope = next((SCOPES[m] for m in ins.mods if m in SCOPES), "agent")
    where = f' syncscope("{scope}")' if scope else ""
    e.emit(f"fence{where} seq_cst")


HANDLERS: dict[str, Handler] = {
    "LDG": lambda e, i: load(e, i, "global"), "STG": lambda e, i: store(e, i, "global"),
    "LDS": lambda e, i: load(e, i, "shared"), "STS": lambda e, i: store(e, i, "shared"),
    "LDL": lambda e, i: load(e, i, "local"), "STL": lambda e, i: store(e, i, "local"),
    "LD": lambda e, i: load(e, i, "generic"), "ST": lambda e, i: store(e, i, "generic"),
    "ATOMG": lambda e, i: atomic(e, i, "global", True), "ATOM": lambda e, i: atomic(e, i, "generic", True),
    "ATOMS": lambda e, i: atomic(e, i, "shared", True), "RED": lambda e, i: atomic(e, i, "global", False),
    "REDG": lambda e, i: atomic(e, i, "global", False), "MEMBAR": membar,
}  # fmt: skip
