"""Vector ALU instructions as C++ lane loops: the VALU subset as a table of expressions (each
the interpreter's `ops_vector_table` entry written in C++, same types and promotions), compares
(VOPC, v_cmpx), carries, v_cndmask, lane reads and writes, mbcnt and VOPD pairs. A lane loop
runs over the wave's 32 lanes (VGPR rows are contiguous) and keeps inactive lanes."""

from __future__ import annotations

from cass.runner.emulator.jit.operands import (
    SIXTEEN,
    Hoist,
    Untranslated,
    as_bits,
    lane_bits,
    scalar,
    swrite,
    typed,
)
from cass.runner.emulator.jit.valu_table import CMP_TYPES, PACKED, RELATIONS, VALU
from cass.runner.emulator.state import EXEC, width_of

_CARRIES = {
    "v_add_co_u32",
    "v_sub_co_u32",
    "v_subrev_co_u32",
    "v_add_co_ci_u32",
    "v_sub_co_ci_u32",
    "v_subrev_co_ci_u32",
}


def _plain(ins, op_sel: bool = True) -> None:
    """Output modifiers and (unless `op_sel` is False) op_sel are left to the interpreter."""
    for key in ("clamp", "mul", "div"):
        if key in ins.modifiers:
            raise Untranslated(key)
    raw = ins.modifiers.get("op_sel") if op_sel else None
    if raw and any(x.strip() not in ("0", "") for x in raw.strip("[]").split(",")):
        raise Untranslated("op_sel")


def _opsel(ins, key: str) -> list[int] | None:
    raw = ins.modifiers.get(key)
    return [int(x) for x in raw.strip("[]").split(",")] if raw else None


def valu_expr(ins, hoist: Hoist) -> tuple[str, str, object]:
    """(result type, per-lane C++ result expression, destination operand) of a table op; for
    16-bit operations, op_sel picks the halves read and (its fourth bit) written."""
    spec = VALU.get(ins.op)
    if spec is None:
        raise Untranslated(ins.op)
    dtyp, styps, template = spec
    sel = [0, 0, 0, 0]
    if any(t in SIXTEEN for t in (dtyp, *styps)):
        _plain(ins, op_sel=False)
        sel = _opsel(ins, "op_sel") or sel
    else:
        _plain(ins)
    ops = list(ins.operands)
    dst = ops[0]
    if ins.op in ("v_mad_u64_u32", "v_mad_i64_i32"):
        ops.pop(1)  # carry-out SGPR: not written, as in the interpreter
    srcs = ops[1:]
    if "fmac" in ins.op:
        srcs = srcs[:2] + [dst]
    if len(srcs) < len(styps) or dst.kind != "v":
        raise Untranslated("operands")
    hi = [bool(sel[i]) if i < len(sel) else False for i in range(4)]
    args = [typed(lane_bits(o, t, hoist, hi[i]), t) for i, (o, t) in enumerate(zip(srcs, styps))]
    dst_hi = hi[3] if len(sel) > 3 else False
    if dst_hi and dtyp not in SIXTEEN:
        raise Untranslated("op_sel on a 32-bit result")
    return dtyp + ("_hi" if dst_hi else ""), template.format(*args), dst


def _store(dtyp: str, dst, result: str, name: str) -> tuple[str, list[str]]:
    """(declaration of the lane's result bits, its masked writes); a 16-bit result (type
    suffixed `_hi`: the high half) replaces one half of the destination."""
    hi = dtyp.endswith("_hi")
    dtyp = dtyp.removesuffix("_hi")
    if dtyp in SIXTEEN:
        i = dst.index
        bits = as_bits(result, dtyp)
        merged = (
            f"(VR({i})[l] & 0xFFFFu) | ({bits} << 16)"
            if hi
            else f"(VR({i})[l] & 0xFFFF0000u) | {bits}"
        )
        decl = f"const uint32_t {name} = {merged};"
        return decl, [f"VR({i})[l] = sel(s[126], l, {name}, VR({i})[l]);"]
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
    classify = rel == "class" and typ in ("f32", "f64")
    if not classify and (rel not in RELATIONS or typ not in CMP_TYPES):
        raise Untranslated(ins.op)
    ops = list(ins.operands)
    dst = None if writes_exec else ops.pop(0)
    hoist = Hoist()
    styps = (typ, "u32") if classify else (typ, typ)
    a, b = (typed(lane_bits(o, t, hoist), t) for o, t in zip(ops[:2], styps))
    relation = "(b >> fclass(a)) & 1u" if classify else RELATIONS[rel]
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
    """v_div_scale_f32/f64 D, VCC, S0, S1, S2: the scaled operand and, in VCC, where it was
    scaled."""
    _plain(ins)
    typ = ins.op.rsplit("_", 1)[1]
    dst, vcc = ins.operands[:2]
    hoist = Hoist()
    a, b, c = (typed(lane_bits(o, typ, hoist), typ) for o in ins.operands[2:5])
    decl, writes = _store(typ, dst, f"div_scale_{typ}({a}, {b}, {c}, flag)", "r")
    body = ["bool flag;", decl, *writes, "bits |= (uint32_t)flag << l;"]
    out = ["{", *hoist.lines, "uint32_t bits = 0;", "LANES {", *body, "}"]
    return [*out, swrite(vcc.index, "bits & s[126]"), "}"]


def _div_fmas(ins) -> list[str]:
    _plain(ins)
    typ = ins.op.rsplit("_", 1)[1]
    dst = ins.operands[0]
    hoist = Hoist()
    a, b, c = (typed(lane_bits(o, typ, hoist), typ) for o in ins.operands[1:4])
    vcc = hoist.name("uint32_t", "s[106]")
    result = f"div_fmas_{typ}({a}, {b}, {c}, ({vcc} >> l) & 1u)"
    decl, writes = _store(typ, dst, result, "r")
    return _lane_loop(hoist, [decl, *writes])


def _packed_const(op, typ: str):
    """As ops_vector._packed_const: inline constants apply to both halves."""
    from cass.runner.emulator.state import res

    if op.kind == "float" or (op.kind == "int" and -16 <= int(op.value) <= 64):
        half = int(res(op, "f16" if typ == "f16" else "b16").value) & 0xFFFF
        return type(op)("const", value=half | (half << 16), text=op.text)
    return res(op, "b32")


def _packed(ins) -> list[str]:
    """VOP3P as ops_vector._packed: each half from op_sel (low) / op_sel_hi (high) halves of
    the sources, neg_lo / neg_hi negating f16 halves; clamp is not applied (as there)."""
    typ = "f16" if ins.op.endswith("f16") else "u16"
    dst, srcs = ins.operands[0], [_packed_const(o, typ) for o in ins.operands[1:]]
    n = len(srcs)
    sel = _opsel(ins, "op_sel") or [0] * n
    sel_hi = _opsel(ins, "op_sel_hi") or [1] * n
    neg_lo = _opsel(ins, "neg_lo") or [0] * n
    neg_hi = _opsel(ins, "neg_hi") or [0] * n
    if dst.kind != "v" or min(len(sel), len(sel_hi), len(neg_lo), len(neg_hi)) < n:
        raise Untranslated("packed operands")
    hoist = Hoist()

    def half(i: int, high: int, negate: int) -> str:
        v = typed(lane_bits(srcs[i], typ, hoist, bool(high)), typ)
        return f"(-{v})" if negate and typ == "f16" else v

    template = PACKED[ins.op]
    lo = template.format(*[half(i, sel[i], neg_lo[i]) for i in range(n)])
    hi = template.format(*[half(i, sel_hi[i], neg_hi[i]) for i in range(n)])
    bt = "f16" if typ == "f16" else "b16"
    body = [
        f"const uint32_t r = ({as_bits(lo, bt)} & 0xFFFFu) | ({as_bits(hi, bt)} << 16);",
        f"VR({dst.index})[l] = sel(s[126], l, r, VR({dst.index})[l]);",
    ]
    return _lane_loop(hoist, body)


def _fma_mix(ins) -> list[str]:
    """v_fma_mix_f32 / mixlo / mixhi as ops_vector._fma_mix: each source f32, or (op_sel_hi)
    the f16 half op_sel picks, widened; one f32 fma; mixlo/hi round it into a half."""
    _plain(ins, op_sel=False)
    dst, srcs = ins.operands[0], ins.operands[1:4]
    sel = _opsel(ins, "op_sel") or [0, 0, 0]
    sel_hi = _opsel(ins, "op_sel_hi") or [0, 0, 0]
    if len(srcs) < 3 or len(sel) < 3 or len(sel_hi) < 3:
        raise Untranslated("fma_mix operands")
    hoist = Hoist()
    args = []
    for i in range(3):
        if sel_hi[i]:
            args.append(f"(float){typed(lane_bits(srcs[i], 'f16', hoist, bool(sel[i])), 'f16')}")
        else:
            args.append(typed(lane_bits(srcs[i], "f32", hoist), "f32"))
    result = f"fma_f32({', '.join(args)})"
    if ins.op == "v_fma_mix_f32":
        decl, writes = _store("f32", dst, result, "r")
    else:
        dtyp = "f16_hi" if ins.op == "v_fma_mixhi_f16" else "f16"
        decl, writes = _store(dtyp, dst, f"hround({result})", "r")
    return _lane_loop(hoist, [decl, *writes])


_WMMA_KIND = {"f16": "WMMA_F16", "bf16": "WMMA_BF16", "iu8": "WMMA_IU8", "iu4": "WMMA_IU4"}


def _wmma(ins) -> list[str]:
    """As ops_wmma.compile_wmma: the products summed over K in order, in double (int64 for
    iu8/iu4), plus C; every lane of the 8 destination VGPRs written (EXEC is all ones)."""
    from cass.runner.emulator.ops_wmma import _REGS, WMMA, _flags

    src, out = WMMA[ins.op]
    dst, a, b, c = ins.operands
    if a.kind != "v" or b.kind != "v" or dst.kind != "v" or c.kind not in ("v", "int", "float"):
        raise Untranslated("WMMA operands")
    regs = _REGS[src]
    hi = _flags(ins.modifiers.get("op_sel"))[2] == 1
    neg_lo = _flags(ins.modifiers.get("neg_lo"))
    clamp = "clamp" in ins.modifiers
    integer = src in ("iu8", "iu4")
    acc = "int64_t" if integer else "double"
    lines = [
        "{",
        f"const uint32_t* RA[{regs}]; const uint32_t* RB[{regs}];",
        f"for (int r = 0; r < {regs}; ++r) {{ RA[r] = VR({a.index} + r); RB[r] = VR({b.index} + r); }}",
        "double FA[16][16], FB[16][16]; int64_t IA[16][16], IB[16][16];",
        f"wmma_operand(RA, {_WMMA_KIND[src]}, {str(integer and neg_lo[0] == 1).lower()}, FA, IA);",
        f"wmma_operand(RB, {_WMMA_KIND[src]}, {str(integer and neg_lo[1] == 1).lower()}, FB, IB);",
        "uint32_t OUT[8][32];",
        "for (int v = 0; v < 8; ++v) for (int l = 0; l < 32; ++l) {",
        "    const int mm = 2 * v + l / 16, nn = l % 16;",
    ]
    if c.kind != "v":
        value = int(c.value) if integer else float(c.value)
        lines.append(f"    {acc} d = ({acc})({value!r});")
    elif out == "f32":
        lines.append(f"    {acc} d = (double)bf(VR({c.index} + v)[l]);")
    elif out == "i32":
        lines.append(f"    {acc} d = (int64_t)(int32_t)VR({c.index} + v)[l];")
    else:
        half = f"((VR({c.index} + v)[l] >> {16 if hi else 0}) & 0xFFFFu)"
        conv = f"(double)hf({half})" if out == "f16" else f"bf16_to_double({half})"
        lines.append(f"    {acc} d = {conv};")
    product = "IA[mm][k] * IB[nn][k]" if integer else "FA[mm][k] * FB[nn][k]"
    lines.append(f"    {acc} p = 0; for (int k = 0; k < 16; ++k) p += {product}; d = p + d;")
    if out == "f32":
        lines.append("    OUT[v][l] = fb((float)d);")
    elif out == "i32":
        if clamp:
            lines.append("    d = d < INT32_MIN ? INT32_MIN : d > INT32_MAX ? INT32_MAX : d;")
        lines.append("    OUT[v][l] = (uint32_t)(d & 0xFFFFFFFF);")
    else:
        bits = "(uint32_t)fh((_Float16)d)" if out == "f16" else "double_to_bf16(d)"
        old = f"VR({dst.index} + v)[l]"
        merged = f"({old} & 0xFFFFu) | ({bits} << 16)" if hi else f"({old} & 0xFFFF0000u) | {bits}"
        lines.append(f"    OUT[v][l] = {merged};")
    lines += [
        "}",
        f"for (int v = 0; v < 8; ++v) for (int l = 0; l < 32; ++l) VR({dst.index} + v)[l] = OUT[v][l];",
        "}",
    ]
    return lines


SPARE = 1 << 20  # stands for the spare VGPR row, v[-1], in generated code: VR(SPARE)


def _dpp(ins) -> list[str]:
    """A DPP form as dpp.compile_dpp: src0's permuted lanes into the spare row v[-1] (inactive
    or out-of-row sources 0 unless fetch-inactive), then the plain instruction on it with EXEC
    narrowed to the lanes DPP lets write, EXEC restored after (as the interpreter)."""
    from cass.runner.emulator.decode import Operand
    from cass.runner.emulator.dpp import _DPP_KEYS, LANES, source_lanes

    if ins.mnemonic.endswith("_sdwa"):
        raise Untranslated("SDWA")
    src = source_lanes(ins.modifiers)
    if src is None or len(ins.operands) < 2 or ins.operands[1].kind != "v":
        raise Untranslated("DPP control")
    src0 = ins.operands[1]
    spare = Operand("v", SPARE, 1, neg=src0.neg, abs=src0.abs, text=f"dpp({src0.text})")
    kept = {k: v for k, v in ins.modifiers.items() if k not in _DPP_KEYS}
    name = ins.mnemonic.removesuffix("_dpp")
    operands = [ins.operands[0], spare, *ins.operands[2:]]
    plain = type(ins)(ins.pc, ins.size, ins.words, ins.text, name, operands, kept)
    if plain.mnemonic.startswith("v_dual_") or plain.op in ("v_readlane_b32", "v_writelane_b32"):
        raise Untranslated("DPP form")
    body = translate_vector(plain)
    row_mask = int(ins.modifiers.get("row_mask", "0xf"), 0)
    bank_mask = int(ins.modifiers.get("bank_mask", "0xf"), 0)
    enabled = 0
    for lane in LANES:
        if (row_mask >> (lane // 16)) & 1 and (bank_mask >> ((lane % 16) // 4)) & 1:
            enabled |= 1 << int(lane)
    bound_zero = "bound_ctrl" in ins.modifiers
    fetch_inactive = ins.modifiers.get("fi", "0") not in ("0",)
    listed = ", ".join(str(int(x)) for x in src)
    readable = "si >= 0" if fetch_inactive else "si >= 0 && ((s[126] >> si) & 1u)"
    writes = f"(s[126] & {enabled}u) & {'0xFFFFFFFFu' if bound_zero else 'ok'}"
    return [
        "{",
        f"static const int8_t SRC[32] = {{{listed}}};",
        "uint32_t ok = 0; uint32_t* const P = VR(SPARE);",
        "for (int l = 0; l < 32; ++l) {",
        "    const int si = SRC[l]; const bool r_ = " + readable + ";",
        f"    P[l] = r_ ? VR({src0.index})[si < 0 ? 0 : si] : 0u; ok |= (uint32_t)r_ << l;",
        "}",
        f"const uint32_t saved_exec = s[126]; s[126] = {writes};",
        *[line.replace(f"VR({SPARE})", "VR(SPARE)") for line in body],
        "s[126] = saved_exec; s[127] = 0;",
        "}",
    ]


def translate_vector(ins) -> list[str]:
    """C++ statements for a vector ALU instruction; raises Untranslated otherwise."""
    op = ins.op
    if ins.mnemonic.endswith(("_dpp", "_sdwa")) or "dpp8" in ins.modifiers:
        return _dpp(ins)
    if ins.mnemonic.startswith("v_dual_"):
        return _vopd(ins)
    if op in VALU:
        return _valu(ins)
    if op in PACKED:
        return _packed(ins)
    if op.startswith("v_wmma_"):
        return _wmma(ins)
    if op in ("v_fma_mix_f32", "v_fma_mixlo_f16", "v_fma_mixhi_f16"):
        return _fma_mix(ins)
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
    if op in ("v_div_scale_f32", "v_div_scale_f64"):
        return _div_scale(ins)
    if op in ("v_div_fmas_f32", "v_div_fmas_f64"):
        return _div_fmas(ins)
    if op == "v_nop":
        return []
    raise Untranslated(op)
