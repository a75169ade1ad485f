"""Scalar ALU semantics (SOP1, SOP2, SOPK, SOPC) as tables: each operation is a function of
per-wave numpy vectors returning (result, SCC or None when SCC is unchanged)."""

from __future__ import annotations

import numpy as np
from cass.runner.emulator.state import EXEC, U32, U64, res

M32, M64 = U32(0xFFFFFFFF), U64(0xFFFFFFFFFFFFFFFF)


def _i32(x):
    return x.astype(U32).view(np.int32)


def _i64(x):
    return x.astype(U64).view(np.int64)


def _nz(x):
    return (x != 0).astype(U32)


def _with_nz(r):
    return r, _nz(r)


def _sh(b, width):
    return (b & (width - 1)).astype(b.dtype)


def _add_u32(a, b):
    s = a.astype(U64) + b.astype(U64)
    return s.astype(U32), (s >> U64(32)).astype(U32)


def _sub_u32(a, b):
    return (a - b).astype(U32), (b > a).astype(U32)


def _add_i32(a, b):
    r = (a + b).astype(U32)
    ov = ((~(a ^ b)) & (a ^ r)) >> U32(31)
    return r, ov.astype(U32)


def _sub_i32(a, b):
    r = (a - b).astype(U32)
    ov = ((a ^ b) & (a ^ r)) >> U32(31)
    return r, ov.astype(U32)


def _bfe(a, b, signed, width):
    dt = U64 if width == 64 else U32
    off = (b & U32(0x3F if width == 64 else 0x1F)).astype(dt)
    size = ((b >> U32(16)) & U32(0x7F)).astype(dt)
    size = np.minimum(size, dt(width))
    raw = a.astype(dt) >> off
    mask = np.where(size >= width, ~dt(0), (dt(1) << np.minimum(size, dt(width - 1))) - dt(1))
    r = raw & mask
    if signed:
        sign = np.where(size > 0, (r >> np.maximum(size, dt(1)) - dt(1)) & dt(1), dt(0))
        r = np.where((sign == 1) & (size < width), r | ~mask, r)
    return r, _nz(r)


def _bfm(a, b):
    size, off = a & U32(31), b & U32(31)
    return (((U32(1) << size) - U32(1)) << off).astype(U32), None


def _ctz(x, width):
    dt = U64 if width == 64 else U32
    out = np.full(x.shape, -1, np.int64)
    for i in range(width - 1, -1, -1):
        out = np.where((x >> dt(i)) & dt(1) == 1, i, out)
    return out.astype(np.int32).view(U32)


def _clz(x, width):
    dt = U64 if width == 64 else U32
    out = np.full(x.shape, -1, np.int64)
    for i in range(width):
        out = np.where((x >> dt(i)) & dt(1) == 1, width - 1 - i, out)
    return out.astype(np.int32).view(U32)


def _popc(x):
    return np.bitwise_count(x).astype(U32)


def _brev32(x):
    x = x.astype(U32)
    out = np.zeros_like(x)
    for i in range(32):
        out |= ((x >> U32(i)) & U32(1)) << U32(31 - i)
    return out


SOP2 = {  # name: (dst/src type, fn(a, b) -> (d, scc))
    "s_add_u32": ("b32", _add_u32),
    "s_sub_u32": ("b32", _sub_u32),
    "s_add_i32": ("b32", _add_i32),
    "s_sub_i32": ("b32", _sub_i32),
    "s_mul_i32": ("b32", lambda a, b: ((a * b).astype(U32), None)),
    "s_mul_hi_u32": ("b32", lambda a, b: (((a.astype(U64) * b) >> U64(32)).astype(U32), None)),
    "s_mul_hi_i32": (
        "b32",
        lambda a, b: (
            ((_i32(a).astype(np.int64) * _i32(b)) >> 32).astype(np.int32).view(U32),
            None,
        ),
    ),
    "s_and_b32": ("b32", lambda a, b: (a & b, _nz(a & b))),
    "s_or_b32": ("b32", lambda a, b: (a | b, _nz(a | b))),
    "s_xor_b32": ("b32", lambda a, b: (a ^ b, _nz(a ^ b))),
    "s_and_not1_b32": ("b32", lambda a, b: (a & ~b, _nz(a & ~b))),
    "s_or_not1_b32": ("b32", lambda a, b: (a | ~b, _nz(a | ~b))),
    "s_nand_b32": ("b32", lambda a, b: (~(a & b), _nz(~(a & b)))),
    "s_nor_b32": ("b32", lambda a, b: (~(a | b), _nz(~(a | b)))),
    "s_xnor_b32": ("b32", lambda a, b: (~(a ^ b), _nz(~(a ^ b)))),
    "s_and_b64": ("b64", lambda a, b: (a & b, _nz(a & b))),
    "s_or_b64": ("b64", lambda a, b: (a | b, _nz(a | b))),
    "s_xor_b64": ("b64", lambda a, b: (a ^ b, _nz(a ^ b))),
    "s_and_not1_b64": ("b64", lambda a, b: (a & ~b, _nz(a & ~b))),
    "s_or_not1_b64": ("b64", lambda a, b: (a | ~b, _nz(a | ~b))),
    "s_lshl_b32": ("b32", lambda a, b: _with_nz((a << _sh(b, 32)).astype(U32))),
    "s_lshr_b32": ("b32", lambda a, b: _with_nz(a >> _sh(b, 32))),
    "s_ashr_i32": (
        "b32",
        lambda a, b: _with_nz((_i32(a) >> _sh(b, 32).astype(np.int32)).view(U32)),
    ),
    "s_lshl_b64": ("b64", lambda a, b: _with_nz(a << (b & U64(63)))),
    "s_lshr_b64": ("b64", lambda a, b: _with_nz(a >> (b & U64(63)))),
    "s_ashr_i64": (
        "b64",
        lambda a, b: _with_nz((_i64(a) >> (b & U64(63)).astype(np.int64)).view(U64)),
    ),
    "s_bfe_u32": ("b32", lambda a, b: _bfe(a, b, False, 32)),
    "s_bfe_i32": ("b32", lambda a, b: _bfe(a, b, True, 32)),
    "s_bfm_b32": ("b32", _bfm),
    "s_min_i32": ("b32", lambda a, b: (np.where(_i32(a) < _i32(b), a, b), _nz(_i32(a) < _i32(b)))),
    "s_max_i32": ("b32", lambda a, b: (np.where(_i32(a) > _i32(b), a, b), _nz(_i32(a) > _i32(b)))),
    "s_min_u32": ("b32", lambda a, b: (np.minimum(a, b), _nz(a < b))),
    "s_max_u32": ("b32", lambda a, b: (np.maximum(a, b), _nz(a > b))),
    "s_absdiff_i32": (
        "b32",
        lambda a, b: _with_nz(np.abs(_i32(a).astype(np.int64) - _i32(b)).astype(U32)),
    ),
    "s_pack_ll_b32_b16": ("b32", lambda a, b: ((a & U32(0xFFFF)) | (b << U32(16)), None)),
    "s_pack_lh_b32_b16": ("b32", lambda a, b: ((a & U32(0xFFFF)) | (b & U32(0xFFFF0000)), None)),
    "s_pack_hh_b32_b16": ("b32", lambda a, b: ((a >> U32(16)) | (b & U32(0xFFFF0000)), None)),
}
for _n in (1, 2, 3, 4):
    SOP2[f"s_lshl{_n}_add_u32"] = ("b32", lambda a, b, n=_n: _add_u32((a << U32(n)).astype(U32), b))
for _w, _t in ((32, "b32"), (64, "b64")):
    SOP2[f"s_bfe_u{_w}" if _w == 64 else "s_bfe_u32"] = (
        _t,
        lambda a, b, w=_w: _bfe(a, b, False, w),
    )
SOP2["s_bfe_i64"] = ("b64", lambda a, b: _bfe(a, b, True, 64))
SOP2["s_bfe_u64"] = ("b64", lambda a, b: _bfe(a, b, False, 64))

SOP1 = {  # name: (type, fn(a) -> (d, scc))
    "s_mov_b32": ("b32", lambda a: (a, None)),
    "s_mov_b64": ("b64", lambda a: (a, None)),
    "s_not_b32": ("b32", lambda a: (~a, _nz(~a))),
    "s_not_b64": ("b64", lambda a: (~a, _nz(~a))),
    "s_brev_b32": ("b32", lambda a: (_brev32(a), None)),
    "s_bcnt1_i32_b32": ("b32", lambda a: (_popc(a), _nz(_popc(a)))),
    "s_bcnt1_i32_b64": ("b64", lambda a: (_popc(a).astype(U64), _nz(_popc(a)))),
    "s_ctz_i32_b32": ("b32", lambda a: (_ctz(a, 32), None)),
    "s_ctz_i32_b64": ("b64", lambda a: (_ctz(a, 64).astype(U64), None)),
    "s_clz_i32_u32": ("b32", lambda a: (_clz(a, 32), None)),
    "s_cls_i32": ("b32", lambda a: (_clz(np.where(_i32(a) < 0, ~a, a).astype(U32), 32), None)),
    "s_sext_i32_i8": (
        "b32",
        lambda a: (a.astype(np.uint8).view(np.int8).astype(np.int32).view(U32), None),
    ),
    "s_sext_i32_i16": (
        "b32",
        lambda a: (a.astype(np.uint16).view(np.int16).astype(np.int32).view(U32), None),
    ),
    "s_abs_i32": ("b32", lambda a: _with_nz(np.abs(_i32(a)).view(U32))),
}

SAVEEXEC = {  # name: new EXEC from (s0, exec)
    "and": lambda s, e: s & e,
    "or": lambda s, e: s | e,
    "xor": lambda s, e: s ^ e,
    "and_not1": lambda s, e: s & ~e,
    "and_not0": lambda s, e: ~s & e,
    "or_not1": lambda s, e: s | ~e,
    "or_not0": lambda s, e: ~s | e,
    "nand": lambda s, e: ~(s & e),
    "nor": lambda s, e: ~(s | e),
    "xnor": lambda s, e: ~(s ^ e),
}

SOPC = {
    "eq": np.equal,
    "lg": np.not_equal,
    "gt": np.greater,
    "ge": np.greater_equal,
    "lt": np.less,
    "le": np.less_equal,
}


def _typed(x, sign):
    return _i32(x) if sign == "i32" else (_i64(x) if sign == "i64" else x)


def compile_scalar(ins):
    """Return a handler for a scalar ALU instruction, or None if the family is not scalar."""
    op = ins.op
    if op in SOP2:
        return _sop2(ins, *SOP2[op])
    if op in ("s_addc_u32", "s_subb_u32"):
        return _carry_op(ins, op == "s_subb_u32")
    if op in ("s_cselect_b32", "s_cselect_b64"):
        return _cselect(ins, op.endswith("64"))
    if op in SOP1:
        return _sop1(ins, *SOP1[op])
    if op.endswith(("_saveexec_b32", "_wrexec_b32")):
        return _saveexec(ins, op)
    if op.startswith(("s_cmp_", "s_cmpk_")):
        return _compare(ins, op)
    if op in ("s_movk_i32", "s_cmovk_i32", "s_addk_i32", "s_mulk_i32"):
        return _sopk(ins, op)
    if op in ("s_cmov_b32", "s_cmov_b64"):
        return _cmov(ins, op.endswith("64"))
    if op.startswith("s_bitcmp"):
        return _bitcmp(ins, op)
    if op.startswith("s_bitset"):
        return _bitset(ins, op)
    return None


def _sop2(ins, typ, fn):
    wide = typ == "b64"
    d, a, b = ins.operands[0], res(ins.operands[1], typ), res(ins.operands[2], typ)

    def run(m, g):
        r, scc = fn(m.st.sread(a, g, typ), m.st.sread(b, g, typ))
        m.st.swrite(d.index, g, r, wide)
        if scc is not None:
            m.st.SCC[g.idx] = scc

    return run


def _carry_op(ins, sub):
    d, a, b = ins.operands[0], res(ins.operands[1]), res(ins.operands[2])

    def run(m, g):
        x, y = m.st.sread(a, g).astype(U64), m.st.sread(b, g).astype(U64)
        c = m.st.SCC[g.idx].astype(U64)
        if sub:
            r = (x - y - c) & U64(0xFFFFFFFF)
            carry = (y + c > x).astype(U32)
        else:
            s = x + y + c
            r, carry = s & U64(0xFFFFFFFF), (s >> U64(32)).astype(U32)
        m.st.swrite(d.index, g, r.astype(U32))
        m.st.SCC[g.idx] = carry

    return run


def _cselect(ins, wide):
    typ = "b64" if wide else "b32"
    d, a, b = ins.operands[0], res(ins.operands[1], typ), res(ins.operands[2], typ)

    def run(m, g):
        x, y = m.st.sread(a, g, typ), m.st.sread(b, g, typ)
        m.st.swrite(d.index, g, np.where(m.st.SCC[g.idx] != 0, x, y), wide)

    return run


def _cmov(ins, wide):
    typ = "b64" if wide else "b32"
    d, a = ins.operands[0], res(ins.operands[1], typ)

    def run(m, g):
        x = m.st.sread(a, g, typ)
        old = m.st.sread(d, g, typ)
        m.st.swrite(d.index, g, np.where(m.st.SCC[g.idx] != 0, x, old), wide)

    return run


def _sop1(ins, typ, fn):
    wide = typ == "b64"
    d, a = ins.operands[0], res(ins.operands[1], typ)
    out_wide = wide and not ins.op.startswith(("s_bcnt1_i32", "s_ctz_i32"))

    def run(m, g):
        r, scc = fn(m.st.sread(a, g, typ))
        m.st.swrite(d.index, g, r if out_wide else np.asarray(r).astype(U32), out_wide)
        if scc is not None:
            m.st.SCC[g.idx] = scc

    return run


def _saveexec(ins, op):
    kind = op[2:].rsplit("_", 2)[0]
    fn = SAVEEXEC[kind]
    wrexec = "_wrexec_" in op
    d, a = ins.operands[0], res(ins.operands[1])

    def run(m, g):
        s0 = m.st.sread(a, g)
        old = m.st.S[EXEC, g.idx].copy()
        new = fn(s0, old).astype(U32)
        m.st.swrite(EXEC, g, new)
        m.st.swrite(d.index, g, new if wrexec else old)
        m.st.SCC[g.idx] = _nz(new)

    return run


def _compare(ins, op):
    parts = op.split("_")  # s_cmp_eq_u32 / s_cmpk_eq_i32
    rel, typ = parts[2], parts[3]
    wide = typ.endswith("64")
    rtyp = "b64" if wide else "b32"
    a, b = res(ins.operands[0], rtyp), res(ins.operands[1], rtyp)
    if parts[1] == "cmpk":
        imm = int(b.value) & 0xFFFF
        if typ == "i32" and imm >= 0x8000:
            imm -= 0x10000
        b = type(b)("const", value=imm & 0xFFFFFFFF, text=b.text)

    def run(m, g):
        x = _typed(m.st.sread(a, g, rtyp), typ)
        y = _typed(m.st.sread(b, g, rtyp), typ)
        m.st.SCC[g.idx] = SOPC[rel](x, y).astype(U32)

    return run


def _bitcmp(ins, op):
    want = 1 if "bitcmp1" in op else 0
    typ = "b64" if op.endswith("64") else "b32"
    a, b = res(ins.operands[0], typ), res(ins.operands[1])

    def run(m, g):
        x = m.st.sread(a, g, typ)
        bit = m.st.sread(b, g).astype(x.dtype) & x.dtype.type(63 if typ == "b64" else 31)
        m.st.SCC[g.idx] = (((x >> bit) & x.dtype.type(1)) == want).astype(U32)

    return run


def _bitset(ins, op):
    """s_bitset0/1_b32/b64 D, S: bit S[4:0] (S[5:0]) of D cleared or set; SCC unchanged (llc's shrink
    of `s_and_b32 d, d, 0x7fffffff` / `s_or_b32 d, d, 0x80000000`)."""
    typ = "b64" if op.endswith("64") else "b32"
    d, b = ins.operands[0], res(ins.operands[1])
    wide, one = typ == "b64", (U64 if typ == "b64" else U32)(1)

    def run(m, g):
        cur = m.st.sread(res(d, typ), g, typ)
        mask = one << (m.st.sread(b, g).astype(cur.dtype) & cur.dtype.type(63 if wide else 31))
        m.st.swrite(d.index, g, (cur | mask) if "bitset1" in op else (cur & ~mask), wide)

    return run


def _sopk(ins, op):
    d, imm_op = ins.operands
    imm = int(imm_op.value) & 0xFFFF
    simm = imm - 0x10000 if imm >= 0x8000 else imm
    k = U32(simm & 0xFFFFFFFF)

    def run(m, g):
        if op == "s_movk_i32":
            m.st.swrite(d.index, g, np.full(g.k, k, U32))
            return
        cur = m.st.sread(d, g)
        if op == "s_cmovk_i32":
            m.st.swrite(d.index, g, np.where(m.st.SCC[g.idx] != 0, k, cur))
        elif op == "s_addk_i32":
            r, ov = _add_i32(cur, np.full(g.k, k, U32))
            m.st.swrite(d.index, g, r)
            m.st.SCC[g.idx] = ov
        else:
            m.st.swrite(d.index, g, (cur * k).astype(U32))

    return run
