"""Compiled lane loops (native/emulator_lanes.cpp, part of the cass HIP runtime library) for the
emulator's hottest memory paths, with their ctypes signatures. Each entry point returns None when
the compiled loop declined (a misaligned or out-of-bounds lane): the caller then takes its
checked numpy path, which reports the fault exactly as before."""

from __future__ import annotations

import ctypes

import numpy as np

U32 = np.uint32
_P = ctypes.c_void_p
_LDS = [_P, _P, _P, _P, ctypes.c_size_t, ctypes.c_uint32, ctypes.c_uint32, _P]
_GLOBAL = [_P, _P, ctypes.c_size_t, _P, _P, ctypes.c_size_t, ctypes.c_uint32, _P]
_INTO = [_P, _P, ctypes.c_size_t, _P, _P, ctypes.c_size_t, ctypes.c_uint32, ctypes.c_uint32]
_INTO += [ctypes.c_uint32, _P, _P]
_ROWS3 = [_P, _P, _P, _P, ctypes.c_size_t, _P, ctypes.c_size_t]
_GLOBAL_INTO = [_P, _P, _P, ctypes.c_uint64, ctypes.c_size_t, _P, ctypes.c_size_t, _P, _P]
_GLOBAL_INTO += [ctypes.c_size_t, ctypes.c_uint32, _P]
_SIGNATURES = {
    "cass_global_load_into": _GLOBAL_INTO,
    "cass_fma_f32_rows": _ROWS3,
    "cass_ds_load_into": _INTO,
    "cass_lds_load": _LDS,
    "cass_lds_store": _LDS,
    "cass_global_load": _GLOBAL,
    "cass_global_store": _GLOBAL,
}
_LIB: ctypes.CDLL | None | bool = None


def _bind(lib: ctypes.CDLL) -> ctypes.CDLL | None:
    try:
        for name, signature in _SIGNATURES.items():
            fn = getattr(lib, name)
            fn.argtypes, fn.restype = signature, ctypes.c_int
    except AttributeError:
        return None
    return lib


def _lib():
    """The runtime library of this process (a HIP program linked against a build that has the
    loops), else the current build loaded beside it; False when neither has them."""
    global _LIB
    if _LIB is None:
        lib = _bind(ctypes.CDLL(None))
        if lib is None:
            from cass.runner.emulator.build import runtime_library

            lib = _bind(ctypes.CDLL(str(runtime_library())))
        _LIB = lib or False
    return _LIB


def _pointers(arrays: list[np.ndarray]):
    return (_P * len(arrays))(*[a.ctypes.data for a in arrays])


def _mask(mask):
    """(contiguous lane mask kept alive by the caller, its address or None for all lanes)."""
    if mask is None:
        return None, None
    mask = np.ascontiguousarray(mask, bool)
    return mask, mask.ctypes.data


def _args(offs, base, mask):
    offs = np.ascontiguousarray(offs, U32)
    base = np.ascontiguousarray(base, U32)
    return offs, base, _mask(mask)


def lds_load(lds32, offs, base, mask, limit: int, nd: int):
    """`nd` arrays of k*32 dwords loaded from LDS (0 in inactive lanes), or None (take the
    checked path).

    offs: [k, 32] byte offsets within each workgroup's block; base: [k] byte offset of each
    wave's block; mask: [k, 32] bool active lanes or None for all."""
    lib = _lib()
    if not lib:
        return None
    offs, base, (mask, mask_ptr) = _args(offs, base, mask)
    out = np.empty((nd, offs.size), U32)
    status = lib.cass_lds_load(
        lds32.ctypes.data,
        offs.ctypes.data,
        base.ctypes.data,
        mask_ptr,
        base.size,
        limit,
        nd,
        _pointers(list(out)),
    )
    return None if status else list(out)


def lds_store(lds32, offs, base, mask, limit: int, data: list[np.ndarray]) -> bool:
    """Store one dword per entry of `data` for each active lane; False: take the checked path."""
    lib = _lib()
    if not lib:
        return False
    offs, base, (mask, mask_ptr) = _args(offs, base, mask)
    data = [np.ascontiguousarray(d, U32) for d in data]
    status = lib.cass_lds_store(
        lds32.ctypes.data,
        offs.ctypes.data,
        base.ctypes.data,
        mask_ptr,
        base.size,
        limit,
        len(data),
        _pointers(data),
    )
    return status == 0


def global_load(addrs, mask, table, nd: int):
    """`nd` dwords per active lane (lane order) at 64-bit addresses `addrs` [k, 32], each access
    inside one region of `table` (an AllocationTable) and dword-aligned; else None."""
    lib = _lib()
    if not lib:
        return None
    addrs = np.ascontiguousarray(addrs, np.uint64)
    mask, mask_ptr = _mask(mask)
    out = np.empty((nd, addrs.size), U32)
    status = lib.cass_global_load(
        addrs.ctypes.data,
        mask_ptr,
        addrs.size,
        table.bases.ctypes.data,
        table.limits.ctypes.data,
        table.bases.size,
        nd,
        _pointers(list(out)),
    )
    if status:
        return None
    return list(out if mask is None else out[:, mask.reshape(-1)])


def global_store(addrs, mask, table, data: list[np.ndarray]) -> bool:
    """Store one dword per entry of `data` (active lanes, lane order); False: checked path."""
    lib = _lib()
    if not lib:
        return False
    addrs = np.ascontiguousarray(addrs, np.uint64)
    mask, mask_ptr = _mask(mask)
    data = [np.ascontiguousarray(d, U32) for d in data]
    status = lib.cass_global_store(
        addrs.ctypes.data,
        mask_ptr,
        addrs.size,
        table.bases.ctypes.data,
        table.limits.ctypes.data,
        table.bases.size,
        len(data),
        _pointers(data),
    )
    return status == 0


def ds_load_into(
    lds32, addr_row, wave_stride: int, base, mask, limit: int, nd: int, offsets, dst_rows
) -> bool:
    """DS load of `nd` dwords at each of `offsets` (1 or 2) from every active lane's address
    (`addr_row`, a [k, wave_stride] register view) straight into `dst_rows` (len(offsets) * nd
    register views of the same layout); 0 beyond `limit`. False: take the numpy path."""
    lib = _lib()
    if not lib:
        return False
    base = np.ascontiguousarray(base, U32)
    mask, mask_ptr = _mask(mask)
    offs = np.array(offsets, U32)
    status = lib.cass_ds_load_into(
        lds32.ctypes.data,
        addr_row.ctypes.data,
        wave_stride,
        base.ctypes.data,
        mask_ptr,
        base.size,
        limit,
        nd,
        offs.size,
        offs.ctypes.data,
        _pointers(dst_rows),
    )
    return status == 0


def fma_f32_rows(a, b, c, dst, wave_stride: int, mask, waves: int) -> bool:
    """dst = fma(a, b, c) (f32 bits in VGPR rows [k, wave_stride]) in the active lanes."""
    lib = _lib()
    if not lib:
        return False
    mask, mask_ptr = _mask(mask)
    lib.cass_fma_f32_rows(
        a.ctypes.data, b.ctypes.data, c.ctypes.data, dst.ctypes.data, wave_stride, mask_ptr, waves
    )
    return True


def global_load_into(lo, hi, wave_base, offset: int, wave_stride: int, mask, table, dst_rows):
    """Global load of len(dst_rows) dwords per active lane straight into VGPR rows; addresses
    from VGPR rows `lo`/`hi` (hi None: `wave_base` [k] uint64 + lo) + `offset`. False: the
    compiled loop declined (misaligned, outside every allocation) and nothing was written."""
    lib = _lib()
    if not lib:
        return False
    mask, mask_ptr = _mask(mask)
    if wave_base is not None:
        wave_base = np.ascontiguousarray(wave_base, np.uint64)
    status = lib.cass_global_load_into(
        lo.ctypes.data,
        None if hi is None else hi.ctypes.data,
        None if wave_base is None else wave_base.ctypes.data,
        offset & 0xFFFFFFFFFFFFFFFF,
        wave_stride,
        mask_ptr,
        lo.shape[0],
        table.bases.ctypes.data,
        table.limits.ctypes.data,
        table.bases.size,
        len(dst_rows),
        _pointers(dst_rows),
    )
    return status == 0
