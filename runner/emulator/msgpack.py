"""A small MessagePack reader for the AMDGPU code-object metadata note (NT_AMDGPU_METADATA)."""

from __future__ import annotations

import struct
from typing import Any

_FIXED = {0xC0: None, 0xC2: False, 0xC3: True}
_INTS = {
    0xCC: ">B",
    0xCD: ">H",
    0xCE: ">I",
    0xCF: ">Q",
    0xD0: ">b",
    0xD1: ">h",
    0xD2: ">i",
    0xD3: ">q",
    0xCA: ">f",
    0xCB: ">d",
}
_STR_LEN = {0xD9: ">B", 0xDA: ">H", 0xDB: ">I", 0xC4: ">B", 0xC5: ">H", 0xC6: ">I"}
_ARRAY_LEN = {0xDC: ">H", 0xDD: ">I"}
_MAP_LEN = {0xDE: ">H", 0xDF: ">I"}


def unpack(data: bytes) -> Any:
    value, _ = _read(memoryview(data), 0)
    return value


def _read(buf: memoryview, pos: int) -> tuple[Any, int]:
    tag = buf[pos]
    pos += 1
    if tag <= 0x7F:
        return tag, pos
    if tag >= 0xE0:
        return tag - 0x100, pos
    if 0xA0 <= tag <= 0xBF:
        return _text(buf, pos, tag & 0x1F)
    if 0x90 <= tag <= 0x9F:
        return _array(buf, pos, tag & 0x0F)
    if 0x80 <= tag <= 0x8F:
        return _map(buf, pos, tag & 0x0F)
    if tag in _FIXED:
        return _FIXED[tag], pos
    if tag in _INTS:
        fmt = _INTS[tag]
        return struct.unpack_from(fmt, buf, pos)[0], pos + struct.calcsize(fmt)
    if tag in _STR_LEN:
        fmt = _STR_LEN[tag]
        n = struct.unpack_from(fmt, buf, pos)[0]
        pos += struct.calcsize(fmt)
        if tag >= 0xD9:
            return _text(buf, pos, n)
        return bytes(buf[pos : pos + n]), pos + n
    if tag in _ARRAY_LEN:
        fmt = _ARRAY_LEN[tag]
        n = struct.unpack_from(fmt, buf, pos)[0]
        return _array(buf, pos + struct.calcsize(fmt), n)
    if tag in _MAP_LEN:
        fmt = _MAP_LEN[tag]
        n = struct.unpack_from(fmt, buf, pos)[0]
        return _map(buf, pos + struct.calcsize(fmt), n)
    raise ValueError(f"unsupported msgpack tag 0x{tag:02x} at byte {pos - 1}")


def _text(buf: memoryview, pos: int, n: int) -> tuple[str, int]:
    return bytes(buf[pos : pos + n]).decode("utf-8", "replace"), pos + n


def _array(buf: memoryview, pos: int, n: int) -> tuple[list, int]:
    out = []
    for _ in range(n):
        item, pos = _read(buf, pos)
        out.append(item)
    return out, pos


def _map(buf: memoryview, pos: int, n: int) -> tuple[dict, int]:
    out = {}
    for _ in range(n):
        key, pos = _read(buf, pos)
        value, pos = _read(buf, pos)
        out[key] = value
    return out, pos
