"""Scalar ALU instructions (SOP1, SOP2, SOPK, SOPC, saveexec) as C++ statements on the wave's
SGPR copy `s[]` and `scc`, each the interpreter's `ops_scalar` entry written in C++."""

from __future__ import annotations

from cass.runner.emulator.jit.operands import Untranslated, scalar, swrite
from cass.runner.emulator.state import EXEC

_NZ = "(r != 0)"
# name: (operand type, result expression of a and b, SCC expression or None when unchanged)
SOP2: dict[str, tuple[str, str, str | None]] = {
    "s_add_u32": ("b32", "(uint32_t)(a + b)", "(uint32_t)(((uint64_t)a + b) >> 32)"),
    "s_sub_u32": ("b32", "a - b", "b > a"),
    "s_add_i32": ("b32", "a + b", "((~(a ^ b)) & (a ^ r)) >> 31"),
    "s_sub_i32": ("b32", "a - b", "((a ^ b) & (a ^ r)) >> 31"),
    "s_mul_i32": ("b32", "a * b", None),
    "s_mul_hi_u32": ("b32", "(uint32_t)(((uint64_t)a * b) >> 32)", None),
    "s_mul_hi_i32": ("b32", "(uint32_t)(((int64_t)(int32_t)a * (int32_t)b) >> 32)", None),
    "s_and_b32": ("b32", "a & b", _NZ),
    "s_or_b32": ("b32", "a | b", _NZ),
    "s_xor_b32": ("b32", "a ^ b", _NZ),
    "s_and_not1_b32": ("b32", "a & ~b", _NZ),
    "s_or_not1_b32": ("b32", "a | ~b", _NZ),
    "s_nand_b32": ("b32", "~(a & b)", _NZ),
    "s_nor_b32": ("b32", "~(a | b)", _NZ),
    "s_xnor_b32": ("b32", "~(a ^ b)", _NZ),
    "s_and_b64": ("b64", "a & b", _NZ),
    "s_or_b64": ("b64", "a | b", _NZ),
    "s_xor_b64": ("b64", "a ^ b", _NZ),
    "s_and_not1_b64": ("b64", "a & ~b", _NZ),
    "s_or_not1_b64": ("b64", "a | ~b", _NZ),
    "s_lshl_b32": ("b32", "a << (b & 31u)", _NZ),
    "s_lshr_b32": ("b32", "a >> (b & 31u)", _NZ),
    "s_ashr_i32": ("b32", "(uint32_t)((int32_t)a >> (b & 31u))", _NZ),
    "s_lshl_b64": ("b64", "a << (b & 63u)", _NZ),
    "s_lshr_b64": ("b64", "a >> (b & 63u)", _NZ),
    "s_ashr_i64": ("b64", "(uint64_t)((int64_t)a >> (b & 63u))", _NZ),
    "s_bfe_u32": ("b32", "(uint32_t)sbfe(a, b, false, 32)", _NZ),
    "s_bfe_i32": ("b32", "(uint32_t)sbfe(a, b, true, 32)", _NZ),
    "s_bfe_u64": ("b64", "sbfe(a, b, false, 64)", _NZ),
    "s_bfe_i64": ("b64", "sbfe(a, b, true, 64)", _NZ),
    "s_bfm_b32": ("b32", "((1u << (a & 31u)) - 1u) << (b & 31u)", None),
    "s_min_i32": ("b32", "(int32_t)a < (int32_t)b ? a : b", "(int32_t)a < (int32_t)b"),
    "s_max_i32": ("b32", "(int32_t)a > (int32_t)b ? a : b", "(int32_t)a > (int32_t)b"),
    "s_min_u32": ("b32", "a < b ? a : b", "a < b"),
    "s_max_u32": ("b32", "a > b ? a : b", "a > b"),
    "s_pack_ll_b32_b16": ("b32", "(a & 0xFFFFu) | (b << 16)", None),
    "s_pack_lh_b32_b16": ("b32", "(a & 0xFFFFu) | (b & 0xFFFF0000u)", None),
    "s_pack_hh_b32_b16": ("b32", "(a >> 16) | (b & 0xFFFF0000u)", None),
}
for _n in (1, 2, 3, 4):
    SOP2[f"s_lshl{_n}_add_u32"] = (
        "b32",
        f"(a << {_n}) + b",
        f"(uint32_t)(((uint64_t)(uint32_t)(a << {_n}) + b) >> 32)",
    )

# name: (type, result of a, SCC or None, result written as 64 bits)
SOP1: dict[str, tuple[str, str, str | None, bool]] = {
    "s_mov_b32": ("b32", "a", None, False),
    "s_mov_b64": ("b64", "a", None, True),
    "s_not_b32": ("b32", "~a", _NZ, False),
    "s_not_b64": ("b64", "~a", _NZ, True),
    "s_bcnt1_i32_b32": ("b32", "(uint32_t)__builtin_popcount(a)", _NZ, False),
    "s_bcnt1_i32_b64": ("b64", "(uint32_t)__builtin_popcountll(a)", _NZ, False),
    "s_ctz_i32_b32": ("b32", "ctz_or_ones(a)", None, False),
    "s_ctz_i32_b64": ("b64", "ctz_or_ones(a)", None, False),
    "s_clz_i32_u32": ("b32", "clz_or_ones(a)", None, False),
    "s_cls_i32": ("b32", "cls_or_ones(a)", None, False),
    "s_sext_i32_i8": ("b32", "(uint32_t)(int32_t)(int8_t)a", None, False),
    "s_sext_i32_i16": ("b32", "(uint32_t)(int32_t)(int16_t)a", None, False),
    "s_abs_i32": ("b32", "(int32_t)a < 0 ? 0u - a : a", _NZ, False),
}
SAVEEXEC = {
    "and": "a & e",
    "or": "a | e",
    "xor": "a ^ e",
    "and_not1": "a & ~e",
    "and_not0": "~a & e",
    "or_not1": "a | ~e",
    "or_not0": "~a | e",
    "nand": "~(a & e)",
    "nor": "~(a | e)",
    "xnor": "~(a ^ e)",
}
SOPC = {"eq": "==", "lg": "!=", "gt": ">", "ge": ">=", "lt": "<", "le": "<="}
_CTYPE = {"b32": "uint32_t", "b64": "uint64_t"}


def _sop2(ins) -> list[str]:
    typ, result, scc = SOP2[ins.op]
    d, a, b = ins.operands[:3]
    ct = _CTYPE[typ]
    out = ["{", f"const {ct} a = {scalar(a, typ)}; const {ct} b = {scalar(b, typ)};"]
    out.append(f"const {ct} r = ({ct})({result});")
    out.append(swrite(d.index, "r", typ == "b64"))
    if scc is not None:
        out.append(f"scc = (uint32_t)({scc});")
    return [*out, "}"]


def _sop1(ins) -> list[str]:
    typ, result, scc, wide = SOP1[ins.op]
    d, a = ins.operands[:2]
    ct = _CTYPE[typ]
    rt = "uint64_t" if wide else "uint32_t"
    out = ["{", f"const {ct} a = {scalar(a, typ)};", f"const {rt} r = ({rt})({result});"]
    out.append(swrite(d.index, "r", wide))
    if scc is not None:
        out.append(f"scc = (uint32_t)({scc});")
    return [*out, "}"]


def _saveexec(ins) -> list[str]:
    kind = ins.op[2:].rsplit("_", 2)[0]
    if kind not in SAVEEXEC:
        raise Untranslated(ins.op)
    d, a = ins.operands[:2]
    new = "n" if "_wrexec_" in ins.op else "e"
    out = ["{", f"const uint32_t a = {scalar(a)}; const uint32_t e = s[126];"]
    out.append(f"const uint32_t n = {SAVEEXEC[kind]};")
    out += [swrite(EXEC, "n"), swrite(d.index, new), "scc = n != 0;", "}"]
    return out


def _compare(ins) -> list[str]:
    parts = ins.op.split("_")
    rel, typ = parts[2], parts[3]
    if rel not in SOPC or typ not in ("i32", "u32", "u64", "i64"):
        raise Untranslated(ins.op)
    wide = typ.endswith("64")
    rtyp = "b64" if wide else "b32"
    a, b = ins.operands[:2]
    left, right = scalar(a, rtyp), scalar(b, rtyp)
    if parts[1] == "cmpk":
        imm = int(b.value) & 0xFFFF
        if typ == "i32" and imm >= 0x8000:
            imm -= 0x10000
        right = f"{imm & 0xFFFFFFFF}u"
    cast = {"i32": "(int32_t)", "i64": "(int64_t)"}.get(typ, "")
    return [f"scc = {cast}({left}) {SOPC[rel]} {cast}({right});"]


def _cselect(ins, cmov: bool) -> list[str]:
    wide = ins.op.endswith("64")
    typ = "b64" if wide else "b32"
    d, a = ins.operands[:2]
    other = scalar(d, typ) if cmov else scalar(ins.operands[2], typ)
    value = f"(scc != 0 ? {scalar(a, typ)} : {other})"
    return [swrite(d.index, value, wide)]


def _sopk(ins) -> list[str]:
    d, imm_op = ins.operands[:2]
    imm = int(imm_op.value) & 0xFFFF
    k = ((imm - 0x10000) if imm >= 0x8000 else imm) & 0xFFFFFFFF
    cur = scalar(d)
    if ins.op == "s_movk_i32":
        return [swrite(d.index, f"{k}u")]
    if ins.op == "s_cmovk_i32":
        return [swrite(d.index, f"(scc != 0 ? {k}u : {cur})")]
    if ins.op == "s_mulk_i32":
        return [swrite(d.index, f"{cur} * {k}u")]
    return [
        "{",
        f"const uint32_t a = {cur}, b = {k}u, r = a + b;",
        swrite(d.index, "r"),
        "scc = ((~(a ^ b)) & (a ^ r)) >> 31;",
        "}",
    ]


def _bits(ins) -> list[str]:
    wide = ins.op.endswith("64")
    typ = "b64" if wide else "b32"
    ct, one, top = ("uint64_t", "1ull", "63u") if wide else ("uint32_t", "1u", "31u")
    target, bit = ins.operands[:2]
    shift = f"({ct})({scalar(bit)} & {top})"
    if ins.op.startswith("s_bitcmp"):
        want = 1 if "bitcmp1" in ins.op else 0
        return [f"scc = ((({ct}){scalar(target, typ)} >> {shift}) & 1) == {want};"]
    cur = scalar(target, typ)
    value = (
        f"({cur} | ({one} << {shift}))" if "bitset1" in ins.op else f"({cur} & ~({one} << {shift}))"
    )
    return [swrite(target.index, value, wide)]


def translate_scalar(ins) -> list[str]:
    """C++ statements for a scalar ALU instruction; raises Untranslated otherwise."""
    op = ins.op
    if op in SOP2:
        return _sop2(ins)
    if op in SOP1:
        return _sop1(ins)
    if op in ("s_addc_u32", "s_subb_u32"):
        d, a, b = ins.operands[:3]
        x, y = scalar(a), scalar(b)
        if op == "s_subb_u32":
            r, carry = f"{x} - {y} - scc", f"(uint64_t){y} + scc > {x}"
        else:
            r, carry = f"{x} + {y} + scc", f"((uint64_t){x} + {y} + scc) >> 32"
        return ["{", f"const uint32_t r = {r}; const uint32_t c_ = {carry};"] + [
            swrite(d.index, "r"),
            "scc = c_;",
            "}",
        ]
    if op in ("s_cselect_b32", "s_cselect_b64"):
        return _cselect(ins, cmov=False)
    if op in ("s_cmov_b32", "s_cmov_b64"):
        return _cselect(ins, cmov=True)
    if op.endswith(("_saveexec_b32", "_wrexec_b32")):
        return _saveexec(ins)
    if op.startswith(("s_cmp_", "s_cmpk_")):
        return _compare(ins)
    if op in ("s_movk_i32", "s_cmovk_i32", "s_addk_i32", "s_mulk_i32"):
        return _sopk(ins)
    if op.startswith(("s_bitcmp", "s_bitset")):
        return _bits(ins)
    raise Untranslated(op)
