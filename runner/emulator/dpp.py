"""DPP (data-parallel primitives) forms of VOP1/VOP2/VOPC instructions: src0 is read from another
lane of the same 16-lane row (DPP16: quad_perm, row_shl/shr/ror, row_mirror, row_half_mirror,
row_share, row_xmask) or 8-lane group (DPP8), with row_mask/bank_mask write masks and bound_ctrl.

The plain instruction's handler runs with src0 redirected to the machine's spare VGPR row (v[-1])
holding the permuted values, and EXEC narrowed to the lanes DPP lets write (restored after)."""

from __future__ import annotations

import numpy as np
from cass.runner.emulator.decode import Instruction, Operand
from cass.runner.emulator.state import EXEC, U32, Group, pack_lanes

LANES = np.arange(32)
_DPP_KEYS = {
    "quad_perm",
    "row_shl",
    "row_shr",
    "row_ror",
    "row_mirror",
    "row_half_mirror",
    "row_share",
    "row_xmask",
    "row_mask",
    "bank_mask",
    "bound_ctrl",
    "fi",
    "dpp8",
}


def _ints(text: str) -> list[int]:
    return [int(x, 0) for x in text.strip("[]").split(",")]


def source_lanes(mods: dict[str, str]) -> np.ndarray | None:
    """Source lane of every lane (-1: out of the row), or None for an unknown control."""
    row, pos = LANES & ~15, LANES & 15
    if "dpp8" in mods:
        sel = np.array(_ints(mods["dpp8"]))
        return (LANES & ~7) + sel[LANES & 7]
    if "quad_perm" in mods:
        sel = np.array(_ints(mods["quad_perm"]))
        return (LANES & ~3) + sel[LANES & 3]
    for key, fn in (
        ("row_shl", lambda n: np.where(pos + n <= 15, LANES + n, -1)),
        ("row_shr", lambda n: np.where(pos - n >= 0, LANES - n, -1)),
        ("row_ror", lambda n: row + (pos - n) % 16),
        ("row_share", lambda n: row + n),
        ("row_xmask", lambda n: row + (pos ^ n)),
    ):
        if key in mods:
            return fn(int(mods[key], 0))
    if "row_mirror" in mods:
        return row + 15 - pos
    if "row_half_mirror" in mods:
        return (LANES & ~7) + 7 - (LANES & 7)
    return None


def compile_dpp(ins: Instruction):
    from cass.runner.emulator.ops_vector import compile_vector

    if ins.mnemonic.endswith("_sdwa"):
        return None
    src = source_lanes(ins.modifiers)
    if src is None or len(ins.operands) < 2 or ins.operands[1].kind != "v":
        return None
    src0_op = ins.operands[1]
    spare = Operand("v", -1, 1, neg=src0_op.neg, abs=src0_op.abs, text=f"dpp({src0_op.text})")
    kept = {k: v for k, v in ins.modifiers.items() if k not in _DPP_KEYS}
    operands = [ins.operands[0], spare, *ins.operands[2:]]
    name = ins.mnemonic.removesuffix("_dpp")
    plain = Instruction(ins.pc, ins.size, ins.words, ins.text, name, operands, kept)
    inner = compile_vector(plain)
    if inner is None:
        return None
    row_mask = int(ins.modifiers.get("row_mask", "0xf"), 0)
    bank_mask = int(ins.modifiers.get("bank_mask", "0xf"), 0)
    enabled = ((row_mask >> (LANES // 16)) & 1).astype(bool) & (
        (bank_mask >> ((LANES % 16) // 4)) & 1
    ).astype(bool)
    bound_zero = "bound_ctrl" in ins.modifiers  # printed only when the BC bit is set
    fetch_inactive = ins.modifiers.get("fi", "0") not in ("0",)
    src0 = src0_op.index

    def run(m, g):
        st = m.st
        values = st.V[src0, g.idx]
        active = st.exec_mask(g)
        index = np.broadcast_to(np.clip(src, 0, 31), (g.k, 32))
        fetched = np.take_along_axis(values, index, axis=1)
        readable = np.broadcast_to(src >= 0, (g.k, 32))
        if not fetch_inactive:
            readable = readable & np.take_along_axis(active, index, axis=1)
        writes = active & enabled & (readable | bound_zero)
        old_exec = st.S[EXEC, g.idx].copy()
        st.V[-1, g.idx] = np.where(readable, fetched, U32(0))
        st.swrite(EXEC, g, pack_lanes(writes))
        try:
            inner(m, Group(g.idx, g.k, g.full))
        finally:
            st.swrite(EXEC, g, old_exec)

    return run
