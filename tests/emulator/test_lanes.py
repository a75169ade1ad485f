"""The compiled lane loops (native/emulator_lanes.cpp) give exactly the numpy path's results
on many waves of several workgroups, with full and partial EXEC, partial wave groups, every
dword width and duplicate addresses; they decline misaligned or out-of-range lanes so the
checked path reports them."""

from __future__ import annotations

import numpy as np
import pytest
from cass.runner.emulator import lanes
from cass.runner.emulator import memory as mem
from cass.runner.emulator.machine import Machine
from cass.runner.emulator.ops_memory import _scatter_full
from cass.runner.emulator.snippet import _Kernel, _Listing, _NoBudget, _NoServices
from cass.runner.emulator.state import Fault, Group

WAVES, GROUPS, LDS = 12, 3, 1024  # 4 waves per workgroup, 1 KiB of LDS each


def machine() -> Machine:
    m = Machine(
        _Listing({}),
        _Kernel(),
        mem.AllocationTable([]),
        WAVES,
        GROUPS,
        LDS,
        0,
        _NoServices(),
        _NoBudget(),
    )
    m.wave_wg[:] = np.repeat(np.arange(GROUPS), WAVES // GROUPS)
    m.lds.view(np.uint32)[:] = np.arange(m.lds.size // 4, dtype=np.uint32) * 2654435761
    return m


def group(kind: str) -> Group:
    if kind == "all":
        return Group(slice(None), WAVES, True)
    idx = np.array([1, 4, 5, 11])
    return Group(idx, idx.size, False)


def mask_of(m: Machine, g: Group, rng, partial: bool) -> np.ndarray:
    m.st.exec_bool[:] = rng.random((WAVES, 32)) < 0.6 if partial else True
    m.st.exec_full[:] = m.st.exec_bool.all(axis=1)
    g.reset_exec()
    return m.st.exec_mask(g)


def compiled_then_numpy(monkeypatch, run):
    """run() with the compiled loops, then with the numpy path: (got, want)."""
    monkeypatch.setattr(lanes, "_LIB", None)
    assert lanes._lib(), "the compiled lane loops did not load: both runs would take the numpy path"
    got = run()
    monkeypatch.setattr(lanes, "_LIB", False)
    want = run()
    monkeypatch.setattr(lanes, "_LIB", None)
    return got, want


def both_paths(monkeypatch, run):
    """run(machine) on a fresh machine with the compiled loops, then with the numpy path; both
    results and LDS."""

    def on_fresh_machine():
        m = machine()
        return run(m), m.lds

    return compiled_then_numpy(monkeypatch, on_fresh_machine)


@pytest.mark.parametrize("nbytes", [4, 8, 12, 16])
@pytest.mark.parametrize("kind", ["all", "some"])
@pytest.mark.parametrize("partial", [False, True])
def test_loads_and_stores_match_the_numpy_path(monkeypatch, nbytes, kind, partial):
    def run(m):
        rng = np.random.default_rng(nbytes * 7 + partial)
        g = group(kind)
        mask = mask_of(m, g, rng, partial)
        offs = (rng.integers(0, (LDS - nbytes) // 4, (g.k, 32)) * 4).astype(np.uint32)
        offs[:, 5] = offs[:, 3]  # duplicate addresses: the later lane's store wins
        n = int(mask.sum()) if partial else g.k * 32
        data = [rng.integers(0, 1 << 32, n, dtype=np.uint32) for _ in range(nbytes // 4)]
        m.lds_access(offs, mask, nbytes, "store", g, data)
        loaded = m.lds_access(offs[::-1].copy(), mask, nbytes, "load", g)
        return [_scatter_full((g.k, 32), mask, v).tolist() for v in loaded]

    (got, lds_got), (want, lds_want) = both_paths(monkeypatch, run)
    assert got == want
    assert np.array_equal(lds_got, lds_want)


def test_misaligned_lanes_take_the_byte_path(monkeypatch):
    def run(m):
        g = group("all")
        mask = mask_of(m, g, np.random.default_rng(1), False)
        offs = np.full((WAVES, 32), 6, np.uint32)  # 2-byte aligned: the compiled loop declines
        m.lds_access(offs, mask, 4, "store", g, [np.arange(WAVES * 32, dtype=np.uint32)])
        return [v.tolist() for v in m.lds_access(offs + np.uint32(2), mask, 4, "load", g)]

    (got, lds_got), (want, lds_want) = both_paths(monkeypatch, run)
    assert got == want and np.array_equal(lds_got, lds_want)


def test_inactive_lanes_are_not_checked_and_keep_lds():
    m = machine()
    g = group("all")
    mask = mask_of(m, g, np.random.default_rng(2), True)
    before = m.lds.copy()
    offs = np.where(mask, 16, 0xFFFFFFF1).astype(np.uint32)  # inactive lanes far outside
    (loaded,) = lanes.lds_load(m.lds.view(np.uint32), offs, m._lds_wave_base(g), mask, LDS, 1)
    assert not loaded[~mask.reshape(-1)].any()  # inactive lanes read as 0
    assert lanes.lds_store(
        m.lds.view(np.uint32),
        offs,
        m._lds_wave_base(g),
        mask,
        LDS,
        [np.zeros(int(mask.sum()), np.uint32)],
    )
    changed = np.flatnonzero(m.lds.view(np.uint32) != before.view(np.uint32))
    assert set(changed) == {wg * LDS // 4 + 4 for wg in range(GROUPS)}


def test_an_active_lane_outside_the_lds_is_declined_and_reported():
    m = machine()
    g = group("all")
    mask = mask_of(m, g, np.random.default_rng(3), False)
    offs = np.full((WAVES, 32), 8, np.uint32)
    offs[7, 9] = LDS - 4  # the last dword: fine for 4 bytes, beyond for 8
    base = m._lds_wave_base(g)
    assert lanes.lds_load(m.lds.view(np.uint32), offs, base, None, LDS, 1) is not None
    assert lanes.lds_load(m.lds.view(np.uint32), offs, base, None, LDS, 2) is None
    before = m.lds.copy()
    data = [np.ones(WAVES * 32, np.uint32)] * 2
    assert not lanes.lds_store(m.lds.view(np.uint32), offs, base, None, LDS, data)
    assert np.array_equal(m.lds, before)  # nothing written
    with pytest.raises(Fault) as info:
        m.lds_access(offs, mask, 8, "load", g)
    assert info.value.kind == "lds" and info.value.wave == 7 and info.value.lane == 9


def global_machine(buffers: list[np.ndarray]) -> Machine:
    regions = [mem.Region(b.ctypes.data, b.nbytes, f"buffer {i}") for i, b in enumerate(buffers)]
    return Machine(
        _Listing({}),
        _Kernel(),
        mem.AllocationTable(regions),
        WAVES,
        GROUPS,
        0,
        0,
        _NoServices(),
        _NoBudget(),
    )


@pytest.mark.parametrize("nbytes", [4, 8, 16])
@pytest.mark.parametrize("partial", [False, True])
def test_global_loads_and_stores_match_the_numpy_path(monkeypatch, nbytes, partial):
    def run():
        rng = np.random.default_rng(nbytes + partial)
        buffers = [np.arange(i * 1000, i * 1000 + 256, dtype=np.uint32) for i in range(3)]
        m = global_machine(buffers)
        g = group("some")
        mask = mask_of(m, g, rng, partial)
        which = rng.integers(0, 3, (g.k, 32))
        starts = np.array([b.ctypes.data for b in buffers], np.uint64)
        dwords = rng.integers(0, (1024 - nbytes) // 4, (g.k, 32)).astype(np.uint64)
        addrs = starts[which] + dwords * np.uint64(4)
        n = int(mask.sum()) if partial else g.k * 32
        data = [rng.integers(0, 1 << 32, n, dtype=np.uint32) for _ in range(nbytes // 4)]
        m.access("global", addrs, mask, nbytes, "store", g, data)
        loaded = m.access("global", addrs[::-1].copy(), mask, nbytes, "load", g)
        return [np.asarray(v).tolist() for v in loaded], [b.tolist() for b in buffers]

    got, want = compiled_then_numpy(monkeypatch, run)
    assert got == want


def test_a_global_access_past_an_allocation_is_declined_and_reported():
    buffer = np.zeros(64, np.uint32)
    m = global_machine([buffer])
    g = group("all")
    mask = mask_of(m, g, np.random.default_rng(4), False)
    addrs = np.full((WAVES, 32), buffer.ctypes.data, np.uint64)
    addrs[2, 30] += np.uint64(buffer.nbytes)  # one dword past the end
    data = [np.ones(WAVES * 32, np.uint32)]
    assert not lanes.global_store(addrs, None, m.table, data)
    assert not buffer.any()  # nothing written
    with pytest.raises(Fault) as info:
        m.access("global", addrs, mask, 4, "load", g)
    assert info.value.kind == "memory" and (info.value.wave, info.value.lane) == (2, 30)


@pytest.mark.parametrize(
    "text",
    [
        "ds_load_b32 v3, v1",
        "ds_load_b64 v[2:3], v1 offset:8",
        "ds_load_b128 v[4:7], v2 offset:16",
        "ds_load_2addr_b32 v[1:2], v1 offset1:16",  # the first result overwrites the address
        "ds_load_2addr_stride64_b32 v[4:5], v1 offset0:1 offset1:3",
        "ds_load_2addr_b64 v[4:7], v2 offset1:5",
    ],
)
@pytest.mark.parametrize("kind", ["all", "some"])
def test_ds_loads_into_registers_match_the_numpy_path(monkeypatch, text, kind):
    """Compiled DS loads straight into VGPRs: EXEC-masked, 0 beyond the allocation (lanes whose
    address lies past the workgroup's LDS), the address read before any result is written."""
    from cass.runner.emulator.decode import parse_text
    from cass.runner.emulator.program import compile_instruction

    def run():
        m = machine()
        rng = np.random.default_rng(11)
        g = group("all") if kind == "all" else Group(slice(1, WAVES, 4), WAVES // 4, False)
        mask_of(m, g, rng, True)
        m.st.V[1:3] = rng.integers(0, LDS // 8, (2, WAVES, 32)) * 8
        m.st.V[1, :, 7] = LDS - 4  # beyond the allocation for 8 bytes and for offsets
        m.st.V[4:8] = 77
        compile_instruction(parse_text(text))(m, g)
        return m.st.V[:8].copy()

    got, want = compiled_then_numpy(monkeypatch, run)
    assert np.array_equal(got, want)


@pytest.mark.parametrize(
    "text", ["v_fmac_f32_e32 v6, v1, v2", "v_fma_f32 v6, v1, v2, v3", "v_fma_f32 v6, v6, v1, v6"]
)
@pytest.mark.parametrize("kind", ["all", "some"])
@pytest.mark.parametrize("flush", [False, True])
def test_fma_rows_match_the_numpy_path(monkeypatch, text, kind, flush):
    """Compiled v_fma_f32/v_fmac_f32 on VGPR rows: EXEC-masked, bit-identical over random bit
    patterns (NaNs, infinities, denormals, signed zeros); flush-to-zero kernels keep numpy."""
    from cass.runner.emulator.decode import parse_text
    from cass.runner.emulator.program import compile_instruction

    def run():
        m = machine()
        m.flush32 = flush
        rng = np.random.default_rng(5)
        g = group("all") if kind == "all" else Group(slice(2, WAVES, 3), WAVES // 3, False)
        mask_of(m, g, rng, kind == "some")
        m.st.V[:8] = rng.integers(0, 1 << 32, (8, WAVES, 32), dtype=np.uint32)
        m.st.V[1, :, :4] = np.array([0x7F800000, 0x00000001, 0x80000000, 0x7FC00001], np.uint32)
        compile_instruction(parse_text(text))(m, g)
        return m.st.V[:8].copy()

    got, want = compiled_then_numpy(monkeypatch, run)
    assert np.array_equal(got, want)


@pytest.mark.parametrize(
    "text",
    [
        "global_load_b32 v6, v[2:3], off",
        "global_load_b64 v[6:7], v[2:3], off offset:8",
        "global_load_b128 v[2:5], v[2:3], off",  # the results overwrite the address
        "global_load_b32 v6, v1, s[8:9] offset:4",  # SGPR base + VGPR offset
    ],
)
@pytest.mark.parametrize("kind", ["all", "some"])
def test_global_loads_into_registers_match_the_numpy_path(monkeypatch, text, kind):
    from cass.runner.emulator.decode import parse_text
    from cass.runner.emulator.program import compile_instruction

    buffer = np.arange(1000, 1512, dtype=np.uint32)

    def run():
        m = global_machine([buffer])
        rng = np.random.default_rng(3)
        g = group("all") if kind == "all" else Group(slice(0, WAVES, 2), WAVES // 2, False)
        mask_of(m, g, rng, kind == "some")
        offsets = rng.integers(0, 100, (WAVES, 32), dtype=np.uint64) * np.uint64(4)
        addrs = np.uint64(buffer.ctypes.data) + offsets
        m.st.V[2] = (addrs & np.uint64(0xFFFFFFFF)).astype(np.uint32)
        m.st.V[3] = (addrs >> np.uint64(32)).astype(np.uint32)
        m.st.V[1] = offsets.astype(np.uint32)
        m.st.S[8] = buffer.ctypes.data & 0xFFFFFFFF
        m.st.S[9] = buffer.ctypes.data >> 32
        compile_instruction(parse_text(text))(m, g)
        return m.st.V[:8].copy()

    got, want = compiled_then_numpy(monkeypatch, run)
    assert np.array_equal(got, want)


def test_a_global_load_into_registers_past_an_allocation_is_reported():
    from cass.runner.emulator.decode import parse_text
    from cass.runner.emulator.program import compile_instruction

    buffer = np.zeros(64, np.uint32)
    m = global_machine([buffer])
    g = group("all")
    mask_of(m, g, np.random.default_rng(4), False)
    addrs = np.full((WAVES, 32), buffer.ctypes.data, np.uint64)
    addrs[5, 3] += np.uint64(buffer.nbytes)
    m.st.V[2] = (addrs & np.uint64(0xFFFFFFFF)).astype(np.uint32)
    m.st.V[3] = (addrs >> np.uint64(32)).astype(np.uint32)
    with pytest.raises(Fault) as info:
        compile_instruction(parse_text("global_load_b32 v2, v[2:3], off"))(m, g)
    assert info.value.kind == "memory" and (info.value.wave, info.value.lane) == (5, 3)
    assert np.array_equal(m.st.V[2], (addrs & np.uint64(0xFFFFFFFF)).astype(np.uint32))
