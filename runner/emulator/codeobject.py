"""gfx1100 code objects: offload-bundle extraction, ELF loading into host memory (segments at
`base + p_vaddr`, dynamic relocations applied), kernel metadata and kernel descriptors."""

from __future__ import annotations

import ctypes
import io
import struct
from dataclasses import dataclass, field

import numpy as np
from cass.runner.emulator import msgpack
from cass.runner.emulator.kinds import EMULATED_GFX_ARCH
from elftools.elf.elffile import ELFFile

BUNDLE_MAGIC = b"__CLANG_OFFLOAD_BUNDLE__"
ELF_MAGIC = b"\x7fELF"
EM_AMDGPU = 224
NT_AMDGPU_METADATA = 32
R_AMDGPU_ABS32_LO, R_AMDGPU_ABS32_HI, R_AMDGPU_ABS64, R_AMDGPU_RELATIVE64 = 1, 2, 3, 13


class CodeObjectError(Exception):
    """The bytes are not a usable gfx1100 code object (message says why)."""


@dataclass
class KernelDescriptor:
    group_segment_size: int
    private_segment_size: int
    kernarg_size: int
    entry_offset: int
    rsrc1: int
    rsrc2: int
    rsrc3: int
    properties: int

    @classmethod
    def parse(cls, raw: bytes) -> KernelDescriptor:
        g, p, k = struct.unpack_from("<III", raw, 0)
        entry = struct.unpack_from("<q", raw, 16)[0]
        rsrc3, rsrc1, rsrc2 = struct.unpack_from("<III", raw, 44)
        props = struct.unpack_from("<H", raw, 56)[0]
        return cls(g, p, k, entry, rsrc1, rsrc2, rsrc3, props)

    @property
    def user_sgpr_count(self) -> int:
        return (self.rsrc2 >> 1) & 0x1F

    def enabled(self, bit: int) -> bool:
        return bool(self.properties >> bit & 1)

    @property
    def workgroup_id_enabled(self) -> tuple[bool, bool, bool]:
        return tuple(bool(self.rsrc2 >> b & 1) for b in (7, 8, 9))  # type: ignore[return-value]

    @property
    def workitem_id_dims(self) -> int:
        return ((self.rsrc2 >> 11) & 3) + 1

    @property
    def denorm_mode(self) -> int:
        return (self.rsrc1 >> 16) & 0xF


@dataclass
class Kernel:
    name: str
    entry: int  # vaddr of the first instruction
    descriptor: KernelDescriptor
    meta: dict
    args: list[dict] = field(default_factory=list)

    @property
    def kernarg_size(self) -> int:
        return max(int(self.meta.get(".kernarg_segment_size", 0)), self.descriptor.kernarg_size)

    @property
    def vgpr_count(self) -> int:
        return int(self.meta.get(".vgpr_count", 256))


@dataclass
class CodeObject:
    elf: bytes
    base: int  # host address of vaddr 0
    span: int
    kernels: dict[str, Kernel]
    symbols: dict[str, tuple[int, int, str]]  # name -> (vaddr, size, type)
    version: int
    _memory: object = None  # keeps the host block alive

    def symbol_address(self, name: str) -> tuple[int, int] | None:
        entry = self.symbols.get(name)
        if entry is None or entry[2] != "STT_OBJECT":
            return None
        return self.base + entry[0], entry[1]

    def function_name_at(self, vaddr: int) -> str:
        best = ("?", -1)
        for name, (value, size, kind) in self.symbols.items():
            if kind == "STT_FUNC" and value <= vaddr < value + max(size, 1) and value > best[1]:
                best = (name, value)
        return best[0]


def extract_from_bundle(data: bytes, arch: str = EMULATED_GFX_ARCH) -> bytes:
    if data[:4] == b"CCOB":
        raise CodeObjectError(
            "compressed offload bundles are not supported; build without --offload-compress"
        )
    if not data.startswith(BUNDLE_MAGIC):
        raise CodeObjectError("not a clang offload bundle")
    count = struct.unpack_from("<Q", data, 24)[0]
    pos, found = 32, []
    for _ in range(count):
        offset, size, id_len = struct.unpack_from("<QQQ", data, pos)
        ident = data[pos + 24 : pos + 24 + id_len].decode()
        pos += 24 + id_len
        found.append(ident)
        target = ident.rsplit("-", 1)[-1].split(":")[0]
        if target == arch and size:
            return data[offset : offset + size]
    raise CodeObjectError(
        f"no {arch} code object in the bundle (entries: {', '.join(found)}); "
        f"compile with --offload-arch={arch}"
    )


def read_bundle_at(address: int) -> bytes:
    """Read an offload bundle (or a bare ELF) that lives in this process at `address`."""
    head = ctypes.string_at(address, 32)
    if head.startswith(ELF_MAGIC):
        return read_elf_at(address)
    if not head.startswith(BUNDLE_MAGIC):
        raise CodeObjectError(f"no offload bundle or ELF at 0x{address:x}")
    count = struct.unpack_from("<Q", head, 24)[0]
    pos, end = 32, 32
    for _ in range(count):
        offset, size, id_len = struct.unpack_from("<QQQ", ctypes.string_at(address + pos, 24))
        pos += 24 + id_len
        end = max(end, offset + size, pos)
    return ctypes.string_at(address, end)


def read_elf_at(address: int) -> bytes:
    head = ctypes.string_at(address, 64)
    shoff = struct.unpack_from("<Q", head, 0x28)[0]
    shentsize, shnum = struct.unpack_from("<HH", head, 0x3A)
    return ctypes.string_at(address, shoff + shentsize * shnum)


def load(image: bytes, arch: str = EMULATED_GFX_ARCH) -> CodeObject:
    elf_bytes = image if image.startswith(ELF_MAGIC) else extract_from_bundle(image, arch)
    elf = ELFFile(io.BytesIO(elf_bytes))
    if elf["e_machine"] != "EM_AMDGPU" and elf.header["e_machine"] != EM_AMDGPU:
        raise CodeObjectError("the code object is not an AMDGPU ELF")
    loads = [s for s in elf.iter_segments() if s["p_type"] == "PT_LOAD"]
    span = max(s["p_vaddr"] + s["p_memsz"] for s in loads)
    memory = np.zeros(span + 8192, dtype=np.uint8)
    base = (memory.ctypes.data + 4095) & ~4095
    view = memory[base - memory.ctypes.data :]
    for seg in loads:
        data = seg.data()
        view[seg["p_vaddr"] : seg["p_vaddr"] + len(data)] = np.frombuffer(data, np.uint8)
    symbols = _symbols(elf)
    _relocate(elf, view, base, symbols)
    meta = _metadata(elf)
    kernels = _kernels(meta, symbols, view)
    version = elf.header["e_ident"]["EI_ABIVERSION"] + 2
    return CodeObject(elf_bytes, base, span, kernels, symbols, version, memory)


def _symbols(elf: ELFFile) -> dict[str, tuple[int, int, str]]:
    out: dict[str, tuple[int, int, str]] = {}
    for name in (".symtab", ".dynsym"):
        table = elf.get_section_by_name(name)
        if table is None:
            continue
        for sym in table.iter_symbols():
            if sym.name and sym["st_shndx"] != "SHN_UNDEF":
                out[sym.name] = (sym["st_value"], sym["st_size"], sym["st_info"]["type"])
    return out


def _relocate(elf: ELFFile, view: np.ndarray, base: int, symbols: dict) -> None:
    for section in elf.iter_sections():
        if section["sh_type"] != "SHT_RELA":
            continue
        symtab = elf.get_section(section["sh_link"]) if section["sh_link"] else None
        for rel in section.iter_relocations():
            kind, off, addend = rel["r_info_type"], rel["r_offset"], rel["r_addend"]
            sym_value = 0
            if rel["r_info_sym"] and symtab is not None:
                sym_value = base + symtab.get_symbol(rel["r_info_sym"])["st_value"]
            if kind == R_AMDGPU_RELATIVE64:
                value, fmt = base + addend, "<Q"
            elif kind == R_AMDGPU_ABS64:
                value, fmt = sym_value + addend, "<Q"
            elif kind == R_AMDGPU_ABS32_LO:
                value, fmt = (sym_value + addend) & 0xFFFFFFFF, "<I"
            elif kind == R_AMDGPU_ABS32_HI:
                value, fmt = (sym_value + addend) >> 32, "<I"
            else:
                raise CodeObjectError(f"unsupported relocation type {kind} at 0x{off:x}")
            size = struct.calcsize(fmt)
            view[off : off + size] = np.frombuffer(struct.pack(fmt, value), np.uint8)


def _metadata(elf: ELFFile) -> dict:
    """The code object's AMDGPU metadata. A code object linked from several objects (the lifter's
    kernels and a HIP library's, see cass.models.bench.assembly) carries one note per object:
    their kernel lists are merged; the other keys come from the first note."""
    notes = []
    for seg in elf.iter_segments():
        if seg["p_type"] != "PT_NOTE":
            continue
        data, pos = seg.data(), 0
        while pos + 12 <= len(data):
            namesz, descsz, ntype = struct.unpack_from("<III", data, pos)
            name = data[pos + 12 : pos + 12 + namesz].rstrip(b"\0")
            desc_at = pos + 12 + ((namesz + 3) & ~3)
            if name == b"AMDGPU" and ntype == NT_AMDGPU_METADATA:
                notes.append(msgpack.unpack(data[desc_at : desc_at + descsz]))
            pos = desc_at + ((descsz + 3) & ~3)
    if not notes:
        raise CodeObjectError("the code object has no AMDGPU metadata note (code object v2?)")
    meta = dict(notes[0])
    if len(notes) > 1:
        meta["amdhsa.kernels"] = [k for note in notes for k in note.get("amdhsa.kernels", [])]
    return meta


def _kernels(meta: dict, symbols: dict, view: np.ndarray) -> dict[str, Kernel]:
    kernels = {}
    for km in meta.get("amdhsa.kernels", []):
        kd_name = km[".symbol"]
        kd_addr = symbols[kd_name][0]
        desc = KernelDescriptor.parse(view[kd_addr : kd_addr + 64].tobytes())
        name = km[".name"]
        kernels[name] = Kernel(name, kd_addr + desc.entry_offset, desc, km, km.get(".args", []))
        if kd_name.endswith(".kd") and kd_name[:-3] != name:
            kernels[kd_name[:-3]] = kernels[name]
    return kernels
