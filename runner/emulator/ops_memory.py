"""Memory instructions: SMEM loads, GLOBAL/FLAT/SCRATCH loads, stores and atomics, DS (LDS)
loads, stores, atomics and ds_bpermute. Address checking lives in the machine's spaces."""

from __future__ import annotations

import numpy as np
from cass.runner.emulator import memory as mem
from cass.runner.emulator.ops_crosslane import compile_permute, compile_swizzle
from cass.runner.emulator.state import U32, U64, Fault, Group, res

_SIZES = {
    "u8": 1,
    "i8": 1,
    "u16": 2,
    "i16": 2,
    "b8": 1,
    "b16": 2,
    "b32": 4,
    "b64": 8,
    "b96": 12,
    "b128": 16,
    "b256": 32,
    "b512": 64,
    "d16_b16": 2,
    "d16_hi_b16": 2,
    "d16_u8": 1,
    "d16_i8": 1,
    "d16_hi_u8": 1,
    "d16_hi_i8": 1,
    "d16_hi_b8": 1,
    "d16_b8": 1,
}

F32 = np.float32


def _u32_to_f32(x):
    return x.view(F32)


ATOMICS = {  # name -> (fn(old, src[, cmp]) computed on uint arrays, wide?)
    "add_u32": lambda o, s: o + s,
    "sub_u32": lambda o, s: o - s,
    "and_b32": lambda o, s: o & s,
    "or_b32": lambda o, s: o | s,
    "xor_b32": lambda o, s: o ^ s,
    "swap_b32": lambda o, s: s,
    "storexchg_rtn_b32": lambda o, s: s,
    "min_i32": lambda o, s: np.minimum(o.view(np.int32), s.view(np.int32)).view(U32),
    "max_i32": lambda o, s: np.maximum(o.view(np.int32), s.view(np.int32)).view(U32),
    "min_u32": np.minimum,
    "max_u32": np.maximum,
    "inc_u32": lambda o, s: np.where(o >= s, U32(0), o + U32(1)),
    "dec_u32": lambda o, s: np.where((o == 0) | (o > s), s, o - U32(1)),
    "add_f32": lambda o, s: (o.view(F32) + s.view(F32)).view(U32),
    "min_f32": lambda o, s: np.fmin(o.view(F32), s.view(F32)).view(U32),
    "max_f32": lambda o, s: np.fmax(o.view(F32), s.view(F32)).view(U32),
    "add_u64": lambda o, s: o + s,
    "sub_u64": lambda o, s: o - s,
    "and_b64": lambda o, s: o & s,
    "or_b64": lambda o, s: o | s,
    "xor_b64": lambda o, s: o ^ s,
    "swap_b64": lambda o, s: s,
    "min_i64": lambda o, s: np.minimum(o.view(np.int64), s.view(np.int64)).view(U64),
    "max_i64": lambda o, s: np.maximum(o.view(np.int64), s.view(np.int64)).view(U64),
    "min_u64": np.minimum,
    "max_u64": np.maximum,
    "inc_u64": lambda o, s: np.where(o >= s, U64(0), o + U64(1)),
    "dec_u64": lambda o, s: np.where((o == 0) | (o > s), s, o - U64(1)),
    "add_f64": lambda o, s: (o.view(np.float64) + s.view(np.float64)).view(U64),
    "cmpswap_b32": lambda o, s, c: np.where(o == c, s, o),
    "cmpswap_b64": lambda o, s, c: np.where(o == c, s, o),
    # DS_CMPSTORE: DATA is the new value, DATA2 the comparand (like cmpswap's {src, cmp})
    "cmpstore_b32": lambda o, s, c: np.where(o == c, s, o),
    "cmpstore_b64": lambda o, s, c: np.where(o == c, s, o),
}


def _split(op: str) -> tuple[str, str]:
    """`global_load_b32` -> ("load", "b32"); `global_atomic_add_u32` -> ("atomic", "add_u32")."""
    body = op.split("_", 1)[1]
    for kind in ("load", "store", "atomic"):
        if body.startswith(kind + "_"):
            return kind, body[len(kind) + 1 :]
    return body, ""


def _ds_kind(op: str) -> tuple[str, str]:
    body = op[3:]
    for kind in ("load", "store"):
        if body.startswith(kind + "_"):
            return kind, body[len(kind) + 1 :]
    for prefix in (
        "min_rtn_",
        "max_rtn_",
        "add_rtn_",
        "sub_rtn_",
        "and_rtn_",
        "or_rtn_",
        "xor_rtn_",
        "inc_rtn_",
        "dec_rtn_",
        "cmpstore_rtn_",
        "storexchg_rtn_",
        "add_",
        "sub_",
        "min_",
        "max_",
        "and_",
        "or_",
        "xor_",
        "inc_",
        "dec_",
        "cmpstore_",
    ):
        if body.startswith(prefix):
            rtn = "_rtn_" in prefix
            name = prefix.replace("rtn_", "") + body[len(prefix) :]
            return ("atomic_rtn" if rtn else "atomic"), name
    return body, ""


def _load_result(vals, suffix):
    """Sign/zero-extend sub-dword loads; returns dword arrays."""
    if suffix in ("i8", "d16_i8", "d16_hi_i8"):
        return [vals[0].astype(np.uint8).view(np.int8).astype(np.int32).view(U32)]
    if suffix in ("i16",):
        return [vals[0].astype(np.uint16).view(np.int16).astype(np.int32).view(U32)]
    return vals


def _write_dest(m, g, dst, vals, suffix, mask):
    if suffix.startswith("d16"):
        old = m.st.V[dst.index, g.idx]
        v = vals[0] & U32(0xFFFF)
        merged = (
            (old & U32(0xFFFF)) | (v << U32(16)) if "hi" in suffix else (old & U32(0xFFFF0000)) | v
        )
        m.st.vwrite(dst.index, g, merged, mask)
        return
    for d, v in enumerate(vals):
        m.st.vwrite(dst.index + d, g, v, mask)


def _scatter_full(shape, mask, values):
    if values.size == shape[0] * shape[1]:
        return values.reshape(shape)
    out = np.zeros(shape, values.dtype)
    out[mask] = values
    return out


def _store_data(m, g, src, nbytes, mask, suffix=""):
    rows = m.st.V[src.index : src.index + max(nbytes // 4, 1), g.idx]
    data = [m.active(r, g, mask) for r in rows]
    if "d16_hi" in suffix:
        data = [data[0] >> U32(16)]
    return data


# --- global / flat / scratch --------------------------------------------------------------
def compile_vmem(ins):
    seg = ins.op.split("_", 1)[0]  # global / flat / scratch
    kind, suffix = _split(ins.op)
    offset = int(ins.modifiers.get("offset", "0") or 0, 0)
    returns = "glc" in ins.modifiers
    ops = list(ins.operands)
    if kind == "load":
        dst, addr_ops = ops[0], ops[1:]
    elif kind == "store":
        dst, addr_ops = None, [ops[0], *ops[2:]]
        data_op = ops[1]
    elif kind == "atomic":
        if returns:
            dst, addr_ops, data_op = ops[0], [ops[1], *ops[3:]], ops[2]
        else:
            dst, addr_ops, data_op = None, [ops[0], *ops[2:]], ops[1]
    else:
        return None
    if kind != "atomic" and suffix not in _SIZES:
        return None
    if kind == "atomic" and suffix not in ATOMICS:
        return None
    wide = suffix.endswith("64")
    nbytes = _SIZES.get(suffix, 8 if wide else 4)

    def addresses(m, g):
        return m.vmem_addresses(seg, addr_ops, offset, g)

    whole = seg == "global" and kind == "load" and suffix in ("b32", "b64", "b96", "b128")

    def run(m, g):
        mask = m.st.exec_mask(g)
        if not mask.any():
            return
        if whole and m.global_load_into(addr_ops, offset, dst.index, nbytes, g):
            return  # the compiled loop: straight into the destination VGPRs
        addrs = addresses(m, g)
        if kind == "load":
            vals = m.access(seg, addrs, mask, nbytes, "load", g)
            full = [_scatter_full((g.k, 32), mask, v) for v in _load_result(vals, suffix)]
            _write_dest(m, g, dst, full, suffix, mask)
        elif kind == "store":
            m.access(
                seg,
                addrs,
                mask,
                nbytes,
                "store",
                g,
                _store_data(m, g, data_op, nbytes, mask, suffix),
            )
        else:
            old = m.atomic(
                seg,
                addrs,
                mask,
                suffix,
                _atomic_data(m, g, data_op, suffix, mask),
                g,
                dst is not None,
            )
            if dst is not None:
                _write_atomic_result(m, g, dst, old, mask, wide)

    return run


def _atomic_data(m, g, data_op, suffix, mask):
    wide = suffix.endswith("64")
    n = 2 if wide else 1
    regs = data_op.count // n
    out = []
    for r in range(regs):
        lo = m.active(m.st.V[data_op.index + r * n, g.idx], g, mask)
        if wide:
            hi = m.active(m.st.V[data_op.index + r * n + 1, g.idx], g, mask)
            out.append(lo.astype(U64) | (hi.astype(U64) << U64(32)))
        else:
            out.append(lo)
    return out


def _write_atomic_result(m, g, dst, old, mask, wide):
    if wide:
        full = _scatter_full((g.k, 32), mask, old.astype(U64))
        m.st.vwrite64(dst.index, g, full, mask)
    else:
        m.st.vwrite(dst.index, g, _scatter_full((g.k, 32), mask, old.astype(U32)), mask)


# --- LDS ------------------------------------------------------------------------------------
def _lds_inside(m, g, offs, mask, nbytes):
    """(group, lanes) of the lanes of `mask` whose access lies inside the workgroup's LDS.
    On gfx11 a DS access beyond the allocation is not a fault: a read returns 0 and a write or
    atomic is dropped. Compilers rely on it: they hoist LDS loads above the select of their
    address. The group returned treats only those lanes as active."""
    limit = m.lds_bytes - nbytes
    outside = offs > U32(max(limit, 0)) if limit >= 0 else np.ones(offs.shape, bool)
    if not outside.any():
        return g, mask
    inside = mask & ~outside
    sub = Group(g.idx, g.k, g.full)
    sub._exec, sub._all = inside, False
    return sub, inside


def compile_ds(ins):
    op = ins.op
    kind, suffix = _ds_kind(op)
    ops = list(ins.operands)
    if op == "ds_swizzle_b32":  # its offset prints as swizzle(...): read the encoding
        return compile_swizzle(ins)
    off = int(ins.modifiers.get("offset", "0") or 0, 0)
    if op == "ds_bpermute_b32":
        return _bpermute(ins, off)
    if op in ("ds_gws_init", "ds_gws_barrier"):
        return _gws(ins, op, off)
    if op == "ds_permute_b32":
        return compile_permute(ins)
    if kind in ("load", "store") and suffix.startswith("2addr"):
        return _ds_2addr(ins, kind, suffix)
    if kind == "load":
        if suffix not in _SIZES:
            return None
        dst, addr = ops[0], ops[1]
        nbytes = _SIZES[suffix]
        whole = suffix in ("b32", "b64", "b96", "b128")  # no extension: the compiled loop

        def run(m, g):
            mask = m.st.exec_mask(g)
            if mask.any():
                if m.races is not None:
                    _race(m, g, m.st.V[addr.index, g.idx] + U32(off), mask, nbytes, False, ins)
                if whole and m.lds_load_into(addr.index, (off,), dst.index, nbytes, g):
                    return
                offs = m.st.V[addr.index, g.idx] + U32(off)
                gi, inside = _lds_inside(m, g, offs, mask, nbytes)
                vals = _lds_load(m, gi, offs, inside, nbytes)
                full = [_scatter_full((g.k, 32), inside, v) for v in _load_result(vals, suffix)]
                _write_dest(m, g, dst, full, suffix, mask)

        return run
    if kind == "store":
        if suffix not in _SIZES:
            return None
        addr, data = ops[0], ops[1]
        nbytes = _SIZES[suffix]

        def run(m, g):
            mask = m.st.exec_mask(g)
            if mask.any():
                offs = m.st.V[addr.index, g.idx] + U32(off)
                if m.races is not None:
                    _race(m, g, offs, mask, nbytes, True, ins)
                gi, inside = _lds_inside(m, g, offs, mask, nbytes)
                if inside.any():
                    data_ = _store_data(m, gi, data, nbytes, inside, suffix)
                    m.lds_access(offs, inside, nbytes, "store", gi, data_)

        return run
    if kind in ("atomic", "atomic_rtn") and suffix in ATOMICS:
        rtn = kind == "atomic_rtn"
        dst = ops.pop(0) if rtn else None
        addr, data = ops[0], ops[1:]

        def run(m, g):
            mask = m.st.exec_mask(g)
            if not mask.any():
                return
            wide = suffix.endswith("64")
            offs = m.st.V[addr.index, g.idx] + U32(off)
            gi, inside = _lds_inside(m, g, offs, mask, 8 if wide else 4)
            if inside.any():
                srcs = [_atomic_data(m, gi, d, suffix, inside)[0] for d in data]
                old = m.lds_atomic(offs, inside, suffix, srcs, gi, dst is not None)
            else:
                old = np.zeros(0, U64 if wide else U32)
            if dst is not None:
                full = _scatter_full((g.k, 32), inside, old.astype(U64 if wide else U32))
                if wide:
                    m.st.vwrite64(dst.index, g, full, mask)
                else:
                    m.st.vwrite(dst.index, g, full, mask)

        return run
    return None


def _ds_2addr(ins, kind, suffix):
    ops = list(ins.operands)
    stride64 = "stride64" in suffix
    elem = 8 if suffix.endswith("b64") else 4
    scale = elem * (64 if stride64 else 1)
    off0 = int(ins.modifiers.get("offset0", "0") or 0, 0) * scale
    off1 = int(ins.modifiers.get("offset1", "0") or 0, 0) * scale
    nd = elem // 4

    if kind == "load":
        dst, addr = ops[0], ops[1]

        def run(m, g):
            mask = m.st.exec_mask(g)
            if m.races is not None and mask.any():
                for o in (off0, off1):
                    _race(m, g, m.st.V[addr.index, g.idx] + U32(o), mask, elem, False, ins)
            if not mask.any() or m.lds_load_into(addr.index, (off0, off1), dst.index, elem, g):
                return
            base = m.st.V[addr.index, g.idx].copy()  # the loads may overwrite the address
            for i, o in enumerate((off0, off1)):
                offs = base + U32(o)
                gi, inside = _lds_inside(m, g, offs, mask, elem)
                vals = _lds_load(m, gi, offs, inside, elem)
                for d, v in enumerate(vals):
                    full = _scatter_full((g.k, 32), inside, v)
                    m.st.vwrite(dst.index + i * nd + d, g, full, mask)

        return run

    addr, d0, d1 = ops[0], ops[1], ops[2]

    def run(m, g):
        mask = m.st.exec_mask(g)
        if not mask.any():
            return
        base = m.st.V[addr.index, g.idx]
        for o, d in ((off0, d0), (off1, d1)):
            offs = base + U32(o)
            if m.races is not None:
                _race(m, g, offs, mask, elem, True, ins)
            gi, inside = _lds_inside(m, g, offs, mask, elem)
            if inside.any():
                data_ = _store_data(m, gi, d, elem, inside)
                m.lds_access(offs, inside, elem, "store", gi, data_)

    return run


def _race(m, g, offs, mask, nbytes: int, write: bool, ins) -> None:
    """The race shadow's check of a DS load or store (runner/emulator/races.py)."""
    lanes = mask.reshape(-1)
    waves = np.repeat(m.waves_of(g), 32)[lanes]
    m.races.note(waves, m.wave_wg, offs.reshape(-1)[lanes], nbytes, write, ins.pc)


def _lds_load(m, g, offs, inside, nbytes):
    """Dwords read by the lanes of `inside` (lane order); none when no lane is inside."""
    if inside.any():
        return m.lds_access(offs, inside, nbytes, "load", g)
    return [np.zeros(0, U32) for _ in range(max(nbytes // 4, 1))]


def _gws(ins, op, off):
    """Global wave sync (cooperative-groups grid.sync): ds_gws_barrier waits until the number
    of waves given by the data operand (+1, + offset) have arrived, across the whole grid."""
    data = ins.operands[0]

    def run(m, g):
        mask = m.st.exec_mask(g)
        first = np.where(mask.any(axis=1), mask.argmax(axis=1), 0)
        count = int(m.st.V[data.index, g.idx][np.arange(g.k), first].max()) + off + 1
        if op == "ds_gws_init":
            return
        m.gws_target = count
        m.st.gws[g.idx] = True
        m._release_barriers()

    return run


def _bpermute(ins, off):
    dst, addr, data = ins.operands

    def run(m, g):
        mask = m.st.exec_mask(g)
        lane = ((m.st.V[addr.index, g.idx] + U32(off)) >> U32(2)) & U32(31)
        src = m.st.V[data.index, g.idx]
        # reading an inactive lane returns 0 on hardware
        gathered = np.take_along_axis(np.where(mask, src, U32(0)), lane.astype(np.int64), axis=1)
        m.st.vwrite(dst.index, g, gathered)

    return run


# --- SMEM ---------------------------------------------------------------------------------
def compile_smem(ins):
    op = ins.op
    if op in ("s_dcache_inv", "s_icache_inv", "s_gl1_inv", "s_dcache_wb"):
        return lambda m, g: None
    if not op.startswith(("s_load_b", "s_buffer_load_b")):
        return None
    dst, base = ins.operands[0], ins.operands[1]
    rest = ins.operands[2:]
    imm = int(ins.modifiers.get("offset", "0") or 0, 0)
    soff = None
    for o in rest:
        if o.kind == "s" and o.index != 124:
            soff = o
        elif o.kind in ("int",):
            imm += int(o.value)
    nbytes = _SIZES["b" + op.rsplit("_b", 1)[1]]
    buffer = op.startswith("s_buffer")

    def run(m, g):
        addr = m.st.sread(base, g, "b64") & U64((1 << 48) - 1)
        if buffer:
            addr = addr & U64((1 << 48) - 1)
        addr = addr + U64(imm & 0xFFFFFFFF if imm >= 0 else imm + (1 << 64))
        if soff is not None:
            addr = addr + m.st.sread(soff, g).astype(U64)
        addr = addr & ~U64(3)
        vals = m.scalar_load(addr, nbytes, g)
        for d, v in enumerate(vals):
            m.st.swrite(dst.index + d, g, v)

    return run


__all__ = ["Fault", "compile_ds", "compile_smem", "compile_vmem", "mem", "res"]
