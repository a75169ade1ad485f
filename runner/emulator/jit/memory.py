"""Memory instructions as C++: scalar loads (s_load), global loads and stores (every lane's
access checked against the allocation table before any register or memory is written, the
first bad lane reported as the interpreter reports it), scratch loads and stores (checked
against the private segment size) and LDS loads and stores (an access beyond the workgroup's
allocation reads 0 and drops writes, as on gfx11)."""

from __future__ import annotations

from cass.runner.emulator.jit.operands import Untranslated, sreg64, swrite
from cass.runner.emulator.ops_crosslane import swizzle_sources
from cass.runner.emulator.ops_memory import _SIZES, _ds_kind, _split

_EXTEND = {"u8": "uint8_t", "i8": "int8_t", "u16": "uint16_t", "i16": "int16_t"}
_WHOLE = ("b32", "b64", "b96", "b128")


def _fault(code: str, pc: int, lane: str, address: str, nbytes: int) -> str:
    return f"{{ fault(f, {code}, {lane}, {address}, {nbytes}); f.pc = {pc}; goto faulted; }}"


def _smem(ins) -> list[str]:
    if not ins.op.startswith("s_load_b"):
        raise Untranslated(ins.op)
    dst, base = ins.operands[0], ins.operands[1]
    imm = int(ins.modifiers.get("offset", "0") or "0", 0)
    soff = None
    for o in ins.operands[2:]:
        if o.kind == "s" and o.index != 124:
            soff = o
        elif o.kind == "int":
            imm += int(o.value)
    nbytes = _SIZES["b" + ins.op.rsplit("_b", 1)[1]]
    addr = f"(({sreg64(base.index)} & 0xFFFFFFFFFFFFull) + {imm % (1 << 64)}ull"
    addr += f" + (uint64_t)s[{soff.index}])" if soff is not None else ")"
    out = ["{", f"const uint64_t a = {addr} & ~3ull;"]
    out.append(
        f"if (!inside(c, a, {min(nbytes, 4)}, hint)) "
        + _fault("FAULT_SCALAR", ins.pc, "0", "a", min(nbytes, 4))
    )
    out.append(f"uint32_t t[{nbytes // 4}]; std::memcpy(t, (const void*)a, {nbytes});")
    out += [swrite(dst.index + d, f"t[{d}]") for d in range(nbytes // 4)]
    return [*out, "}"]


def _lane_address(addr_ops, offset: int) -> tuple[list[str], str]:
    vaddr, saddr = addr_ops[0], addr_ops[1] if len(addr_ops) > 1 else None
    if vaddr.kind != "v":
        raise Untranslated("address operand")
    off = f"{offset % (1 << 64)}ull"
    if saddr is not None and saddr.kind == "s" and saddr.index != 124:
        return [f"const uint64_t sb = {sreg64(saddr.index)};"], f"sb + VR({vaddr.index})[l] + {off}"
    return [], f"u64of(VR({vaddr.index})[l], VR({vaddr.index + 1})[l]) + {off}"


def _check(pc: int, code: str, nbytes: int) -> list[str]:
    return [
        "for (int l = 0; l < 32; ++l)",
        f"    if (((s[126] >> l) & 1u) && !inside(c, A[l], {nbytes}, hint)) "
        + _fault(code, pc, "l", "A[l]", nbytes),
    ]


ATOMICS = {"add_u32": 0, "sub_u32": 1, "and_b32": 2, "or_b32": 3, "xor_b32": 4, "swap_b32": 5}
ATOMICS |= {
    "min_i32": 6,
    "max_i32": 7,
    "min_u32": 8,
    "max_u32": 9,
    "cmpswap_b32": 10,
    "add_f32": 11,
}


def _atomic(ins, suffix: str, offset: int) -> list[str]:
    """A 32-bit global atomic: alignment, then bounds, checked for every active lane first (as
    the interpreter), then lane by lane in lane order; the old values if `glc`."""
    if suffix not in ATOMICS:
        raise Untranslated(ins.op)
    ops = list(ins.operands)
    returns = "glc" in ins.modifiers
    dst, addr_ops, data = (
        (ops[0], [ops[1], *ops[3:]], ops[2]) if returns else (None, [ops[0], *ops[2:]], ops[1])
    )
    setup, address = _lane_address(addr_ops, offset)
    out = ["if (s[126]) {", *setup, "uint64_t A[32];", f"LANES {{ A[l] = {address}; }}"]
    out += [
        "for (int l = 0; l < 32; ++l)",
        "    if (((s[126] >> l) & 1u) && (A[l] & 3u)) "
        + _fault("FAULT_MISALIGNED", ins.pc, "l", "A[l]", 4),
    ]
    out += _check(ins.pc, "FAULT_ATOMIC", 4)
    cmp = f"VR({data.index + 1})[l]" if suffix == "cmpswap_b32" else "0u"
    out += ["uint32_t T[32];", "for (int l = 0; l < 32; ++l)"]
    out.append(
        f"    if ((s[126] >> l) & 1u) T[l] = atomic_u32(A[l], {ATOMICS[suffix]}, VR({data.index})[l], {cmp});"
    )
    if dst is not None:
        out.append(f"LANES {{ VR({dst.index})[l] = sel(s[126], l, T[l], VR({dst.index})[l]); }}")
    return [*out, "}"]


def _scratch(ins) -> list[str]:
    """Private memory: lane l of wave w at (w * 32 + l) * stride + offset of the launch's
    scratch array (grown to the whole private segment before the run when that is affordable,
    `JitEngine._context`); an offset beyond the private segment is the interpreter's scratch
    fault; one beyond the array as grown so far stops the wave here, uncounted: the interpreter
    runs the instruction (growing the array as it does) and the code after it."""
    kind, suffix = _split(ins.op)
    ops = list(ins.operands)
    if kind == "load" and (suffix in _WHOLE or suffix in _EXTEND):
        dst, addr_ops = ops[0], ops[1:]
    elif kind == "store" and (suffix in _WHOLE or suffix in ("b8", "b16")):
        dst, addr_ops, data = None, [ops[0], *ops[2:]], ops[1]
    else:
        raise Untranslated(ins.op)
    offset = int(ins.modifiers.get("offset", "0") or "0", 0) & 0xFFFFFFFF
    vaddr, saddr = addr_ops[0], addr_ops[1] if len(addr_ops) > 1 else None
    terms = [f"{offset}u"]
    if vaddr.kind == "v":
        terms.append(f"VR({vaddr.index})[l]")
    elif vaddr.kind != "off":
        raise Untranslated("scratch address")
    if saddr is not None and saddr.kind == "s":
        terms.append(f"s[{saddr.index}]")
    elif saddr is not None and saddr.kind != "off":
        raise Untranslated("scratch address")
    nbytes = _SIZES[suffix]
    code = "FAULT_SCRATCH_LOAD" if dst is not None else "FAULT_SCRATCH_STORE"
    out = [
        "if (s[126]) {",
        f"uint32_t O[32]; LANES {{ O[l] = {' + '.join(terms)}; }}",
        f"const int sc = scratch_check(c, s[126], O, {nbytes}, f, {code});",
        f"if (sc == 1) {{ f.pc = {ins.pc}; goto faulted; }}",
        f"if (sc == 2) {{ UNCOUNT(); pc = {ins.pc}; goto out; }}",
    ]
    nd = max(nbytes // 4, 1)
    if dst is not None:
        ext = {"u8": 1, "i8": 2, "u16": 3, "i16": 4}.get(suffix, 0)
        out.append(f"uint32_t T[{nd}][32]; scratch_load(c, w, s[126], O, {nbytes}, {ext}, T);")
        for d in range(nd):
            reg = dst.index + d
            out.append(f"LANES {{ VR({reg})[l] = sel(s[126], l, T[{d}][l], VR({reg})[l]); }}")
    else:
        rows = ", ".join(f"VR({data.index + d})" for d in range(nd))
        out.append(f"const uint32_t* const R[{nd}] = {{{rows}}};")
        out.append(f"scratch_store(c, w, s[126], O, {nbytes}, R);")
    return [*out, "}"]


def _global(ins) -> list[str]:
    if ins.op.startswith("scratch_"):
        return _scratch(ins)
    if not ins.op.startswith("global_"):
        raise Untranslated(ins.op)  # flat resolves apertures: the interpreter
    kind, suffix = _split(ins.op)
    offset = int(ins.modifiers.get("offset", "0") or "0", 0)
    ops = list(ins.operands)
    if kind == "atomic":
        return _atomic(ins, suffix, offset)
    if kind == "load" and (suffix in _WHOLE or suffix in _EXTEND):
        dst, addr_ops = ops[0], ops[1:]
    elif kind == "store" and (suffix in _WHOLE or suffix in ("b8", "b16")):
        dst, addr_ops, data = None, [ops[0], *ops[2:]], ops[1]
    else:
        raise Untranslated(ins.op)
    nbytes = _SIZES[suffix]
    setup, address = _lane_address(addr_ops, offset)
    out = ["if (s[126]) {", *setup, "uint64_t A[32];", f"LANES {{ A[l] = {address}; }}"]
    if dst is not None:
        out += _check(ins.pc, "FAULT_LOAD", nbytes)
        return out + _load_lanes(dst, nbytes, suffix, "(const void*)A[l]") + ["}"]
    out += _check(ins.pc, "FAULT_STORE", nbytes)
    out += _store_lanes(data, nbytes, "(void*)A[l]")
    return [*out, "}"]


def _load_lanes(dst, nbytes: int, suffix: str, source: str, guard: str = "") -> list[str]:
    """Active lanes read `nbytes` from `source` (0 when `guard` is false), then the writes."""
    nd = max(nbytes // 4, 1)
    read = f"std::memcpy(&T[0][l], {source}, 4)" if nd == 1 else ""
    out = [f"uint32_t T[{nd}][32];", "for (int l = 0; l < 32; ++l) {"]
    out.append("    if (!((s[126] >> l) & 1u)) continue;")
    if guard:
        out.append(
            f"    if (!({guard})) {{ {' '.join(f'T[{d}][l] = 0;' for d in range(nd))} continue; }}"
        )
    if suffix in _EXTEND:
        ct = _EXTEND[suffix]
        out.append(
            f"    {ct} v_; std::memcpy(&v_, {source}, {nbytes}); T[0][l] = (uint32_t)(int32_t)v_;"
        )
        if ct.startswith("u"):
            out[-1] = f"    {ct} v_; std::memcpy(&v_, {source}, {nbytes}); T[0][l] = v_;"
    elif nd == 1:
        out.append(f"    {read};")
    else:
        out.append(f"    uint32_t t_[{nd}]; std::memcpy(t_, {source}, {nbytes});")
        out.append("    " + " ".join(f"T[{d}][l] = t_[{d}];" for d in range(nd)))
    out.append("}")
    for d in range(nd):
        reg = dst.index + d
        out.append(f"LANES {{ VR({reg})[l] = sel(s[126], l, T[{d}][l], VR({reg})[l]); }}")
    return out


def _store_lanes(data, nbytes: int, target: str, guard: str = "") -> list[str]:
    nd = max(nbytes // 4, 1)
    out = ["for (int l = 0; l < 32; ++l) {", "    if (!((s[126] >> l) & 1u)) continue;"]
    if guard:
        out.append(f"    if (!({guard})) continue;")
    out.append(
        f"    uint32_t t_[{nd}] = {{{', '.join(f'VR({data.index + d})[l]' for d in range(nd))}}};"
    )
    out += [f"    std::memcpy({target}, t_, {nbytes});", "}"]
    return out


def _crosslane(ins) -> list[str]:
    """ds_bpermute_b32, ds_permute_b32 and ds_swizzle_b32 as ops_memory / ops_crosslane: no LDS
    storage; an inactive source lane reads 0; EXEC-masked writes."""
    op, ops = ins.op, list(ins.operands)
    dst = ops[0]
    out = ["{", "uint32_t T[32];"]
    if op == "ds_swizzle_b32":
        try:
            sources = swizzle_sources(ins.words[0] & 0xFFFF)
        except ValueError:
            raise Untranslated(op) from None
        data = ops[1]
        listed = ", ".join(str(int(x)) for x in sources)
        out += [
            f"static const uint8_t SRC[32] = {{{listed}}};",
            f"LANES {{ T[l] = ((s[126] >> SRC[l]) & 1u) ? VR({data.index})[SRC[l]] : 0u; }}",
        ]
    else:
        off = int(ins.modifiers.get("offset", "0") or "0", 0) & 0xFFFFFFFF
        addr, data = ops[1], ops[2]
        lane = f"(((VR({addr.index})[l] + {off}u) >> 2) & 31u)"
        if op == "ds_bpermute_b32":
            out.append(
                f"LANES {{ const uint32_t i = {lane}; "
                f"T[l] = ((s[126] >> i) & 1u) ? VR({data.index})[i] : 0u; }}"
            )
        else:  # forward permute: the highest sending lane wins, untargeted lanes read 0
            out += [
                "int8_t from[32]; for (int l = 0; l < 32; ++l) from[l] = -1;",
                f"for (int l = 0; l < 32; ++l) if ((s[126] >> l) & 1u) from[{lane}] = (int8_t)l;",
                f"LANES {{ T[l] = from[l] >= 0 ? VR({data.index})[from[l]] : 0u; }}",
            ]
    out.append(f"LANES {{ VR({dst.index})[l] = sel(s[126], l, T[l], VR({dst.index})[l]); }}")
    return [*out, "}"]


def _race_check(pc: int, nbytes: int, write: bool, guard: str) -> str:
    """The race shadow's check of each active lane's access inside the LDS (runner/emulator/
    races.py; nothing happens without CASS_EMULATOR_RACE_CHECK)."""
    return (f"if (c->race_shadow) for (int l = 0; l < 32; ++l) if (((s[126] >> l) & 1u) && "
            f"{guard}) race_check(c, w, {pc}, O[l], {nbytes}, {'true' if write else 'false'});")  # fmt: skip


def _ds(ins) -> list[str]:
    if ins.op in ("ds_bpermute_b32", "ds_permute_b32", "ds_swizzle_b32"):
        return _crosslane(ins)
    kind, suffix = _ds_kind(ins.op)
    if kind not in ("load", "store"):
        raise Untranslated(ins.op)
    ops = list(ins.operands)
    if suffix.startswith("2addr"):
        return _ds_2addr(ins, kind, suffix)
    off = int(ins.modifiers.get("offset", "0") or "0", 0)
    allowed = _WHOLE + (tuple(_EXTEND) if kind == "load" else ("b8", "b16"))
    if suffix not in allowed:
        raise Untranslated(ins.op)
    nbytes = _SIZES[suffix]
    addr = ops[0] if kind == "store" else ops[1]
    out = ["if (s[126]) {", "uint8_t* const lds = c->lds + c->wave_wg[w] * c->lds_stride;"]
    out.append(f"uint32_t O[32]; LANES {{ O[l] = VR({addr.index})[l] + {off & 0xFFFFFFFF}u; }}")
    guard = f"c->lds_bytes >= {nbytes} && O[l] <= (uint64_t)(c->lds_bytes - {nbytes})"
    out.append(_race_check(ins.pc, nbytes, kind == "store", guard))
    if kind == "load":
        out += _load_lanes(ops[0], nbytes, suffix, "lds + O[l]", guard)
    else:
        out += _store_lanes(ops[1], nbytes, "lds + O[l]", guard)
    return [*out, "}"]


def _ds_2addr(ins, kind: str, suffix: str) -> list[str]:
    if suffix not in ("2addr_b32", "2addr_b64", "2addr_stride64_b32", "2addr_stride64_b64"):
        raise Untranslated(ins.op)
    elem = 8 if suffix.endswith("b64") else 4
    scale = elem * (64 if "stride64" in suffix else 1)
    offsets = [int(ins.modifiers.get(k, "0") or "0", 0) * scale for k in ("offset0", "offset1")]
    ops = list(ins.operands)
    addr = ops[1] if kind == "load" else ops[0]
    guard = f"c->lds_bytes >= {elem} && O[l] <= (uint64_t)(c->lds_bytes - {elem})"
    out = ["if (s[126]) {", "uint8_t* const lds = c->lds + c->wave_wg[w] * c->lds_stride;"]
    out.append(f"const uint32_t* const base = VR({addr.index});")
    if kind == "load":  # both halves read before any destination is written
        dst = ops[0]
        nd = elem // 4
        for i, o in enumerate(offsets):
            out += [
                f"uint32_t T{i}[{nd}][32];",
                "{",
                f"uint32_t O[32]; LANES {{ O[l] = base[l] + {o}u; }}",
                _race_check(ins.pc, elem, False, guard),
            ]
            body = _load_lanes(
                type(dst)("v", dst.index + i * nd),
                elem,
                "b32" if nd == 1 else "b64",
                "lds + O[l]",
                guard,
            )
            body = [line for line in body if not line.startswith("LANES")]
            out += [
                line.replace("T[", f"T{i}[").replace(f"uint32_t T{i}[{nd}][32];", "")
                for line in body
            ]
            out.append("}")
        for i in range(2):
            for d in range(nd):
                reg = dst.index + i * nd + d
                out.append(
                    f"LANES {{ VR({reg})[l] = sel(s[126], l, T{i}[{d}][l], VR({reg})[l]); }}"
                )
        return [*out, "}"]
    for o, data in zip(offsets, ops[1:3]):
        out += ["{", f"uint32_t O[32]; LANES {{ O[l] = base[l] + {o}u; }}"]
        out.append(_race_check(ins.pc, elem, True, guard))
        out += _store_lanes(data, elem, "lds + O[l]", guard)
        out.append("}")
    return [*out, "}"]


def translate_memory(ins) -> list[str]:
    """C++ statements for a memory instruction; raises Untranslated otherwise."""
    op = ins.op
    if op.startswith("s_load") or op.startswith("s_buffer_load"):
        return _smem(ins)
    if op.startswith(("global_", "flat_", "scratch_")):
        return _global(ins)
    if op.startswith("ds_"):
        return _ds(ins)
    raise Untranslated(op)
