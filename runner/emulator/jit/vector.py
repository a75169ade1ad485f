"""Vector ALU instructions as C++ lane loops: the VALU subset as a table of expressions (each
the interpreter's `ops_vector_table` entry written in C++, same types and promotions), compares
(VOPC, v_cmpx), carries, v_cndmask, lane reads and writes, mbcnt and VOPD pairs. A lane loop
runs over the wave's 32 lanes (VGPR rows are contiguous) and keeps inactive lanes."""

from __future__ import annotations

from cass.runner.emulator.jit import vector_forms as forms
from cass.runner.emulator.jit.operands import (
    SIXTEEN,
    Hoist,
    Untranslated,
    lane_bits,
    scalar,
    swrite,
    typed,
)
from cass.runner.emulator.jit.valu_table import CMP_TYPES, PACKED, RELATIONS, VALU
from cass.runner.emulator.jit.vector_common import lane_loop as _lane_loop
from cass.runner.emulator.jit.vector_common import require_plain as _plain
from cass.runner.emulator.jit.vector_common import store_lanes as _store
from cass.runner.emulator.ops_vector import op_sel_halves
from cass.runner.emulator.state import EXEC, width_of

_CARRIES = {
    "v_add_co_u32",
    "v_sub_co_u32",
    "v_subrev_co_u32",
    "v_add_co_ci_u32",
    "v_sub_co_ci_u32",
    "v_subrev_co_ci_u32",
}


def valu_expr(ins, hoist: Hoist) -> tuple[str, str, object]:
    """(result type, per-lane C++ result expression, destination operand) of a table op; for
    16-bit operations, op_sel picks the halves read and (its last flag) written."""
    spec = VALU.get(ins.op)
    if spec is None:
        raise Untranslated(ins.op)
    dtyp, styps, template = spec
    if any(t in SIXTEEN for t in (dtyp, *styps)):
        _plain(ins, op_sel=False)
    else:
        _plain(ins)
    ops = list(ins.operands)
    dst = ops[0]
    if ins.op in ("v_mad_u64_u32", "v_mad_i64_i32"):
        ops.pop(1)  # carry-out SGPR: not written, as in the interpreter
    srcs = ops[1:]
    hi, dst_hi = op_sel_halves(ins, len(srcs))
    if "fmac" in ins.op:
        srcs = srcs[:2] + [dst]
        hi[2] = dst_hi
    if len(srcs) < len(styps) or dst.kind != "v":
        raise Untranslated("operands")
    args = [typed(lane_bits(o, t, hoist, hi[i]), t) for i, (o, t) in enumerate(zip(srcs, styps))]
    if dst_hi and dtyp not in SIXTEEN:
        raise Untranslated("op_sel on a 32-bit result")
    return dtyp + ("_hi" if dst_hi else ""), template.format(*args), dst


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


def translate_vector(ins) -> list[str]:
    """C++ statements for a vector ALU instruction; raises Untranslated otherwise."""
    op = ins.op
    if ins.mnemonic.endswith(("_dpp", "_sdwa")) or "dpp8" in ins.modifiers:
        return forms.dpp(ins, translate_vector)
    if ins.mnemonic.startswith("v_dual_"):
        return _vopd(ins)
    if op in VALU:
        return _valu(ins)
    if op in PACKED:
        return forms.packed(ins)
    if op.startswith("v_wmma_"):
        return forms.wmma(ins)
    if op in ("v_fma_mix_f32", "v_fma_mixlo_f16", "v_fma_mixhi_f16"):
        return forms.fma_mix(ins)
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
