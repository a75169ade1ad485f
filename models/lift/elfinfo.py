"""What a cubin says that SASS text does not: exact parameter layout (`.nv.info.<kernel>`
EIATTR_KPARAM_INFO), static shared size (`.nv.shared.<kernel>`), `__constant__` variables
(`.nv.constant3` symbols and contents), `__device__` variables and printf strings (`.nv.global.init`,
zeroed ones in `.nv.global`), each kernel's literal pool (`.nv.constant2.<kernel>`) and the
texture references it reads (`.rel(a).nv.constant0.<kernel>` relocations naming a texture symbol).
Read with pyelftools.
"""

from __future__ import annotations

import io
import struct
from collections.abc import Iterator
from dataclasses import dataclass, field

from cass.runner.diagnostics import CassError
from elftools.common.exceptions import ELFError
from elftools.elf.elffile import ELFFile

EIATTR_KPARAM_INFO = 0x17
EIATTR_FRAME_SIZE, EIATTR_MIN_STACK_SIZE = 0x11, 0x12
EIFMT_SVAL = 4
# symbol types (pyelftools' names): 10 a `texture<T, dim, mode>`, 12 a `surface<void, dim>`
STT_CUDA_TEXTURE, STT_CUDA_SURFACE = "STT_LOOS", "STT_HIOS"


@dataclass(frozen=True)
class ConstantSymbol:
    name: str
    offset: int  # within bank 3
    size: int


@dataclass
class CubinInfo:
    params: dict[str, list[tuple[int, int]]] = field(
        default_factory=dict
    )  # kernel -> [(offset, size)]
    shared: dict[str, int] = field(default_factory=dict)  # kernel -> static shared bytes (window)
    constant3: bytes = b""
    constant3_symbols: list[ConstantSymbol] = field(default_factory=list)
    constant2: dict[str, bytes] = field(default_factory=dict)  # kernel -> literal pool
    constant4: dict[int, tuple[str, int]] = field(
        default_factory=dict
    )  # offset -> (symbol, addend)
    strings: dict[str, bytes] = field(default_factory=dict)  # data symbols of .nv.global.init
    zeroed: dict[str, int] = field(
        default_factory=dict
    )  # .nv.global (zero-initialised __device__) -> size
    stack: dict[str, int] = field(
        default_factory=dict
    )  # kernel -> local bytes ptxas reserves (frame, min stack)
    texrefs: dict[str, dict[int, str]] = field(
        default_factory=dict
    )  # kernel -> c[0x0] byte offset -> texture reference the loader patches there
    textures: list[str] = field(default_factory=list)  # every texture reference of the module
    surfrefs: dict[str, dict[int, str]] = field(
        default_factory=dict
    )  # kernel -> c[0x0] byte offset -> surface reference (HIP has none: a located error)


def read_cubin(data: bytes, where: str = "<cubin>") -> CubinInfo:
    try:
        elf = ELFFile(io.BytesIO(data))
        sections = list(elf.iter_sections())
    except (ELFError, struct.error, ValueError) as exc:
        raise CassError(f"{where}: not a readable cubin ({exc})") from None
    info = CubinInfo()
    const3_index = None
    for index, sec in enumerate(sections):
        name = sec.name
        if name.startswith(".nv.info."):
            info.params[name[len(".nv.info.") :]] = kparams(sec.data())
        elif name.startswith(".nv.shared.") and not name.startswith(".nv.shared.reserved"):
            info.shared[name[len(".nv.shared.") :]] = sec["sh_size"]
        elif name == ".nv.constant3":
            info.constant3, const3_index = sec.data(), index
        elif name.startswith(".nv.constant2."):
            info.constant2[name[len(".nv.constant2.") :]] = sec.data()
    symtab = elf.get_section_by_name(".symtab")
    init = elf.get_section_by_name(".nv.global.init")
    init_index = sections.index(init) if init is not None else None
    zero = elf.get_section_by_name(".nv.global")
    zero_index = sections.index(zero) if zero is not None else None
    if symtab is not None:
        for sym in symtab.iter_symbols():
            if sym["st_info"]["type"] == STT_CUDA_TEXTURE and sym.name not in info.textures:
                info.textures.append(sym.name)  # the host binds it, read by a kernel or not
            if sym["st_info"]["type"] != "STT_OBJECT":
                continue
            if const3_index is not None and sym["st_shndx"] == const3_index:
                info.constant3_symbols.append(
                    ConstantSymbol(sym.name, sym["st_value"], sym["st_size"])
                )
            elif init_index is not None and sym["st_shndx"] == init_index:
                info.strings[sym.name] = init.data()[
                    sym["st_value"] : sym["st_value"] + sym["st_size"]
                ]
            elif zero_index is not None and sym["st_shndx"] == zero_index:
                info.zeroed[sym.name] = sym["st_size"]
        const4 = elf.get_section_by_name(".nv.constant4")
        const4_data = (
            const4.data() if const4 is not None and const4["sh_type"] != "SHT_NOBITS" else b""
        )
        for rel_name in (".rela.nv.constant4", ".rel.nv.constant4"):
            rel = elf.get_section_by_name(rel_name)
            for r in rel.iter_relocations() if rel is not None else ():
                name = symtab.get_symbol(r["r_info_sym"]).name
                off = r["r_offset"]
                addend = (
                    r["r_addend"]
                    if r.is_RELA()
                    else int.from_bytes(const4_data[off : off + 8] or b"\0", "little")
                )
                info.constant4[off] = (name, addend)
        info.stack = stack_sizes(elf.get_section_by_name(".nv.info"), symtab)
        info.texrefs = texture_slots(sections, symtab)
        info.surfrefs = texture_slots(sections, symtab, STT_CUDA_SURFACE)
    info.constant3_symbols.sort(key=lambda s: s.offset)
    return info


def texture_slots(sections, symtab, kind: str = STT_CUDA_TEXTURE) -> dict[str, dict[int, str]]:
    """Per kernel, the c[0x0] words the loader fills with a bound texture reference's handle:
    ptxas (CUDA 11) gives each `texture<>` a kernel reads a word after the parameters and
    relocates it to the texture's symbol (sm_80: `TEX.SCR ... 0x0, word`; sm_90: `ULDC URx,
    c[0x0][offset]` before a bindless TEX); with `kind` STT_CUDA_SURFACE, the surface references'
    slots (SULD/SUST)."""
    slots: dict[str, dict[int, str]] = {}
    for sec in sections:
        name = sec.name
        for prefix in (".rel.nv.constant0.", ".rela.nv.constant0."):
            if not name.startswith(prefix):
                continue
            for r in sec.iter_relocations():
                sym = symtab.get_symbol(r["r_info_sym"])
                if sym["st_info"]["type"] == kind:
                    slots.setdefault(name[len(prefix) :], {})[r["r_offset"]] = sym.name
    return slots


def sval_attributes(blob: bytes) -> Iterator[tuple[int, bytes]]:
    """(attribute, payload) of every sized entry (EIFMT_SVAL) of an `.nv.info` section."""
    pos = 0
    while pos + 4 <= len(blob):
        fmt, attr = blob[pos], blob[pos + 1]
        if fmt != EIFMT_SVAL:
            pos += 4
            continue
        (size,) = struct.unpack_from("<H", blob, pos + 2)
        yield attr, blob[pos + 4 : pos + 4 + size]
        pos += 4 + size


def stack_sizes(section, symtab) -> dict[str, int]:
    """Per function, the larger of EIATTR_FRAME_SIZE and EIATTR_MIN_STACK_SIZE (`.nv.info`, keyed
    by symbol index): the local memory its own STL/LDL and spills use."""
    sizes: dict[str, int] = {}
    for attr, payload in sval_attributes(section.data() if section is not None else b""):
        if attr in (EIATTR_FRAME_SIZE, EIATTR_MIN_STACK_SIZE) and len(payload) >= 8:
            index, value = struct.unpack_from("<II", payload)
            name = symtab.get_symbol(index).name if index < symtab.num_symbols() else ""
            sizes[name] = max(sizes.get(name, 0), value)
    return sizes


def kparams(blob: bytes) -> list[tuple[int, int]]:
    """(offset, size) per parameter, in ordinal order, from an `.nv.info.<kernel>` section."""
    params: dict[int, tuple[int, int]] = {}
    for attr, payload in sval_attributes(blob):
        if attr == EIATTR_KPARAM_INFO and len(payload) >= 12:
            ordinal, offset = struct.unpack_from("<HH", payload, 4)
            (flags,) = struct.unpack_from("<I", payload, 8)
            params[ordinal] = (offset, (flags >> 18) & 0x3FFF)
    return [params[k] for k in sorted(params)]
