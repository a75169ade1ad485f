"""Kernel parameter layout: where each CUDA parameter lives in constant bank 0.

Exact layouts come from a cubin's `.nv.info` (EIATTR_KPARAM_INFO). From text alone, the layout
is rebuilt from the demangled signature (C type sizes and natural alignment) and, for types the
signature cannot size (structs, extern "C" kernels), from the offsets the code reads; every such
guess is reported as a warning.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cass.models.lift.ir import CBank, Function
from cass.runner.diagnostics import CassError
from cass.runner.tools import run_tool

PARAM_BASE = {"sm_90": 0x210, "sm_90a": 0x210, "sm_100": 0x380}
DEFAULT_PARAM_BASE = 0x160  # sm_70 .. sm_89

# C type -> (size, alignment). Pointers are handled by the trailing `*`.
TYPE_SIZES: dict[str, tuple[int, int]] = {
    "bool": (1, 1), "char": (1, 1), "signed char": (1, 1), "unsigned char": (1, 1),
    "short": (2, 2), "unsigned short": (2, 2), "__half": (2, 2), "half": (2, 2), "__nv_bfloat16": (2, 2),
    "int": (4, 4), "unsigned int": (4, 4), "float": (4, 4), "__half2": (4, 4), "__nv_bfloat162": (4, 4),
    "long": (8, 8), "unsigned long": (8, 8), "long long": (8, 8), "unsigned long long": (8, 8),
    "double": (8, 8), "char4": (4, 4), "uchar4": (4, 4), "short2": (4, 4), "ushort2": (4, 4),
    "float2": (8, 8), "int2": (8, 8), "uint2": (8, 8), "long1": (8, 8), "ulonglong1": (8, 8),
    "float3": (12, 4), "int3": (12, 4), "uint3": (12, 4), "dim3": (12, 4),
    "float4": (16, 16), "int4": (16, 16), "uint4": (16, 16), "double2": (16, 16),
    "longlong2": (16, 16), "ulonglong2": (16, 16), "short4": (8, 8), "ushort4": (8, 8),
    "uchar2": (2, 2), "char2": (2, 2), "double4": (32, 16), "std::size_t": (8, 8), "size_t": (8, 8),
    "unsigned": (4, 4), "int64_t": (8, 8), "uint64_t": (8, 8), "int32_t": (4, 4), "uint32_t": (4, 4),
    "uint8_t": (1, 1), "int8_t": (1, 1), "uint16_t": (2, 2), "int16_t": (2, 2), "cudaTextureObject_t": (8, 8),
    "char16_t": (2, 2), "char32_t": (4, 4), "wchar_t": (4, 4), "float const": (4, 4),
}  # fmt: skip


@dataclass(frozen=True)
class Param:
    offset: int  # relative to the parameter base
    size: int
    align: int
    ctype: str = ""


@dataclass(frozen=True)
class ParamLayout:
    base: int
    params: tuple[Param, ...]
    guesses: tuple[str, ...] = ()  # human-readable notes on what had to be guessed

    @property
    def size(self) -> int:
        return max((p.offset + p.size for p in self.params), default=0)


def param_base(arch: str | None) -> int:
    return PARAM_BASE.get(arch or "", DEFAULT_PARAM_BASE)


_DEMANGLED: dict[str, str] = {}  # mangled -> demangled, as llvm-cxxfilt-16 printed it


def demangle(name: str) -> str:
    if not name.startswith("_Z"):
        return name
    if name not in _DEMANGLED:
        demangle_all([name])
    return _DEMANGLED.get(name, name)


def demangle_all(names: list[str]) -> None:
    """Demangle `names` with one llvm-cxxfilt-16 (a process start costs more than the work:
    0.1 s of wall time on a loaded machine) and remember them for demangle()."""
    todo = [n for n in dict.fromkeys(names) if n.startswith("_Z") and n not in _DEMANGLED]
    if not todo:
        return
    try:
        run = run_tool(["llvm-cxxfilt-16"], "demangling kernel names", 10, stdin="\n".join(todo))
    except CassError:  # not installed, or stuck: the mangled name still identifies the kernel
        return
    out = run.stdout.splitlines()
    if len(out) == len(todo):
        _DEMANGLED.update((n, o.strip() or n) for n, o in zip(todo, out, strict=True))


def signature_types(demangled: str) -> list[str] | None:
    """The parameter types of a demangled function signature, or None without one."""
    if not demangled.endswith(")"):
        return None
    depth, start = 0, None
    for i in range(len(demangled) - 1, -1, -1):
        ch = demangled[i]
        depth += ch == ")"
        depth -= ch == "("
        if depth == 0:
            start = i
            break
    if start is None:
        return None
    inner = demangled[start + 1 : -1].strip()
    if not inner or inner == "void":
        return []
    out, depth, cur = [], 0, ""
    for ch in inner:
        depth += ch in "<("
        depth -= ch in ">)"
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    out.append(cur.strip())
    return out


def type_size(ctype: str) -> tuple[int, int] | None:
    t = re.sub(
        r"\b(const|volatile|__restrict__|__restrict|restrict|struct|class|enum)\b", " ", ctype
    )
    t = " ".join(t.split())
    if t.endswith("*") or t.endswith("&"):
        return (8, 8)
    return TYPE_SIZES.get(t.replace("::", "::").strip())


PAIR_READERS = frozenset({"DADD", "DMUL", "DFMA", "DSETP", "DMNMX"})


def cbank_reads(fn: Function, base: int) -> dict[int, int]:
    """Parameter-relative offset -> widest width read there by the code."""
    reads: dict[int, int] = {}
    for ins in fn.instructions:
        for k, op in enumerate(ins.operands):
            if not (
                isinstance(op, CBank) and op.bank == 0 and op.offset >= base and op.reg is None
            ):
                continue
            width = 4
            if ins.opcode in ("LDC", "ULDC"):
                width = 8 if ins.has("64") else 4
            elif ins.opcode in PAIR_READERS or (
                ins.opcode == "IMAD" and ins.has("WIDE", "HI") and k == len(ins.operands) - 1
            ):
                width = 8
            off = op.offset - base
            reads[off] = max(reads.get(off, 0), width)
    return reads


def layout_from_cubin(params: list[tuple[int, int]], arch: str | None) -> ParamLayout:
    """The exact layout a cubin's EIATTR_KPARAM_INFO gives (alignment: the largest power of two,
    up to 16, dividing both offset and size, which reproduces every offset under C rules)."""
    out = []
    for offset, size in params:
        align = 16
        while align > 1 and (
            offset % align or (size % align and size < align) or align > max(size, 1)
        ):
            align //= 2
        out.append(Param(offset, size, align))
    return ParamLayout(param_base(arch), tuple(out))


def infer_layout(fn: Function, arch: str | None) -> ParamLayout:
    base = param_base(arch)
    reads = cbank_reads(fn, base)
    types = signature_types(demangle(fn.name))
    if types is None:
        return _layout_from_reads(base, reads, fn.name)
    params, guesses, offset = [], [], 0
    for i, ctype in enumerate(types):
        known = type_size(ctype)
        if known is None:
            size, align = _size_from_reads(reads, offset, i == len(types) - 1, types, i)
            guesses.append(
                f"parameter {i} ({ctype}): size {size} taken from the offsets the code reads"
            )
        else:
            size, align = known
        offset = -(-offset // align) * align
        params.append(Param(offset, size, align, ctype))
        offset += size
    return ParamLayout(base, tuple(params), tuple(guesses))


def _size_from_reads(
    reads: dict[int, int], offset: int, last: bool, types: list[str], i: int
) -> tuple[int, int]:
    """An unsized (struct) parameter: from its aligned start to the start of the next sized one."""
    start = -(-offset // 4) * 4
    later = [o for o in reads if o >= start]
    align = 8 if start % 8 == 0 and any(w >= 8 for o, w in reads.items() if o >= start) else 4
    if last:
        end = max((o + reads[o] for o in later), default=start + 4)
        return max(4, -(-(end - start) // align) * align), align
    next_known = type_size(types[i + 1])
    nalign = next_known[1] if next_known else 4
    rest = sum(type_size(t)[0] if type_size(t) else 4 for t in types[i + 1 :])
    end_all = max((o + reads[o] for o in reads), default=start + 4)
    end = max(start + 4, -(-(end_all - rest) // nalign) * nalign)
    return max(4, -(-(end - start) // align) * align), align


def _layout_from_reads(base: int, reads: dict[int, int], name: str) -> ParamLayout:
    """extern "C": one parameter per read offset; an 8-aligned word whose next word is also read
    (low/high halves of a pointer) is one 8-byte parameter."""
    merged: dict[int, int] = {}
    for off in sorted(reads):
        if any(o <= off < o + w for o, w in merged.items()):
            continue
        width = reads[off]
        if width == 4 and off % 8 == 0 and reads.get(off + 4) == 4:
            width = 8
        merged[off] = width if width in (4, 8) else 4
    params = tuple(Param(o, w, w) for o, w in sorted(merged.items()))
    note = (f"'{name}' has no C++ signature (extern \"C\"): {len(params)} parameter(s) inferred from "
            "the constant-bank offsets read; give the cubin for the exact layout")  # fmt: skip
    return ParamLayout(base, params, (note,))
