"""The device malloc heap: one arena that lives as long as the emulated device (memory a kernel
allocates stays valid for later kernels until it is freed, as with CUDA/HIP device malloc),
served through hostcall service 3 (see native/device_lib_overrides.h). First-fit with coalescing,
16-byte aligned blocks; a request that does not fit returns 0 (device malloc returns NULL)."""

from __future__ import annotations

import bisect

import numpy as np

SERVICE_DEVMEM = 3
HEAP_BYTES = 8 << 20  # CUDA's default device malloc heap (cudaLimitMallocHeapSize)
ALIGN = 16


class DeviceHeap:
    def __init__(self, size: int = HEAP_BYTES) -> None:
        self._block = np.zeros(size + ALIGN, np.uint8)
        self.address = (self._block.ctypes.data + ALIGN - 1) & ~(ALIGN - 1)
        self.size = size
        self._free: list[tuple[int, int]] = [(0, size)]  # sorted (offset, length)
        self._used: dict[int, int] = {}  # offset -> length

    def alloc(self, nbytes: int) -> int:
        need = max(ALIGN, (nbytes + ALIGN - 1) & ~(ALIGN - 1))
        for i, (off, length) in enumerate(self._free):
            if length >= need:
                if length == need:
                    del self._free[i]
                else:
                    self._free[i] = (off + need, length - need)
                self._used[off] = need
                return self.address + off
        return 0

    def free(self, address: int) -> bool:
        """Release a block; False when `address` is not a live allocation of this heap."""
        off = address - self.address
        length = self._used.pop(off, None)
        if length is None:
            return False
        i = bisect.bisect_left(self._free, (off, 0))
        self._free.insert(i, (off, length))
        self._coalesce(i)
        return True

    def _coalesce(self, i: int) -> None:
        if i + 1 < len(self._free) and sum(self._free[i]) == self._free[i + 1][0]:
            self._free[i] = (self._free[i][0], self._free[i][1] + self._free.pop(i + 1)[1])
        if i > 0 and sum(self._free[i - 1]) == self._free[i][0]:
            self._free[i - 1] = (self._free[i - 1][0], self._free[i - 1][1] + self._free.pop(i)[1])

    def serve(self, slots) -> None:
        """One lane of a SERVICE_DEVMEM packet: slot 0 = size allocates, else slot 1 is freed.
        Freeing a pointer the heap did not hand out is ignored, as free() of a foreign pointer
        is undefined on the device."""
        size = int(slots[0])
        if size:
            slots[0] = self.alloc(size)
        else:
            self.free(int(slots[1]))
            slots[0] = 0
        slots[1] = 0

    @property
    def in_use(self) -> int:
        return sum(self._used.values())


__all__ = ["HEAP_BYTES", "SERVICE_DEVMEM", "DeviceHeap"]
