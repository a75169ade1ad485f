"""System calls: device printf (`CALL.ABS.NOINC` to `vprintf`), LEPC, and the lift-time tracking
of values loaded from constant bank 4 (the loader-patched addresses of vprintf and format strings).

NVIDIA's vprintf(format, args) takes a buffer of arguments each aligned to its size (ints 4 bytes,
doubles/longs/pointers 8); the format string is known at lift time from the cubin, so the call
becomes the same ockl hostcall sequence clang emits for HIP printf.
"""

from __future__ import annotations

import re

from cass.models.lift.emit import Emitter
from cass.models.lift.ir import CBank, Imm, Instruction, Reg

CONVERSION = re.compile(
    r"%[-+ #0]*(\d+|\*)?(?:\.(\d+|\*))?(hh|h|ll|l|L|z|j|t)?([diouxXcsfFeEgGaAp%])"
)
MOVES = frozenset({"MOV", "UMOV", "IMAD", "R2UR"})
TRACKED = MOVES | {"LDC", "ULDC"}  # the opcodes that can start tracking a register


def track(e: Emitter, ins: Instruction) -> None:
    """Remember which registers hold c[0x4] entries (symbol, addend); forget overwritten ones."""
    if not e.c4_regs and not e.imm_regs and ins.opcode not in TRACKED:
        return  # nothing tracked to forget, nothing to remember
    ops = ins.operands
    if not ops or not isinstance(ops[0], Reg) or ops[0].is_pred:
        return
    d = ops[0]
    src = next((o for o in ops[1:] if isinstance(o, CBank)), None)
    if ins.opcode in ("MOV", "UMOV") and len(ops) >= 2 and isinstance(ops[1], Imm):
        e.imm_regs[d.name] = ops[1].value
        return
    index = e.imm_regs.get(src.reg.name, 0) if src is not None and src.reg is not None else 0
    e.imm_regs.pop(d.name, None)
    if ins.opcode in ("LDC", "ULDC") and src is not None and src.bank == 4:
        offset = src.offset + index
        entry = e.constants.constant4_entry(offset) if e.constants else None
        e.c4_regs[d.name] = entry
        if ins.has("64"):
            e.c4_regs[d.offset(1).name] = None
        return
    value_src = ops[-1] if ins.opcode != "IMAD" else (ops[3] if len(ops) == 4 else None)
    if ins.opcode in MOVES and isinstance(value_src, CBank) and value_src.bank == 4 and e.constants:
        offset = value_src.offset + index
        e.c4_regs[d.name] = e.constants.constant4_entry(offset) if offset % 8 == 0 else None
        return
    if ins.opcode in MOVES and isinstance(value_src, Reg) and value_src.name in e.c4_regs:
        e.c4_regs[d.name] = e.c4_regs[value_src.name]
        return
    for k in range(4 if ins.has("128") else 2 if ins.has("64", "WIDE") else 1):
        e.c4_regs.pop(d.offset(k).name, None)


def lepc(e: Emitter, ins: Instruction) -> None:
    """LEPC Rd[, return label]: the program counter; only ever used as a return address here."""
    e.write_pair(ins.operands[0], "0")


def call_absolute(e: Emitter, ins: Instruction) -> None:
    reg = ins.operands[0] if ins.operands else None
    entry = e.c4_regs.get(reg.name) if isinstance(reg, Reg) else None
    if not entry or entry[0] != "vprintf":
        raise e.fail(f"{ins.full}: only calls to vprintf are supported (callee unknown)")
    fmt_entry = e.c4_regs.get("R4")
    if not fmt_entry or fmt_entry[0] not in e.constants.strings:
        raise e.fail("printf with a format string the lifter cannot find in the cubin")
    name, addend = fmt_entry
    fmt = e.constants.strings[name][addend:].split(b"\0", 1)[0].decode("latin-1")
    printf(e, fmt, e.pair(Reg("R4")), e.pair(Reg("R6")))
    e.write(Reg("R4"), "0")


def printf(e: Emitter, fmt: str, fmt_addr: str, args_addr: str) -> None:
    e.uses_printf = True
    if not e.target.private_as:  # NVPTX: the same vprintf call the original makes
        fptr, aptr = (
            e.op(f"inttoptr i64 {fmt_addr} to ptr"),
            e.op(f"inttoptr i64 {args_addr} to ptr"),
        )
        e.op(f"call i32 @vprintf(ptr {fptr}, ptr {aptr})")
        return
    specs = [m for m in CONVERSION.finditer(fmt) if m.group(4) != "%"]
    if any(m.group(1) == "*" or m.group(2) == "*" for m in specs):
        raise e.fail("printf with `*` widths is not supported")
    last_index = len(specs)
    desc = e.op("call i64 @__ockl_printf_begin(i64 0)")
    fptr = e.op(f"inttoptr i64 {fmt_addr} to ptr")
    desc = e.op(f"call i64 @__ockl_printf_append_string_n(i64 {desc}, ptr {fptr}, i64 {len(fmt.encode('latin-1')) + 1}, "
                f"i32 {int(last_index == 0)})")  # fmt: skip
    offset = 0
    for i, m in enumerate(specs):
        size = (
            8 if m.group(4) in "sfFeEgGaAp" or m.group(3) in ("l", "ll", "z", "j", "t", "L") else 4
        )
        offset = -(-offset // size) * size
        at = e.op(f"add i64 {args_addr}, {offset}")
        ptr = e.op(f"inttoptr i64 {at} to ptr")
        value = e.op(f"load i{8 * size}, ptr {ptr}, align {size}")
        wide = value if size == 8 else e.op(f"zext i32 {value} to i64")
        is_last = int(i == last_index - 1)
        if m.group(4) == "s":
            sptr = e.op(f"inttoptr i64 {value} to ptr")
            length = e.op(f"call i64 @sass.strlen0(ptr {sptr})")
            desc = e.op(
                f"call i64 @__ockl_printf_append_string_n(i64 {desc}, ptr {sptr}, i64 {length}, i32 {is_last})"
            )
        else:
            desc = e.op(f"call i64 @__ockl_printf_append_args(i64 {desc}, i32 1, i64 {wide}, i64 0, i64 0, i64 0, "
                        f"i64 0, i64 0, i64 0, i32 {is_last})")  # fmt: skip
        offset += size


HANDLERS = {"LEPC": lepc}
