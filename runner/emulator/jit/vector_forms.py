"""Vector instruction forms beyond one table expression per lane: packed 16-bit math (VOP3P),
mixed-precision FMA (v_fma_mix*), WMMA and DPP, each as its interpreter handler computes it
(ops_vector._packed / _fma_mix, ops_wmma, dpp.compile_dpp)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cass.runner.emulator.jit.operands import Hoist, Untranslated, as_bits, lane_bits, typed
from cass.runner.emulator.jit.valu_table import PACKED
from cass.runner.emulator.jit.vector_common import lane_loop as _lane_loop
from cass.runner.emulator.jit.vector_common import modifier_flags as _opsel
from cass.runner.emulator.jit.vector_common import require_plain as _plain
from cass.runner.emulator.jit.vector_common import store_lanes as _store


def packed_const(op, typ: str):
    """As ops_vector._packed_const: inline constants apply to both halves."""
    from cass.runner.emulator.state import res

    if op.kind == "float" or (op.kind == "int" and -16 <= int(op.value) <= 64):
        half = int(res(op, "f16" if typ == "f16" else "b16").value) & 0xFFFF
        return type(op)("const", value=half | (half << 16), text=op.text)
    return res(op, "b32")


def packed(ins) -> list[str]:
    """VOP3P as ops_vector._packed: each half from op_sel (low) / op_sel_hi (high) halves of
    the sources, neg_lo / neg_hi negating f16 halves; clamp is not applied (as there)."""
    typ = "f16" if ins.op.endswith("f16") else "u16"
    dst, srcs = ins.operands[0], [packed_const(o, typ) for o in ins.operands[1:]]
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


def fma_mix(ins) -> list[str]:
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


def wmma(ins) -> list[str]:
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


def dpp(ins, translate_vector: Callable[[Any], list[str]]) -> list[str]:
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
