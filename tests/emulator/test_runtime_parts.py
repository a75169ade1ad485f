"""Pure parts of the runtime: device printf formatting (C semantics from hostcall words), the
fault-report parser, msgpack metadata reader, allocation table lookups, lane-ordered atomics."""

from __future__ import annotations

import struct

import numpy as np
import pytest
from cass.runner.emulator import memory as mem
from cass.runner.emulator import msgpack
from cass.runner.emulator.faults import parse_fault_line
from cass.runner.emulator.hostcall import format_printf


def words(*values) -> bytes:
    out = b""
    for v in values:
        if isinstance(v, float):
            out += struct.pack("<d", v)
        elif isinstance(v, bytes):
            out += v + b"\0" * (-len(v) % 8 or 0)
        else:
            out += struct.pack("<Q", v & (2**64 - 1))
    return out


PRINTF = [
    ("%d|%i", (0xFFFFFFFF, 7), "-1|7"),
    ("%u %x %X %o", (0xFFFFFFFF, 255, 255, 8), "4294967295 ff FF 10"),
    ("%lld %llu", (-5, 2**64 - 1), "-5 18446744073709551615"),
    ("%5.2f|%-6.1e|%g", (3.14159, 12345.0, 0.0001), " 3.14|1.2e+04|0.0001"),
    ("%c%c 100%%", (ord("o"), ord("k")), "ok 100%"),
    ("[%s] [%8s]", (b"hi\0", b"pad\0"), "[hi] [     pad]"),
    ("%p", (0x1000,), "0x1000"),
    ("%hhd %hd", (0x1FF, 0x18000), "-1 -32768"),
]


@pytest.mark.parametrize("fmt,args,expect", PRINTF, ids=[p[0] for p in PRINTF])
def test_printf_formatting(fmt, args, expect):
    assert format_printf(fmt, words(*args), 0) == expect


def test_fault_line_round_trip():
    line = (
        "cass-emulator: fault kind=memory kernel=_Z1kPi workgroup=(1,2,0) wave=3 lane=7 "
        'pc=0x1700 instruction="global_store_b32 v[0:1], v2, off" address=0x10 '
        'message="store of 4 bytes outside every allocation"'
    )
    report = parse_fault_line(line)
    assert report["workgroup"] == "(1,2,0)" and report["lane"] == "7"
    assert report["instruction"] == "global_store_b32 v[0:1], v2, off"
    assert report["message"].startswith("store of 4 bytes")


def test_msgpack_reader():
    blob = bytes(
        [0x82, 0xA1, 0x61, 0x93, 0x01, 0xCD, 0x01, 0x00, 0xC3, 0xA1, 0x62, 0xCB]
    ) + struct.pack(">d", 1.5)
    assert msgpack.unpack(blob) == {"a": [1, 256, True], "b": 1.5}


def test_allocation_table_and_nearest():
    table = mem.AllocationTable(
        [mem.Region(0x1000, 256, "hipMalloc #1"), mem.Region(0x3000, 16, "hipMalloc #2")]
    )
    assert table.first_bad(np.array([0x1000, 0x10FC], np.uint64), 4) == -1
    assert table.first_bad(np.array([0x1000, 0x10FD], np.uint64), 4) == 1
    assert table.first_bad(np.array([0x2000], np.uint64), 1) == 0
    assert "0 bytes after the end of hipMalloc #1" in table.nearest(0x1100)
    assert "before the start of hipMalloc #2" in table.nearest(0x2FF0)


def test_atomics_serialise_lanes_sharing_an_address():
    arena = np.zeros(16, np.uint8)
    lanes = np.array([0, 0, 4, 0], np.int64)
    old = mem.atomic(
        arena, lanes, lambda o, s: o + s, [np.array([1, 2, 3, 4], np.uint32)], False, "add_u32"
    )
    assert list(old) == [0, 1, 0, 3] and list(arena.view(np.uint32)[:2]) == [7, 3]
    swapped = mem.atomic(
        arena,
        np.array([0, 0], np.int64),
        None,
        [np.array([9, 10], np.uint32), np.array([7, 9], np.uint32)],
        False,
        "cmpswap_b32",
    )
    # lane 0 swaps 7 -> 9; lane 1 then sees 9 (its comparand) and swaps in 10
    assert list(swapped) == [7, 9] and arena.view(np.uint32)[0] == 10
