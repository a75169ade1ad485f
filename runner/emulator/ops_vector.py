"""Vector ALU handlers: typed source reads (abs/neg/op_sel), the VALU table, compares (VOPC,
v_cmpx), carries, lane ops, packed math (VOP3P) and VOPD pairs."""

from __future__ import annotations

import numpy as np
from cass.runner.emulator import fpmath as fp
from cass.runner.emulator.ops_vector_table import VALU
from cass.runner.emulator.ops_wmma import compile_wmma
from cass.runner.emulator.state import (
    EXEC,
    LANES,
    U32,
    U64,
    Fault,
    lane_mask,
    pack_lanes,
    res,
    width_of,
)

_VIEW = {
    "f32": np.float32,
    "f64": np.float64,
    "i32": np.int32,
    "i64": np.int64,
    "u32": np.uint32,
    "u64": np.uint64,
    "b32": np.uint32,
    "b64": np.uint64,
}
_SIGN = {"f16": 0x8000, "f32": 0x80000000, "f64": 0x8000000000000000}


def _opsel(ins, key):
    raw = ins.modifiers.get(key)
    if not raw:
        return None
    return [int(x) for x in raw.strip("[]").split(",")]


def typed(m, op, g, typ, hi=False):
    """Read a source operand as a numpy array of `typ`, with abs/neg applied."""
    raw = m.st.vread(op, g, typ)
    if typ in _SIGN and (op.abs or op.neg):
        sign = raw.dtype.type(_SIGN[typ] << (16 if hi and typ == "f16" else 0))
        if op.abs:
            raw = raw & ~sign
        if op.neg:
            raw = raw ^ sign
    if typ in ("f16", "u16", "i16", "b16"):
        half = ((raw >> U32(16)) if hi else raw) & U32(0xFFFF)
        h16 = half.astype(np.uint16)
        return (
            h16.view(np.float16)
            if typ == "f16"
            else (h16.view(np.int16).astype(np.int32) if typ == "i16" else h16.astype(np.uint32))
        )
    if typ in ("u24", "i24"):
        typ = "u32"
    if typ == "f32" and m.flush32:
        return _flush(raw.view(np.float32))
    if typ == "f64" and m.flush64:
        return _flush(raw.view(np.float64))
    return (
        raw.view(_VIEW[typ])
        if raw.dtype.itemsize == np.dtype(_VIEW[typ]).itemsize
        else raw.astype(_VIEW[typ])
    )


def _to_bits(value, typ):
    if typ == "f32":
        return np.asarray(value, np.float32).view(U32)
    if typ == "f64":
        return np.asarray(value, np.float64).view(U64)
    if typ == "f16":
        return np.asarray(value, np.float16).view(np.uint16).astype(U32)
    if width_of(typ) == 64:
        return (
            np.asarray(value).astype(np.int64, copy=False).view(U64)
            if np.asarray(value).dtype.kind == "i"
            else np.asarray(value).astype(U64)
        )
    v = np.asarray(value)
    if v.dtype in (U32, np.int32) and width_of(typ) == 32:  # already the 32-bit pattern
        return v.view(U32)
    if v.dtype.kind == "i":
        v = v.astype(np.int64).astype(U64)
    return (v & (0xFFFF if width_of(typ) == 16 else 0xFFFFFFFF)).astype(U32)


def _flush(x):
    """Denormals to signed zero (FLOAT_DENORM_MODE flush, e.g. -fgpu-flush-denormals-to-zero)."""
    tiny = np.finfo(x.dtype).tiny
    return np.where(np.abs(x) < tiny, np.copysign(x.dtype.type(0), x), x).astype(x.dtype)


def write_result(m, g, dst, value, typ, ins, hi=False, mask=None):
    if (typ == "f32" and m.flush32) or (typ == "f64" and m.flush64):
        value = _flush(np.asarray(value, np.float32 if typ == "f32" else np.float64))
    if typ in ("f32", "f64", "f16") and "clamp" in ins.modifiers:
        value = np.clip(value, 0, 1)
    omod = ins.modifiers
    if "mul" in omod:
        value = value * int(omod["mul"])
    elif "div" in omod:
        value = value / int(omod["div"])
    bits = _to_bits(value, typ)
    if width_of(typ) == 64:
        m.st.vwrite64(dst.index, g, bits, mask)
    elif width_of(typ) == 16:
        old = m.st.V[dst.index, g.idx]
        merged = (old & U32(0xFFFF)) | (bits << U32(16)) if hi else (old & U32(0xFFFF0000)) | bits
        m.st.vwrite(dst.index, g, merged, mask)
    else:
        m.st.vwrite(dst.index, g, bits, mask)


_VOP3SD = {"v_mad_u64_u32", "v_mad_i64_i32"}


def op_sel_halves(ins, sources: int) -> tuple[list[bool], bool]:
    """(high half read, per source; high half written) from a VOP3 op_sel: one flag per source
    operand as written, then the destination's (`op_sel:[a,b,d]` for two sources)."""
    sel = _opsel(ins, "op_sel") or []
    hi = [bool(sel[i]) if i < min(len(sel), sources) else False for i in range(4)]
    return hi, bool(sel[sources]) if len(sel) > sources else False


# Integer operations whose VOP3 clamp bit saturates the result to the destination's range
# (instead of wrapping): clang folds, e.g., repeated `x > k ? x - k : 0` into one
# `v_subrev_nc_u32 ... clamp`.
_U32, _I32 = (0, 0xFFFFFFFF), (-(2**31), 2**31 - 1)
_U16, _I16 = (0, 0xFFFF), (-(2**15), 2**15 - 1)
SATURATING = {
    "v_add_nc_u32": _U32,
    "v_sub_nc_u32": _U32,
    "v_subrev_nc_u32": _U32,
    "v_add3_u32": _U32,
    "v_add_nc_i32": _I32,
    "v_sub_nc_i32": _I32,
    "v_add_nc_u16": _U16,
    "v_sub_nc_u16": _U16,
    "v_add_nc_i16": _I16,
    "v_sub_nc_i16": _I16,
}


def _valu(ins, spec):
    dtyp, styps, fn = spec
    saturate = SATURATING.get(ins.op) if "clamp" in ins.modifiers else None
    ops = list(ins.operands)
    dst = ops[0]
    if ins.op in _VOP3SD:  # carry-out SGPR operand (written as 0: no overflow modelled)
        ops.pop(1)
    srcs = [res(o, t) for o, t in zip(ops[1:], styps)]
    hi, dst_hi = op_sel_halves(ins, len(ops) - 1)
    if "fmac" in ins.op:
        srcs = srcs[:2] + [dst]
        hi[2] = dst_hi  # the accumulator is the destination's half
    fma_rows = _plain_fma_rows(ins, dst, srcs)

    def run(m, g):
        if fma_rows and m.fma_f32_into(*fma_rows, g):
            return
        args = [typed(m, o, g, t, hi[i]) for i, (o, t) in enumerate(zip(srcs, styps))]
        if saturate is not None:  # the exact result, then clamped to the range
            value = np.clip(fn(*(np.asarray(a).astype(np.int64) for a in args)), *saturate)
            write_result(m, g, dst, value, dtyp, ins, dst_hi)
            return
        with np.errstate(all="ignore"):
            value = fn(*args)
        write_result(m, g, dst, value, dtyp, ins, dst_hi)

    return run


def _plain_fma_rows(ins, dst, srcs):
    """(a, b, c, dst) VGPR numbers of a v_fma_f32/v_fmac_f32 on plain VGPRs (no abs/neg, op_sel,
    clamp or output modifier), which the compiled loop may run; else None."""
    if ins.op not in ("v_fma_f32", "v_fmac_f32") or len(srcs) != 3:
        return None
    if any(k in ins.modifiers for k in ("op_sel", "clamp", "mul", "div")):
        return None
    if any(o.kind != "v" or o.count != 1 or o.abs or o.neg for o in (*srcs, dst)):
        return None
    return (*(o.index for o in srcs), dst.index)


# --- compares ---------------------------------------------------------------------------
def _cmp_fn(rel):
    table = {
        "f": lambda a, b: np.zeros(np.broadcast(a, b).shape, bool),
        "t": lambda a, b: np.ones(np.broadcast(a, b).shape, bool),
        "tru": lambda a, b: np.ones(np.broadcast(a, b).shape, bool),
        "lt": np.less,
        "eq": np.equal,
        "le": np.less_equal,
        "gt": np.greater,
        "ne": np.not_equal,
        "ge": np.greater_equal,
        "lg": lambda a, b: (a < b) | (a > b),
        "o": lambda a, b: ~(np.isnan(a) | np.isnan(b)),
        "u": lambda a, b: np.isnan(a) | np.isnan(b),
        "nge": lambda a, b: ~(a >= b),
        "nlg": lambda a, b: ~((a < b) | (a > b)),
        "ngt": lambda a, b: ~(a > b),
        "nle": lambda a, b: ~(a <= b),
        "neq": lambda a, b: ~(a == b),
        "nlt": lambda a, b: ~(a < b),
        "class": fp.cmp_class,
    }
    return table[rel]


def _compare(ins):
    name = ins.op  # v_cmp_gt_i32 / v_cmpx_class_f32
    parts = name.split("_")
    writes_exec = parts[1] == "cmpx"
    rel, typ = parts[2], parts[3]
    ops = list(ins.operands)
    dst = None if writes_exec else ops.pop(0)
    styps = (typ, "u32") if rel == "class" else (typ, typ)
    srcs = [res(o, t) for o, t in zip(ops, styps)]
    fn = _cmp_fn(rel)

    def run(m, g):
        a, b = (typed(m, o, g, t) for o, t in zip(srcs, styps))
        with np.errstate(all="ignore"):
            cond = np.broadcast_to(fn(a, b), (g.k, 32)) & m.st.exec_mask(g)
        bits = pack_lanes(cond)
        if writes_exec:
            m.st.swrite(EXEC, g, bits)
        else:
            m.st.swrite(dst.index, g, bits, wide=dst.count == 2 and dst.index != 106)

    return run


# --- carries, selects, lane operations -----------------------------------------------------
def _lane_bits(m, op, g):
    return lane_mask(m.st.sread(res(op), g))


def _carry(ins):
    op = ins.op
    ops = list(ins.operands)
    dst, sdst, a, b = ops[0], ops[1], res(ops[2], "u32"), res(ops[3], "u32")
    cin = ops[4] if len(ops) > 4 else None
    sub = "sub" in op
    rev = "subrev" in op

    def run(m, g):
        x, y = typed(m, a, g, "u32"), typed(m, b, g, "u32")
        if rev:
            x, y = y, x
        c = _lane_bits(m, cin, g).astype(U32) if cin is not None else None
        if sub:
            r = x - y
            carry = x < y
            if c is not None:
                carry = carry | (r < c)
                r = r - c
        else:
            r = x + y
            carry = r < x
            if c is not None:
                r = r + c
                carry = carry | (r < c)
        carry = np.broadcast_to(carry, (g.k, 32))
        if "clamp" in ins.modifiers:
            r = np.where(carry, U32(0) if sub else U32(0xFFFFFFFF), r)
        m.st.vwrite(dst.index, g, r)
        if sdst.index != 124:
            m.st.swrite(sdst.index, g, pack_lanes(carry & m.st.exec_mask(g)))

    return run


def _cndmask(ins):
    ops = list(ins.operands)
    typ = "f32" if ops[1].abs or ops[1].neg or ops[2].abs or ops[2].neg else "b32"
    dst, a, b, sel = ops[0], res(ops[1], typ), res(ops[2], typ), ops[3]

    def run(m, g):
        x, y = typed(m, a, g, typ), typed(m, b, g, typ)
        value = np.where(_lane_bits(m, sel, g), y, x)
        m.st.vwrite(dst.index, g, value.view(U32) if value.dtype != U32 else value)

    return run


def _div_scale(ins):
    typ = "f64" if ins.op.endswith("f64") else "f32"
    dst, vcc, s0, s1, s2 = (
        ins.operands[0],
        ins.operands[1],
        *[res(o, typ) for o in ins.operands[2:]],
    )

    def run(m, g):
        with np.errstate(all="ignore"):
            d, flag = fp.div_scale(typed(m, s0, g, typ), typed(m, s1, g, typ), typed(m, s2, g, typ))
        write_result(m, g, dst, np.broadcast_to(d, (g.k, 32)), typ, ins)
        m.st.swrite(vcc.index, g, pack_lanes(np.broadcast_to(flag, (g.k, 32)) & m.st.exec_mask(g)))

    return run


def _div_fmas(ins):
    typ = "f64" if ins.op.endswith("f64") else "f32"
    dst, srcs = ins.operands[0], [res(o, typ) for o in ins.operands[1:4]]

    def run(m, g):
        a, b, c = (typed(m, o, g, typ) for o in srcs)
        vcc = ((m.st.S[106, g.idx][:, None] >> LANES) & U32(1)).astype(bool)
        with np.errstate(all="ignore"):
            write_result(m, g, dst, fp.div_fmas(a, b, c, vcc), typ, ins)

    return run


def _readlane(ins):
    dst, src, lane = (
        ins.operands[0],
        ins.operands[1],
        res(ins.operands[2]) if len(ins.operands) > 2 else None,
    )

    def run(m, g):
        vals = m.st.V[src.index, g.idx]
        if lane is None:  # readfirstlane
            ex = m.st.exec_mask(g)
            first = np.where(ex.any(axis=1), ex.argmax(axis=1), 0)
        else:
            first = m.st.sread(lane, g).astype(np.int64) & 31
        m.st.swrite(dst.index, g, vals[np.arange(g.k), first])

    return run


def _writelane(ins):
    dst, src, lane = ins.operands[0], res(ins.operands[1]), res(ins.operands[2])

    def run(m, g):
        value = m.st.sread(src, g)
        which = m.st.sread(lane, g).astype(np.int64) & 31
        mask = np.arange(32)[None, :] == which[:, None]
        m.st.vwrite(dst.index, g, np.broadcast_to(value[:, None], (g.k, 32)), mask)

    return run


def _mbcnt(ins):
    dst, a, b = ins.operands[0], res(ins.operands[1]), res(ins.operands[2])
    hi = ins.op.endswith("hi_u32_b32")
    below = (np.uint64(1) << np.arange(32, dtype=np.uint64)) - np.uint64(1)

    def run(m, g):
        mask = typed(m, a, g, "u32").astype(U64)
        bits = mask if hi is False else U64(0) * mask
        cnt = np.bitwise_count(bits & below[None, :]).astype(U32)
        m.st.vwrite(dst.index, g, cnt + typed(m, b, g, "u32"))

    return run


# --- packed (VOP3P) ---------------------------------------------------------------------
_PACKED = {
    "v_pk_add_f16": fp.f16_add,
    "v_pk_mul_f16": fp.f16_mul,
    "v_pk_fma_f16": lambda a, b, c: fp.fma(a, b, c, np.float16),
    "v_pk_max_f16": fp.ieee_max,
    "v_pk_min_f16": fp.ieee_min,
    "v_pk_add_u16": np.add,
    "v_pk_sub_u16": np.subtract,
    "v_pk_mul_lo_u16": np.multiply,
    "v_pk_lshlrev_b16": lambda a, b: b << (a & 15),
    "v_pk_lshrrev_b16": lambda a, b: b >> (a & 15),
}


def _packed_const(op, typ):
    """Inline constants of packed 16-bit operations apply to both halves; literals are 32-bit."""
    if op.kind == "float" or (op.kind == "int" and -16 <= int(op.value) <= 64):
        half = res(op, "f16" if typ == "f16" else "b16").value & 0xFFFF
        return type(op)("const", value=half | (half << 16), text=op.text)
    return res(op, "b32")


def _packed(ins):
    fn = _PACKED[ins.op]
    typ = "f16" if ins.op.endswith("f16") else "u16"
    dst, srcs = ins.operands[0], [_packed_const(o, typ) for o in ins.operands[1:]]
    n = len(srcs)
    sel = _opsel(ins, "op_sel") or [0] * n
    sel_hi = _opsel(ins, "op_sel_hi") or [1] * n
    neg_lo = _opsel(ins, "neg_lo") or [0] * n
    neg_hi = _opsel(ins, "neg_hi") or [0] * n

    def half(m, g, i, high, negate):
        v = typed(m, srcs[i], g, typ, high)
        return -v if negate and typ == "f16" else v

    def run(m, g):
        with np.errstate(all="ignore"):
            lo = fn(*[half(m, g, i, sel[i], neg_lo[i]) for i in range(n)])
            hi = fn(*[half(m, g, i, sel_hi[i], neg_hi[i]) for i in range(n)])
        lo_bits, hi_bits = (
            _to_bits(lo, typ if typ == "f16" else "b16"),
            _to_bits(hi, typ if typ == "f16" else "b16"),
        )
        m.st.vwrite(dst.index, g, (lo_bits & U32(0xFFFF)) | (hi_bits << U32(16)))

    return run


def _fma_mix(ins):
    dst, srcs = ins.operands[0], [res(o, "f32") for o in ins.operands[1:4]]
    sel = _opsel(ins, "op_sel") or [0, 0, 0]
    sel_hi = _opsel(ins, "op_sel_hi") or [0, 0, 0]
    lo_hi = ins.op == "v_fma_mixhi_f16"

    def arg(m, g, i):
        if not sel_hi[i]:
            return typed(m, srcs[i], g, "f32")
        return typed(m, srcs[i], g, "f16", bool(sel[i])).astype(np.float32)

    def run(m, g):
        a, b, c = (arg(m, g, i) for i in range(3))
        r = fp.fma(a, b, c, np.float32)
        if ins.op == "v_fma_mix_f32":
            write_result(m, g, dst, r, "f32", ins)
        else:
            write_result(m, g, dst, r.astype(np.float16), "f16", ins, hi=lo_hi)

    return run


def _vopd(ins):
    first, second = compile_vector(_dual(ins)), compile_vector(_dual(ins.second))

    def run(m, g):
        # read-before-write across the pair: snapshot registers the Y half reads
        saved = m.st.V.copy() if _overlaps(ins) else None
        first(m, g)
        if saved is None:
            second(m, g)
            return
        written = m.st.V
        m.st.V = saved
        after_x = written.copy()
        second(m, g)
        y_dst = ins.second.operands[0].index
        after_x[y_dst] = m.st.V[y_dst]
        m.st.V = after_x

    return run


def _overlaps(ins):
    x_dst = ins.operands[0].index
    return any(o.kind == "v" and o.index == x_dst for o in ins.second.operands[1:])


def _dual(part):
    clone = type(part)(
        part.pc,
        part.size,
        part.words,
        part.text,
        "v_" + part.mnemonic[len("v_dual_") :],
        part.operands,
        part.modifiers,
    )
    if clone.mnemonic == "v_cndmask_b32" and len(clone.operands) == 3:
        from cass.runner.emulator.decode import Operand

        clone.operands = clone.operands + [Operand("s", 106, 1, text="vcc_lo")]
    return clone


def _movrel(ins):
    """v_movrels/movreld/movrelsd: VGPR indexing relative to M0 (per wave)."""
    op = ins.op
    dst, src = ins.operands[0], res(ins.operands[1])
    rel_src = op in ("v_movrels_b32", "v_movrelsd_b32", "v_movrelsd_2_b32")
    rel_dst = op in ("v_movreld_b32", "v_movrelsd_b32", "v_movrelsd_2_b32")

    def run(m, g):
        m0 = m.st.S[125, g.idx].astype(np.int64)
        src_off = m0 & 0x3FF if op == "v_movrelsd_2_b32" else m0
        dst_off = (m0 >> 16) & 0x3FF if op == "v_movrelsd_2_b32" else m0
        waves = m.waves_of(g)
        if rel_src:
            regs = src.index + src_off
            _check_vgpr(m, regs)
            value = m.st.V[regs, waves]
        else:
            value = np.broadcast_to(typed(m, src, g, "b32"), (g.k, 32))
        regs = dst.index + (dst_off if rel_dst else 0)
        _check_vgpr(m, np.asarray(regs))
        regs = np.broadcast_to(regs, (g.k,))
        ex = m.st.exec_mask(g)
        for reg in np.unique(regs):  # usually one register for the whole group
            sel = regs == reg
            sub = type(g)(waves[sel], int(sel.sum()), False)
            m.st.vwrite(int(reg), sub, value[sel], ex[sel])

    return run


def _check_vgpr(m, regs):
    if regs.size and int(regs.max()) >= m.st.V.shape[0]:
        raise Fault(
            "unsupported",
            f"relative VGPR index v{int(regs.max())} is beyond the "
            f"{m.st.V.shape[0]} VGPRs allocated",
        )


def _permlane(ins):
    """v_permlane16 (within each 16-lane row) and v_permlanex16 (from the other row)."""
    cross = ins.op == "v_permlanex16_b32"
    dst, src, s1, s2 = ins.operands[0], ins.operands[1], res(ins.operands[2]), res(ins.operands[3])
    lanes = np.arange(32)

    def run(m, g):
        sel = m.st.sread(s1, g).astype(np.uint64) | (m.st.sread(s2, g).astype(np.uint64) << 32)
        pick = ((sel[:, None] >> (4 * (lanes % 16)).astype(np.uint64)) & 15).astype(np.int64)
        row = lanes // 16
        source_row = (row ^ 1) if cross else row
        index = source_row[None, :] * 16 + pick
        value = np.take_along_axis(m.st.V[src.index, g.idx], index, axis=1)
        m.st.vwrite(dst.index, g, value)

    return run


def compile_vector(ins):
    op = ins.op
    if op in ("v_movrels_b32", "v_movreld_b32", "v_movrelsd_b32", "v_movrelsd_2_b32"):
        return _movrel(ins)
    if op in ("v_permlane16_b32", "v_permlanex16_b32"):
        return _permlane(ins)
    if ins.mnemonic.startswith("v_dual_"):
        return _vopd(ins)
    if op in VALU:
        return _valu(ins, VALU[op])
    if op.startswith(("v_cmp_", "v_cmpx_")):
        return _compare(ins)
    if op in (
        "v_add_co_u32",
        "v_sub_co_u32",
        "v_subrev_co_u32",
        "v_add_co_ci_u32",
        "v_sub_co_ci_u32",
        "v_subrev_co_ci_u32",
    ):
        return _carry(ins)
    if op in ("v_cndmask_b32",):
        return _cndmask(ins)
    if op in ("v_div_scale_f32", "v_div_scale_f64"):
        return _div_scale(ins)
    if op in ("v_div_fmas_f32", "v_div_fmas_f64"):
        return _div_fmas(ins)
    if op in ("v_readlane_b32", "v_readfirstlane_b32"):
        return _readlane(ins)
    if op == "v_writelane_b32":
        return _writelane(ins)
    if op in ("v_mbcnt_lo_u32_b32", "v_mbcnt_hi_u32_b32"):
        return _mbcnt(ins)
    if op in _PACKED:
        return _packed(ins)
    if op in ("v_fma_mix_f32", "v_fma_mixlo_f16", "v_fma_mixhi_f16"):
        return _fma_mix(ins)
    if op == "v_nop":
        return lambda m, g: None
    if op.startswith("v_wmma_"):
        return compile_wmma(ins)
    return None


__all__ = ["Fault", "compile_vector", "typed"]
