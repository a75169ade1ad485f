"""The device hostcall protocol (ROCm device-libs `ockl` hostcall, used by device printf): the
buffer the kernel gets in `hidden_hostcall_buffer`, and the host side that serves packets when
a wave sleeps waiting for them. Service 2 (printf) and service 3 (device malloc/free, served
by a DeviceHeap) are implemented; others fault clearly."""

from __future__ import annotations

import ctypes
import re
import struct
import sys

import numpy as np
from cass.runner.emulator.device_heap import SERVICE_DEVMEM
from cass.runner.emulator.state import Fault

SERVICE_PRINTF = 2
READY = 1
HEADER_BYTES = 24
PAYLOAD_BYTES = 64 * 8 * 8  # 64 lanes x 8 slots x u64
_CONV = re.compile(
    r"%([-+ #0]*)(\d+|\*)?(?:\.(\d+|\*))?(hh|h|ll|l|j|z|t|L)?([diouxXeEfFgGaAcspn%])"
)


def _write_stdout(text: str) -> None:
    data = text.encode("utf-8", "replace")
    try:
        fn = ctypes.CDLL(None).cass_rt_write_stdout
    except AttributeError:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    fn(ctypes.c_char_p(data), ctypes.c_size_t(len(data)))


def _write_stderr(text: str) -> None:
    try:
        ctypes.CDLL(None).cass_rt_flush()
    except AttributeError:
        pass
    sys.stderr.write(text)
    sys.stderr.flush()


class HostcallBuffer:
    """One hostcall buffer with enough packets for every resident wave."""

    def __init__(self, packets: int, heap=None) -> None:
        self.heap = heap  # a DeviceHeap for service 3, or None
        self.packets = packets + 1  # index 0 is never handed out (0 means "empty stack")
        bits = max(1, (self.packets - 1).bit_length())
        self.index_mask = (1 << bits) - 1
        size = 64 + 64 + self.packets * HEADER_BYTES + self.packets * PAYLOAD_BYTES + 4096
        self.block = np.zeros(size, np.uint8)
        self.address = (self.block.ctypes.data + 63) & ~63
        self.size = size - 64
        self.signal = self.address + 64
        self.headers = self.signal + 64
        self.payloads = (self.headers + self.packets * HEADER_BYTES + 63) & ~63
        self._init_stacks()
        self.messages: dict[int, list[int]] = {}
        self.next_id = 1

    def _u64(self, addr: int) -> ctypes.c_uint64:
        return ctypes.c_uint64.from_address(addr)

    def _init_stacks(self) -> None:
        hdr = self.address
        for off, value in (
            (0, self.headers),
            (8, self.payloads),
            (16, self.signal),
            (24, 1),
            (32, 0),
            (40, self.index_mask),
        ):
            self._u64(hdr + off).value = value
        ctypes.c_int64.from_address(self.signal).value = 1  # AMD_SIGNAL_KIND_USER
        for i in range(1, self.packets):
            nxt = i + 1 if i + 1 < self.packets else 0
            self._u64(self.headers + i * HEADER_BYTES).value = nxt

    def poll(self, machine=None) -> None:
        ready = self._u64(self.address + 32)
        ptr, ready.value = ready.value, 0
        while ptr:
            header = self.headers + (ptr & self.index_mask) * HEADER_BYTES
            nxt = self._u64(header).value
            self._serve(header, self.payloads + (ptr & self.index_mask) * PAYLOAD_BYTES)
            ptr = nxt

    def _serve(self, header: int, payload: int) -> None:
        mask = self._u64(header + 8).value
        service = ctypes.c_uint32.from_address(header + 16).value
        for lane in range(64):
            if mask >> lane & 1:
                slots = (ctypes.c_uint64 * 8).from_address(payload + lane * 64)
                if service == SERVICE_PRINTF:
                    self._printf_packet(slots)
                elif service == SERVICE_DEVMEM and self.heap is not None:
                    self.heap.serve(slots)
                else:
                    raise Fault(
                        "unsupported",
                        f"device hostcall service {service} (printf, service 2, and device"
                        " malloc, service 3, are emulated)",
                    )
        control = ctypes.c_uint32.from_address(header + 20)
        control.value &= ~READY

    def _printf_packet(self, slots) -> None:
        desc = slots[0]
        begin, end, length = desc & 1, desc >> 1 & 1, desc >> 5 & 7
        if begin:
            msg_id, self.next_id = self.next_id, self.next_id + 1
            self.messages[msg_id] = []
            desc = (desc & 0xFF) | (msg_id << 8)
        msg_id = desc >> 8
        words = self.messages.setdefault(msg_id, [])
        words.extend(slots[1 : 1 + length])
        if end:
            printed = self._print(self.messages.pop(msg_id))
            slots[0], slots[1] = printed, 0
        else:
            slots[0], slots[1] = desc & ~0x3, 0

    def _print(self, words: list[int]) -> int:
        raw = struct.pack(f"<{len(words)}Q", *words)
        control, pos = words[0] if words else 0, 8
        fmt, pos = _cstring(raw, pos)
        text = format_printf(fmt, raw, pos)
        (_write_stderr if control & 1 else _write_stdout)(text)
        return len(text.encode())


def _cstring(raw: bytes, pos: int) -> tuple[str, int]:
    end = raw.find(b"\0", pos)
    end = len(raw) if end < 0 else end
    text = raw[pos:end].decode("utf-8", "replace")
    return text, pos + ((end - pos + 1 + 7) & ~7)


def format_printf(fmt: str, raw: bytes, pos: int) -> str:
    """Format a device printf message with C semantics for its conversions."""
    out, last = [], 0
    for m in _CONV.finditer(fmt):
        out.append(fmt[last : m.start()])
        last = m.end()
        flags, width, prec, length, conv = m.groups()
        if conv == "%":
            out.append("%")
            continue
        if conv == "n":
            continue
        spec = "%" + flags + (width or "") + (f".{prec}" if prec is not None else "")
        if conv == "s":
            text, pos = _cstring(raw, pos)
            out.append((spec + "s") % text)
            continue
        word = struct.unpack_from("<Q", raw, pos)[0] if pos + 8 <= len(raw) else 0
        pos += 8
        out.append(_format_value(spec, conv, length or "", word))
    out.append(fmt[last:])
    return "".join(out)


def _format_value(spec: str, conv: str, length: str, word: int) -> str:
    if conv in "eEfFgGaA":
        value = struct.unpack("<d", struct.pack("<Q", word))[0]
        if conv in "aA":
            return value.hex()
        return (spec + conv) % value
    bits = {"hh": 8, "h": 16, "l": 64, "ll": 64, "j": 64, "z": 64, "t": 64}.get(length, 32)
    if conv == "p":
        return f"0x{word:x}"
    if conv == "c":
        return (spec + "c") % chr(word & 0xFF)
    value = word & ((1 << bits) - 1)
    if conv in "di" and value >> (bits - 1):
        value -= 1 << bits
    if conv == "u":
        conv = "d"
    return (spec + conv) % value
