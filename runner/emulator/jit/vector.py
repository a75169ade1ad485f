"""Vector ALU instructions as C++ lane loops: the VALU subset as a table of expressions (each
the interpreter's `ops_vector_table` entry written in C++, same types and promotions), compares
(VOPC, v_cmpx), carries, v_cndmask, lane reads and writes, mbcnt and VOPD pairs. A lane loop
runs over the wave's 32 lanes (VGPR rows are contiguous) and keeps inactive lanes."""

from __future__ import annotations

from cass.runner.emulator.jit.operands import (
    Hoist,
    Untranslated,
    as_bits,
    lane_bits,
    scalar,
    swrite,
    typed,
)
from cass.runner.emulator.state import EXEC, width_of

_U3 = ("u32",) * 3
_I3 = ("i32",) * 3
_F3 = ("f32",) * 3
_FMA = ("f32", _F3, "fma_f32({0}, {1}, {2})")
_MED3 = "std::max(std::min({0}, {1}), std::min(std::max({0}, {1}), {2}))"

VALU: dict[str, tuple[str, tuple[str, ...], str]] = {
    "v_mov_b32": ("b32", ("b32",), "{0}"),
    "v_not_b32": ("b32", ("b32",), "~{0}"),
    "v_and_b32": ("b32", ("b32", "b32"), "{0} & {1}"),
    "v_or_b32": ("b32", ("b32", "b32"), "{0} | {1}"),
    "v_xor_b32": ("b32", ("b32", "b32"), "{0} ^ {1}"),
    "v_xnor_b32": ("b32", ("b32", "b32"), "~({0} ^ {1})"),
    "v_lshlrev_b32": ("b32", ("u32", "u32"), "{1} << ({0} & 31u)"),
    "v_lshrrev_b32": ("b32", ("u32", "u32"), "{1} >> ({0} & 31u)"),
    "v_ashrrev_i32": ("b32", ("u32", "i32"), "{1} >> ({0} & 31u)"),
    "v_lshlrev_b64": ("b64", ("u32", "u64"), "{1} << ({0} & 63u)"),
    "v_lshrrev_b64": ("b64", ("u32", "u64"), "{1} >> ({0} & 63u)"),
    "v_ashrrev_i64": ("b64", ("u32", "i64"), "{1} >> ({0} & 63u)"),
    "v_add_nc_u32": ("b32", ("u32", "u32"), "{0} + {1}"),
    "v_sub_nc_u32": ("b32", ("u32", "u32"), "{0} - {1}"),
    "v_subrev_nc_u32": ("b32", ("u32", "u32"), "{1} - {0}"),
    "v_add_nc_i32": ("b32", ("u32", "u32"), "{0} + {1}"),
    "v_sub_nc_i32": ("b32", ("u32", "u32"), "{0} - {1}"),
    "v_mul_u32_u24": ("b32", ("u32", "u32"), "({0} & 0xFFFFFFu) * ({1} & 0xFFFFFFu)"),
    "v_mul_hi_u32_u24": (
        "b32",
        ("u32", "u32"),
        "(uint32_t)(((uint64_t)({0} & 0xFFFFFFu) * ({1} & 0xFFFFFFu)) >> 32)",
    ),
    "v_mul_i32_i24": ("b32", ("u32", "u32"), "(int64_t)i24({0}) * i24({1})"),
    "v_mul_hi_i32_i24": ("b32", ("u32", "u32"), "((int64_t)i24({0}) * i24({1})) >> 32"),
    "v_mad_u32_u24": ("b32", _U3, "({0} & 0xFFFFFFu) * ({1} & 0xFFFFFFu) + {2}"),
    "v_mad_i32_i24": ("b32", ("u32", "u32", "i32"), "(int64_t)i24({0}) * i24({1}) + {2}"),
    "v_mul_lo_u32": ("b32", ("u32", "u32"), "{0} * {1}"),
    "v_mul_hi_u32": ("b32", ("u32", "u32"), "((uint64_t){0} * {1}) >> 32"),
    "v_mul_hi_i32": ("b32", ("i32", "i32"), "((int64_t){0} * {1}) >> 32"),
    "v_min_i32": ("b32", ("i32", "i32"), "std::min({0}, {1})"),
    "v_max_i32": ("b32", ("i32", "i32"), "std::max({0}, {1})"),
    "v_min_u32": ("b32", ("u32", "u32"), "std::min({0}, {1})"),
    "v_max_u32": ("b32", ("u32", "u32"), "std::max({0}, {1})"),
    "v_min3_i32": ("b32", _I3, "std::min(std::min({0}, {1}), {2})"),
    "v_max3_i32": ("b32", _I3, "std::max(std::max({0}, {1}), {2})"),
    "v_min3_u32": ("b32", _U3, "std::min(std::min({0}, {1}), {2})"),
    "v_max3_u32": ("b32", _U3, "std::max(std::max({0}, {1}), {2})"),
    "v_med3_i32": ("b32", _I3, _MED3),
    "v_med3_u32": ("b32", _U3, _MED3),
    "v_maxmin_i32": ("b32", _I3, "std::min(std::max({0}, {1}), {2})"),
    "v_minmax_i32": ("b32", _I3, "std::max(std::min({0}, {1}), {2})"),
    "v_maxmin_u32": ("b32", _U3, "std::min(std::max({0}, {1}), {2})"),
    "v_minmax_u32": ("b32", _U3, "std::max(std::min({0}, {1}), {2})"),
    "v_add3_u32": ("b32", _U3, "{0} + {1} + {2}"),
    "v_add_lshl_u32": ("b32", _U3, "({0} + {1}) << ({2} & 31u)"),
    "v_lshl_add_u32": ("b32", _U3, "({0} << ({1} & 31u)) + {2}"),
    "v_lshl_or_b32": ("b32", _U3, "({0} << ({1} & 31u)) | {2}"),
    "v_and_or_b32": ("b32", _U3, "({0} & {1}) | {2}"),
    "v_or3_b32": ("b32", _U3, "{0} | {1} | {2}"),
    "v_xor3_b32": ("b32", _U3, "{0} ^ {1} ^ {2}"),
    "v_xad_u32": ("b32", _U3, "({0} ^ {1}) + {2}"),
    "v_alignbit_b32": ("b32", _U3, "((((uint64_t){0}) << 32) | {1}) >> ({2} & 31u)"),
    "v_alignbyte_b32": ("b32", _U3, "((((uint64_t){0}) << 32) | {1}) >> (({2} & 3u) * 8u)"),
    "v_bfe_u32": ("b32", _U3, "bfe_u({0}, {1}, {2})"),
    "v_bfe_i32": ("b32", _U3, "bfe_i({0}, {1}, {2})"),
    "v_bfi_b32": ("b32", _U3, "({0} & {1}) | (~{0} & {2})"),
    "v_bfm_b32": ("b32", ("u32", "u32"), "((1u << ({0} & 31u)) - 1u) << ({1} & 31u)"),
    "v_bcnt_u32_b32": ("b32", ("u32", "u32"), "(uint32_t)__builtin_popcount({0}) + {1}"),
    "v_clz_i32_u32": ("b32", ("u32",), "clz_or_ones({0})"),
    "v_ctz_i32_b32": ("b32", ("u32",), "ctz_or_ones({0})"),
    "v_mad_u64_u32": ("b64", ("u32", "u32", "u64"), "(uint64_t){0} * {1} + {2}"),
    "v_mad_i64_i32": ("b64", ("i32", "i32", "i64"), "(int64_t){0} * {1} + {2}"),
    # float32
    "v_add_f32": ("f32", ("f32", "f32"), "{0} + {1}"),
    "v_sub_f32": ("f32", ("f32", "f32"), "{0} - {1}"),
    "v_subrev_f32": ("f32", ("f32", "f32"), "{1} - {0}"),
    "v_mul_f32": ("f32", ("f32", "f32"), "{0} * {1}"),
    "v_mul_legacy_f32": ("f32", ("f32", "f32"), "({0} == 0.0f || {1} == 0.0f) ? 0.0f : {0} * {1}"),
    "v_min_f32": ("f32", ("f32", "f32"), "fmin_ieee({0}, {1})"),
    "v_max_f32": ("f32", ("f32", "f32"), "fmax_ieee({0}, {1})"),
    "v_min3_f32": ("f32", _F3, "fmin_ieee(fmin_ieee({0}, {1}), {2})"),
    "v_max3_f32": ("f32", _F3, "fmax_ieee(fmax_ieee({0}, {1}), {2})"),
    "v_med3_f32": ("f32", _F3, "fmed3({0}, {1}, {2})"),
    "v_maxmin_f32": ("f32", _F3, "fmin_ieee(fmax_ieee({0}, {1}), {2})"),
    "v_minmax_f32": ("f32", _F3, "fmax_ieee(fmin_ieee({0}, {1}), {2})"),
    "v_fma_f32": _FMA,
    "v_fmac_f32": _FMA,
    "v_fmaak_f32": _FMA,
    "v_fmamk_f32": _FMA,
    "v_ldexp_f32": ("f32", ("f32", "i32"), "ldexp_f32({0}, {1})"),
    "v_div_fixup_f32": ("f32", _F3, "div_fixup_f32({0}, {1}, {2})"),
    "v_sqrt_f32": ("f32", ("f32",), "std::sqrt({0})"),
    "v_rcp_f32": ("f32", ("f32",), "(float)(1.0 / (double){0})"),
    "v_rcp_iflag_f32": ("f32", ("f32",), "(float)(1.0 / (double){0})"),
    "v_rsq_f32": ("f32", ("f32",), "(float)(1.0 / std::sqrt((double){0}))"),
    "v_exp_f32": ("f32", ("f32",), "(float)std::exp2((double){0})"),
    "v_floor_f32": ("f32", ("f32",), "std::floor({0})"),
    "v_ceil_f32": ("f32", ("f32",), "std::ceil({0})"),
    "v_trunc_f32": ("f32", ("f32",), "std::trunc({0})"),
    "v_rndne_f32": ("f32", ("f32",), "std::rint({0})"),
    "v_fract_f32": ("f32", ("f32",), "fract_f32({0})"),
    "v_cvt_f32_i32": ("f32", ("i32",), "(float){0}"),
    "v_cvt_f32_u32": ("f32", ("u32",), "(float){0}"),
    "v_cvt_i32_f32": ("b32", ("f32",), "to_i32((double){0})"),
    "v_cvt_u32_f32": ("b32", ("f32",), "to_u32((double){0})"),
    "v_cvt_rpi_i32_f32": ("b32", ("f32",), "to_i32((double)std::floor({0} + 0.5f))"),
    "v_cvt_flr_i32_f32": ("b32", ("f32",), "to_i32((double)std::floor({0}))"),
    "v_cvt_f32_ubyte0": ("f32", ("u32",), "(float)({0} & 0xFFu)"),
    "v_cvt_f32_ubyte1": ("f32", ("u32",), "(float)(({0} >> 8) & 0xFFu)"),
    "v_cvt_f32_ubyte2": ("f32", ("u32",), "(float)(({0} >> 16) & 0xFFu)"),
    "v_cvt_f32_ubyte3": ("f32", ("u32",), "(float)({0} >> 24)"),
    "v_cvt_f32_f64": ("f32", ("f64",), "(float){0}"),
    "v_cvt_f64_f32": ("f64", ("f32",), "(double){0}"),
    # float64
    "v_add_f64": ("f64", ("f64", "f64"), "{0} + {1}"),
    "v_mul_f64": ("f64", ("f64", "f64"), "{0} * {1}"),
    "v_min_f64": ("f64", ("f64", "f64"), "dmin_ieee({0}, {1})"),
    "v_max_f64": ("f64", ("f64", "f64"), "dmax_ieee({0}, {1})"),
    "v_fma_f64": ("f64", ("f64",) * 3, "std::fma({0}, {1}, {2})"),
    "v_sqrt_f64": ("f64", ("f64",), "std::sqrt({0})"),
    "v_rcp_f64": ("f64", ("f64",), "1.0 / {0}"),
    "v_floor_f64": ("f64", ("f64",), "std::floor({0})"),
    "v_ceil_f64": ("f64", ("f64",), "std::ceil({0})"),
    "v_trunc_f64": ("f64", ("f64",), "std::trunc({0})"),
    "v_rndne_f64": ("f64", ("f64",), "std::rint({0})"),
    "v_cvt_f64_i32": ("f64", ("i32",), "(double){0}"),
    "v_cvt_f64_u32": ("f64", ("u32",), "(double){0}"),
    "v_cvt_i32_f64": ("b32", ("f64",), "to_i32({0})"),
    "v_cvt_u32_f64": ("b32", ("f64",), "to_u32({0})"),
}
# 64-bit sources the interpreter reads as 64 bits although the table says b64 for the result
_CMP_TYPES = ("f32", "f64", "i32", "u32", "i64", "u64")
_RELATIONS = {
    "f": "false",
    "t": "true",
    "tru": "true",
    "lt": "a < b",
    "eq": "a == b",
    "le": "a <= b",
    "gt": "a > b",
    "ne": "a != b",
    "ge": "a >= b",
    "lg": "(a < b || a > b)",
    "o": "!(a != a || b != b)",
    "u": "(a != a || b != b)",
    "nge": "!(a >= b)",
    "nlg": "!(a < b || a > b)",
    "ngt": "!(a > b)",
    "nle": "!(a <= b)",
    "neq": "!(a == b)",
    "nlt": "!(a < b)",
}
_CARRIES = {
    "v_add_co_u32",
    "v_sub_co_u32",
    "v_subrev_co_u32",
    "v_add_co_ci_u32",
    "v_sub_co_ci_u32",
    "v_subrev_co_ci_u32",
}


def _plain(ins) -> None:
    """Output modifiers and op_sel are left to the interpreter."""
    for key in ("clamp", "mul", "div"):
        if key in ins.modifiers:
            raise Untranslated(key)
    raw = ins.modifiers.get("op_sel")
    if raw and any(x.strip() not in ("0", "") for x in raw.strip("[]").split(",")):
        raise Untranslated("op_sel")


def valu_expr(ins, hoist: Hoist) -> tuple[str, str, object]:
    """(result type, per-lane C++ result expression, destination operand) of a table op."""
    spec = VALU.get(ins.op)
    if spec is None:
        raise Untranslated(ins.op)
    _plain(ins)
    dtyp, styps, template = spec
    ops = list(ins.operands)
    dst = ops[0]
    if ins.op in ("v_mad_u64_u32", "v_mad_i64_i32"):
        ops.pop(1)  # carry-out SGPR: not written, as in the interpreter
    srcs = ops[1:]
    if "fmac" in ins.op:
        srcs = srcs[:2] + [dst]
    if len(srcs) < len(styps) or dst.kind != "v":
        raise Untranslated("operands")
    args = [typed(lane_bits(o, t, hoist), t) for o, t in zip(srcs, styps)]
    return dtyp, template.format(*args), dst


def _store(dtyp: str, dst, result: str, name: str) -> tuple[str, list[str]]:
    """(declaration of the lane's result bits, its masked writes)."""
    if width_of(dtyp) == 64:
        i = dst.index
        decl = f"const uint64_t {name} = {as_bits(result, dtyp)};"
        writes = [
            f"VR({i})[l] = sel(s[126], l, (uint32_t){name}, VR({i})[l]);",
            f"VR({i + 1})[l] = sel(s[126], l, (uint32_t)({name} >> 32), VR({i + 1})[l]);",
        ]
        return decl, writes
    decl = f"const uint32_t {name} = {as_bits(result, dtyp)};"
    return decl, [f"VR({dst.index})[l] = sel(s[126], l, {name}, VR({dst.index})[l]);"]


def _lane_loop(hoist: Hoist, body: list[str]) -> list[str]:
    return ["{", *hoist.lines, "LANES {", *body, "}", "}"]


def _valu(ins) -> list[str]:
    hoist = Hoist()
    dtyp, result, dst = valu_expr(ins, hoist)
    decl, writes = _store(dtyp, dst, result, "r")
    return _lane_loop(hoist, [decl, *writes])


def _dual_half(part):
    clone = type(part)(
        part.pc,
        part.size,
        part.words,
        part.text,
        "v_" + part.mnemonic[len("v_dual_") :],
        list(part.operands),
        part.modifiers,
    )
    if clone.op == "v_cndmask_b32" and len(clone.operands) == 3:
        from cass.runner.emulator.decode import Operand

        clone.operands.append(Operand("s", 106, 1, text="vcc_lo"))
    return clone


def _half(ins, hoist: Hoist, name: str) -> tuple[str, list[str]]:
    if ins.op == "v_cndmask_b32":
        result, dst = _cndmask_expr(ins, hoist)
        return _store("b32", dst, result, name)
    dtyp, result, dst = valu_expr(ins, hoist)
    if width_of(dtyp) == 64:
        raise Untranslated("64-bit VOPD half")
    return _store(dtyp, dst, result, name)


def _vopd(ins) -> list[str]:
    """Both halves read their sources before either writes (as the interpreter's snapshot)."""
    hoist = Hoist()
    x_decl, x_writes = _half(_dual_half(ins), hoist, "rx")
    y_decl, y_writes = _half(_dual_half(ins.second), hoist, "ry")
    return _lane_loop(hoist, [x_decl, y_decl, *x_writes, *y_writes])


def _compare(ins) -> list[str]:
    parts = ins.op.split("_")
    writes_exec = parts[1] == "cmpx"
    rel, typ = parts[2], parts[3]
    classify = rel == "class" and typ == "f32"
    if not classify and (rel not in _RELATIONS or typ not in _CMP_TYPES):
        raise Untranslated(ins.op)
    ops = list(ins.operands)
    dst = None if writes_exec else ops.pop(0)
    hoist = Hoist()
    styps = ("f32", "u32") if classify else (typ, typ)
    a, b = (typed(lane_bits(o, t, hoist), t) for o, t in zip(ops[:2], styps))
    relation = "(b >> fclass(a)) & 1u" if classify else _RELATIONS[rel]
    body = [
        f"const auto a = {a}; const auto b = {b};",
        f"bits |= (uint32_t)({relation}) << l;",
    ]
    out = ["{", *hoist.lines, "uint32_t bits = 0;", "LANES {", *body, "}", "bits &= s[126];"]
    if dst is None:  # v_cmpx: the result is the new EXEC
        out.append(swrite(EXEC, "bits"))
    else:
        out.append(swrite(dst.index, "bits", wide=dst.count == 2 and dst.index != 106))
    return [*out, "}"]


def _cndmask_expr(ins, hoist: Hoist) -> tuple[str, object]:
    ops = list(ins.operands)
    typ = "f32" if any(o.abs or o.neg for o in ops[1:3]) else "b32"
    mask = hoist.name("uint32_t", scalar(ops[3]))
    a, b = (lane_bits(o, typ, hoist) for o in ops[1:3])
    return f"((({mask} >> l) & 1u) ? {b} : {a})", ops[0]


def _cndmask(ins) -> list[str]:
    _plain(ins)
    hoist = Hoist()
    result, dst = _cndmask_expr(ins, hoist)
    decl, writes = _store("b32", dst, result, "r")
    return _lane_loop(hoist, [decl, *writes])


def _carry(ins) -> list[str]:
    if "clamp" in ins.modifiers:
        raise Untranslated("clamp")
    ops = list(ins.operands)
    dst, sdst = ops[0], ops[1]
    hoist = Hoist()
    x, y = (lane_bits(o, "u32", hoist) for o in ops[2:4])
    if "subrev" in ins.op:
        x, y = y, x
    cin = hoist.name("uint32_t", scalar(ops[4])) if len(ops) > 4 else None
    body = [f"const uint32_t x = {x}, y = {y};"]
    if "sub" in ins.op:
        body.append("uint32_t r = x - y; uint32_t cr = x < y;")
        if cin:
            body.append(f"const uint32_t ci = ({cin} >> l) & 1u; cr |= r < ci; r -= ci;")
    else:
        body.append("uint32_t r = x + y; uint32_t cr = r < x;")
        if cin:
            body.append(f"const uint32_t ci = ({cin} >> l) & 1u; r += ci; cr |= r < ci;")
    body += [f"VR({dst.index})[l] = sel(s[126], l, r, VR({dst.index})[l]);", "carry |= cr << l;"]
    out = ["{", *hoist.lines, "uint32_t carry = 0;", "LANES {", *body, "}"]
    return [*out, swrite(sdst.index, "carry & s[126]"), "}"]


def _readlane(ins) -> list[str]:
    dst, src = ins.operands[0], ins.operands[1]
    if src.kind != "v":
        raise Untranslated("readlane source")
    if len(ins.operands) > 2:
        lane = f"({scalar(ins.operands[2])} & 31u)"
    else:
        lane = "(s[126] ? __builtin_ctz(s[126]) : 0)"
    return ["{", f"const uint32_t v_ = VR({src.index})[{lane}];", swrite(dst.index, "v_"), "}"]


def _writelane(ins) -> list[str]:
    dst, value, lane = ins.operands
    return [f"VR({dst.index})[{scalar(lane)} & 31u] = {scalar(value)};"]


def _mbcnt(ins) -> list[str]:
    dst = ins.operands[0]
    hoist = Hoist()
    a, b = (lane_bits(o, "u32", hoist) for o in ins.operands[1:3])
    if ins.op.startswith("v_mbcnt_hi"):
        result = b
    else:
        result = f"(uint32_t)__builtin_popcount({a} & ((1u << l) - 1u)) + {b}"
    decl, writes = _store("b32", dst, result, "r")
    return _lane_loop(hoist, [decl, *writes])


def _div_scale(ins) -> list[str]:
    """v_div_scale_f32 D, VCC, S0, S1, S2: the scaled operand and, in VCC, where it was scaled."""
    _plain(ins)
    dst, vcc = ins.operands[:2]
    hoist = Hoist()
    a, b, c = (typed(lane_bits(o, "f32", hoist), "f32") for o in ins.operands[2:5])
    body = ["bool flag;", f"const uint32_t r = fb(div_scale_f32({a}, {b}, {c}, flag));"]
    body += [f"VR({dst.index})[l] = sel(s[126], l, r, VR({dst.index})[l]);"]
    body += ["bits |= (uint32_t)flag << l;"]
    out = ["{", *hoist.lines, "uint32_t bits = 0;", "LANES {", *body, "}"]
    return [*out, swrite(vcc.index, "bits & s[126]"), "}"]


def _div_fmas(ins) -> list[str]:
    _plain(ins)
    dst = ins.operands[0]
    hoist = Hoist()
    a, b, c = (typed(lane_bits(o, "f32", hoist), "f32") for o in ins.operands[1:4])
    vcc = hoist.name("uint32_t", "s[106]")
    result = f"div_fmas_f32({a}, {b}, {c}, ({vcc} >> l) & 1u)"
    decl, writes = _store("f32", dst, result, "r")
    return _lane_loop(hoist, [decl, *writes])


def translate_vector(ins) -> list[str]:
    """C++ statements for a vector ALU instruction; raises Untranslated otherwise."""
    op = ins.op
    if ins.mnemonic.endswith(("_dpp", "_sdwa")) or "dpp8" in ins.modifiers:
        raise Untranslated("DPP/SDWA")
    if ins.mnemonic.startswith("v_dual_"):
        return _vopd(ins)
    if op in VALU:
        return _valu(ins)
    if op.startswith(("v_cmp_", "v_cmpx_")):
        _plain(ins)
        return _compare(ins)
    if op in _CARRIES:
        return _carry(ins)
    if op == "v_cndmask_b32":
        return _cndmask(ins)
    if op in ("v_readlane_b32", "v_readfirstlane_b32"):
        return _readlane(ins)
    if op == "v_writelane_b32":
        return _writelane(ins)
    if op in ("v_mbcnt_lo_u32_b32", "v_mbcnt_hi_u32_b32"):
        return _mbcnt(ins)
    if op == "v_div_scale_f32":
        return _div_scale(ins)
    if op == "v_div_fmas_f32":
        return _div_fmas(ins)
    if op == "v_nop":
        return []
    raise Untranslated(op)
