"""Memory semantics: global, shared, local and generic loads/stores, atomics, fences.

Address spaces: global = `addrspace(1)` from a 64-bit register pair; shared = the kernel's LDS
window (`addrspace(3)`, indexed by the low 24 bits of the 32-bit SASS shared address, so sm_90's
`(CgaCtaId << 24) + 0x400` window base lands inside it); local = the per-thread stack array (R1
is an offset into it); generic = flat pointers.
"""

from __future__ import annotations

from dataclasses import replace

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
            base = (
                e.pair(mem.reg)
                if (mem.reg.wide or ins.has("E") or space == "generic")
                else e.op(f"zext i32 {e.i32(mem.reg)} to i64")
            )
        if mem.ureg is not None and not mem.ureg.is_zero:
            base = e.op(f"add i64 {base}, {e.op(f'zext i32 {e.i32(mem.ureg)} to i64')}")
        addr = e.op(f"add i64 {base}, {mem.offset}") if mem.offset else base
        if space == "generic" and e.shared_size > 0:
            return generic_pointer(e, addr)
        return e.op(f"inttoptr i64 {addr} to {'ptr addrspace(1)' if space == 'global' else 'ptr'}")
    if space == "shared":
        return shared_pointer(e, shared_offset(e, mem))
    e.uses_stack = True
    return e.op(f"getelementptr i8, {e.pspace} %stack, i32 {_offset(e, mem)}")


def _offset(e: Emitter, mem: Mem) -> str:
    """The i32 byte offset `[reg*scale + ureg + imm]` of a shared or local access."""
    off = str(mem.offset)
    if mem.reg is not None and not mem.reg.is_zero:
        r = e.i32(mem.reg)
        if mem.scale != 1:
            r = e.op(f"mul i32 {r}, {mem.scale}")
        off = e.op(f"add i32 {r}, {mem.offset}")
    if mem.ureg is not None and not mem.ureg.is_zero:
        off = e.op(f"add i32 {off}, {e.i32(mem.ureg)}")
    return off


def shared_offset(e: Emitter, mem: Mem) -> str:
    """The byte offset in the kernel's shared memory of a shared access (the low 24 bits of the
    address: a shared-window address works as well)."""
    return e.op(f"and i32 {_offset(e, mem)}, 16777215")


def shared_pointer(e: Emitter, offset: str) -> str:
    e.uses_shared = True
    return e.op(f"getelementptr i8, ptr addrspace(3) {e.shared_symbol}, i32 {offset}")


def shared_window(e: Emitter) -> str:
    """The i64 generic address of the kernel's shared window as NVIDIA code sees it: the high word
    of the LDS aperture (what c[0x0][0x18..0x1f] on sm_80 and SR_SWINHI on sm_90 give), low word 0."""
    e.uses_shared = True
    flat = e.op(f"ptrtoint ptr addrspacecast (ptr addrspace(3) {e.shared_symbol} to ptr) to i64")
    return e.op(f"and i64 {flat}, -4294967296")


def generic_pointer(e: Emitter, addr: str) -> str:
    """A generic address: inside the shared window (same high word) its low 24 bits index the LDS
    array, as LDS/STS do; anything else (global, the local stack) is a flat pointer already. The
    choice is made on integers: llc-16 turns a `select` of an LDS-cast pointer and an `inttoptr`
    into an LDS access on both arms (a grid.sync() workspace atomic became ds_add_rtn_u32)."""
    window = shared_window(e)
    inside = e.op(f"icmp eq i64 {e.op(f'and i64 {addr}, -4294967296')}, {window}")
    flat = e.op(f"ptrtoint ptr addrspacecast (ptr addrspace(3) {e.shared_symbol} to ptr) to i64")
    lds = e.op(f"add i64 {flat}, {e.op(f'and i64 {addr}, 16777215')}")
    return e.op(f"inttoptr i64 {e.op(f'select i1 {inside}, i64 {lds}, i64 {addr}')} to ptr")


def query_space(e: Emitter, ins: Instruction) -> None:
    """`QSPC.E.{S,D,G,L} p, d, [a]`: is the generic address a in the shared (S; D = the cluster's
    distributed shared window, one CTA per cluster here), global or local window."""
    pd, _, mem = ins.operands[:3]
    if not isinstance(mem, Mem) or mem.reg is None:
        raise e.fail(f"expected a generic address, got {mem}")
    addr = e.pair(mem.reg)
    if mem.offset:
        addr = e.op(f"add i64 {addr}, {mem.offset}")
    high = e.op(f"and i64 {addr}, -4294967296")
    in_shared = e.op(f"icmp eq i64 {high}, {shared_window(e)}")
    e.uses_stack = True
    in_local = e.op(f"icmp eq i64 {high}, {e.op('and i64 %stack.base, -4294967296')}")
    if ins.has("S", "D"):
        e.set_pred(pd, in_shared)
    elif ins.has("L"):
        e.set_pred(pd, in_local)
    elif ins.has("G"):
        e.set_pred(pd, e.op(f"xor i1 {e.op(f'or i1 {in_shared}, {in_local}')}, true"))
    else:
        raise e.fail(f"{ins.full}: unknown address space query")


def _pointer_type(space: str, e: Emitter) -> str:
    return {"global": "ptr addrspace(1)", "shared": "ptr addrspace(3)", "generic": "ptr",
            "local": e.pspace}[space]  # fmt: skip


def _ordering(ins: Instruction, space: str) -> str | None:
    """`.STRONG.{SM,GPU,SYS}` accesses (volatile, relaxed atomics, the spin loads of cooperative
    groups' grid barrier) become monotonic atomics so LLVM keeps every one of them; None = plain."""
    if not ins.has("STRONG") or space == "local":
        return None
    return f"{_scope(ins, space)} monotonic"


def _kind(order: str | None, space: str) -> str:
    """`" volatile"` for a shared access and a strong one wider than 8 bytes, else "".

    Every LDS/STS is a volatile access: the warp's lanes share that memory in lockstep, and a
    lane may read back at once what another lane of the same instruction wrote over its own
    store (Rodinia's hybridsort counts with `do { s[i] = tag | (s[i] + 1); } while (s[i] !=
    value)`, the loop one lane of each collision leaves): LLVM, to which such a race is
    undefined, would forward the lane's own store to the load and leave the loop at once. ptxas
    kept only the shared accesses its program needs, so none is lost."""
    return " volatile" if order or space == "shared" else ""


def load(e: Emitter, ins: Instruction, space: str) -> None:
    d, mem = ins.operands[0], ins.operands[1]
    size, ext = _size(ins)
    ptr = address(e, ins, mem, space)
    pty = _pointer_type(space, e)
    order = _ordering(ins, space)
    if order is None and ins.address in e.polled and space != "local":
        order = f"{_scope(ins, space)} monotonic"  # a spin-wait's load (cfg.polled_loads)
    if size <= 8 and order is not None:
        v = e.op(f"load atomic i{8 * size}, {pty} {ptr}{order}, align {size}")
        if size < 4:
            e.write(d, e.op(f"{ext} i{8 * size} {v} to i32"))
        else:
            (e.write_pair if size == 8 else e.write)(d, v)
        return
    kind = _kind(order, space)
    if size < 4:
        v = e.op(f"load{kind} i{8 * size}, {pty} {ptr}, align {size}")
        e.write(d, e.op(f"{ext} i{8 * size} {v} to i32"))
        return
    n = size // 4
    if n == 1:  # a scalar load (a <1 x i32> load stays one through opt-16: an extractelement more)
        e.write(d, e.op(f"load{kind} i32, {pty} {ptr}, align 4"))
        return
    v = e.op(f"load{kind} <{n} x i32>, {pty} {ptr}, align {size}")
    assert isinstance(d, Reg)
    for k in range(n):
        e.write(d.offset(k), e.op(f"extractelement <{n} x i32> {v}, i32 {k}"))


def store(e: Emitter, ins: Instruction, space: str) -> None:
    mem, src = ins.operands[0], ins.operands[1]
    size, _ = _size(ins)
    ptr = address(e, ins, mem, space)
    pty = _pointer_type(space, e)
    order = _ordering(ins, space)
    if size <= 8 and order is not None:
        v = e.pair(src) if size == 8 else e.i32(src)
        if size < 4:
            v = e.op(f"trunc i32 {v} to i{8 * size}")
        e.emit(f"store atomic i{8 * size} {v}, {pty} {ptr}{order}, align {size}")
        return
    kind = _kind(order, space)
    if size < 4:
        v = e.op(f"trunc i32 {e.i32(src)} to i{8 * size}")
        e.emit(f"store{kind} i{8 * size} {v}, {pty} {ptr}, align {size}")
        return
    n = size // 4
    if n == 1:
        e.emit(f"store{kind} i32 {e.i32(src)}, {pty} {ptr}, align 4")
        return
    assert isinstance(src, Reg)
    vec = "undef"
    for k in range(n):
        vec = e.op(f"insertelement <{n} x i32> {vec}, i32 {e.i32(src.offset(k))}, i32 {k}")
    e.emit(f"store{kind} <{n} x i32> {vec}, {pty} {ptr}, align {size}")


def async_copy(e: Emitter, ins: Instruction) -> None:
    """`LDGSTS[.E][.BYPASS][.64|.128][.ZFILL] [dst], [src][, p]` (cp.async / memcpy_async), lifted as
    a synchronous global -> shared copy: correct because the program must wait (LDGDEPBAR +
    DEPBAR, or an mbarrier) before it reads the destination. `.ZFILL` carries the number of bytes
    to zero-fill at the end in the low bits of the source offset (ptxas: `cp.async ..., 16, 12`,
    12 source bytes, prints `[R2.64+0x4]`). A false predicate `p` (`!PT` for src-size 0) copies
    no source byte and zero-fills the destination."""
    dst, src, *rest = ins.operands
    size, _ = _size(ins)
    if not isinstance(src, Mem):
        raise e.fail(f"expected a global source address, got {src}")
    valid = size
    if ins.has("ZFILL"):
        zeros = src.offset & (size - 1)
        src, valid = replace(src, offset=src.offset - zeros), size - zeros
    sptr = address(e, ins, dst, "shared")
    pred = rest[0] if rest else None
    if pred is None or (isinstance(pred, Reg) and pred.is_true and not pred.invert):
        _copy_bytes(e, ins, src, sptr, valid, size)
        return
    if isinstance(pred, Reg) and pred.is_true:
        _zero_fill(e, sptr, 0, size)
        return
    copy, zero, done = e.fresh_block("cp.copy"), e.fresh_block("cp.zero"), e.fresh_block("cp.done")
    e.branch(e.pred(pred), copy, zero)
    e.label(copy)
    _copy_bytes(e, ins, src, sptr, valid, size)
    e.jump(done)
    e.label(zero)
    _zero_fill(e, sptr, 0, size)
    e.label(done)


def _copy_bytes(e: Emitter, ins: Instruction, src: Mem, sptr: str, valid: int, size: int) -> None:
    if valid:
        gptr = address(e, ins, src, "global")
        ty = f"<{valid // 4} x i32>" if valid % 4 == 0 else f"<{valid} x i8>"
        v = e.op(f"load {ty}, ptr addrspace(1) {gptr}, align {valid & -valid}")
        e.emit(f"store {ty} {v}, ptr addrspace(3) {sptr}, align {valid & -valid}")
    _zero_fill(e, sptr, valid, size)


def _zero_fill(e: Emitter, sptr: str, start: int, size: int) -> None:
    if start >= size:
        return
    at = e.op(f"getelementptr i8, ptr addrspace(3) {sptr}, i32 {start}") if start else sptr
    e.emit(f"store <{size - start} x i8> zeroinitializer, ptr addrspace(3) {at}, align 1")


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
        if pout is not None:  # CAST: swapped; generic CAS: "done here" (no QSPC fallback)
            e.set_pred(pout, ok if ins.has("CAST") else "true")
        if success is not None:  # `.64`: the flag fills the register pair
            (e.write_pair if wide else e.write)(success, e.op(f"zext i1 {ok} to {ity}"))
    else:
        old = _read_modify_write(e, ins, f"{pty} {ptr}", ity, vals, scope)
        if pout is not None:  # generic ATOM: "done here" (else ptxas's QSPC fallback redoes it)
            e.set_pred(pout, "true")
    if d is not None and isinstance(d, Reg) and not d.is_zero:
        (e.write_pair if wide else e.write)(d, old)


def _read_modify_write(
    e: Emitter, ins: Instruction, at: str, ity: str, vals: list[Operand], scope: str
) -> str:
    """The old value of an atomic read-modify-write (`at` = "<pointer type> <pointer>")."""
    read = e.pair if ity == "i64" else e.i32
    if ins.has("POPC") and ins.has("INC"):
        op, value = "add", "1"
    else:
        name = next((m for m in ins.mods if m in RMW), None)
        if name is None:
            raise e.fail(f"atomic operation {ins.full} is not supported")
        op, value = RMW[name], read(vals[0])
    if op in ("min", "max") and not ins.has("S32", "S64"):
        op = "u" + op
    if ins.has("F16x2", "BF16x2") and op == "add":  # llvm 16 has no vector atomicrmw fadd
        return _cas_loop(
            e, at, ity, scope, lambda old: _packed_add(e, old, value, ins.has("BF16x2"))
        )
    fty = "float" if ins.has("F32") else "double" if ins.has("F64") else None
    if fty and op == "add":
        fv = e.op(f"bitcast {ity} {value} to {fty}")
        return e.op(
            f"bitcast {fty} {e.op(f'atomicrmw fadd {at}, {fty} {fv}{scope} monotonic')} to {ity}"
        )
    if fty or any(m.startswith(("F16", "BF16")) for m in ins.mods):
        raise e.fail(f"atomic operation {ins.full} is not supported")
    if op in ("uinc_wrap", "udec_wrap"):  # llc-16 selects neither for gfx1100: a CAS loop
        return _cas_loop(
            e, at, ity, scope, lambda old: _wrapping_step(e, ity, old, value, op == "uinc_wrap")
        )
    return e.op(f"atomicrmw {op} {at}, {ity} {value}{scope} monotonic")


def _cas_loop(e: Emitter, at: str, ity: str, scope: str, combine) -> str:
    """old = *at; retry *at = combine(old) with cmpxchg until no other thread intervened."""
    pre, loop, done = e.fresh_block("cas.pre"), e.fresh_block("cas.loop"), e.fresh_block("cas.done")
    e.label(pre)
    first = e.op(f"load atomic {ity}, {at}{scope} monotonic, align {4 if ity == 'i32' else 8}")
    e.jump(loop)
    e.label(loop)
    old, seen = e.tmp("old"), e.tmp("seen")
    e.emit(f"{old} = phi {ity} [ {first}, %{pre} ], [ {seen}, %{loop} ]")
    pair = e.op(f"cmpxchg {at}, {ity} {old}, {ity} {combine(old)}{scope} monotonic monotonic")
    e.emit(f"{seen} = extractvalue {{ {ity}, i1 }} {pair}, 0")
    e.branch(e.op(f"extractvalue {{ {ity}, i1 }} {pair}, 1"), done, loop)
    e.label(done)
    return old


def _wrapping_step(e: Emitter, ity: str, old: str, limit: str, up: bool) -> str:
    """atomicInc: old >= limit ? 0 : old + 1; atomicDec: old == 0 || old > limit ? limit : old - 1."""
    if up:
        wrap = e.op(f"icmp uge {ity} {old}, {limit}")
        return e.op(f"select i1 {wrap}, {ity} 0, {ity} {e.op(f'add {ity} {old}, 1')}")
    wrap = e.op(
        f"or i1 {e.op(f'icmp eq {ity} {old}, 0')}, {e.op(f'icmp ugt {ity} {old}, {limit}')}"
    )
    return e.op(f"select i1 {wrap}, {ity} {limit}, {ity} {e.op(f'sub {ity} {old}, 1')}")


def _packed_add(e: Emitter, old: str, value: str, bf16: bool) -> str:
    """Lane-wise sum of two packed 16-bit floats (fp16 in LLVM; bf16 through f32, rounded to
    nearest even, NaN kept quiet)."""
    if not bf16:
        a, b = (e.op(f"bitcast i32 {x} to <2 x half>") for x in (old, value))
        return e.op(f"bitcast <2 x half> {e.op(f'fadd <2 x half> {a}, {b}')} to i32")
    halves = []
    for shift in (0, 16):
        a, b = (_bf16_to_f32(e, x, shift) for x in (old, value))
        bits = e.op(f"bitcast float {e.op(f'fadd float {a}, {b}')} to i32")
        odd = e.op(f"and i32 {e.op(f'lshr i32 {bits}, 16')}, 1")
        bias = e.op(f"add i32 {odd}, 32767")
        rounded = e.op(f"lshr i32 {e.op(f'add i32 {bits}, {bias}')}, 16")
        nan = e.op(f"icmp ugt i32 {e.op(f'and i32 {bits}, 2147483647')}, 2139095040")
        halves.append(e.op(f"select i1 {nan}, i32 32704, i32 {rounded}"))
    return e.op(f"or i32 {halves[0]}, {e.op(f'shl i32 {halves[1]}, 16')}")


def _bf16_to_f32(e: Emitter, word: str, shift: int) -> str:
    """The bf16 at bit `shift` of a 32-bit word, widened exactly to f32."""
    top = e.op(f"shl i32 {word}, 16") if shift == 0 else word
    return e.op(f"bitcast i32 {e.op(f'and i32 {top}, -65536')} to float")


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
    "QSPC": query_space, "LDGSTS": async_copy, "LDGDEPBAR": lambda e, i: None,  # copies complete at once: nothing to commit
}  # fmt: skip
