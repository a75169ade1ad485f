// Device-side malloc/free for HIP programs built by the emulator (force-included by
// cass.runner.emulator.build). clang-16's HIP wrapper maps device malloc/free to
// __ockl_dm_alloc/__ockl_dm_dealloc, but ROCm 5.2's ockl implements them with s_memrealtime,
// which gfx11 lacks: LLVM 16 crashes compiling any kernel that calls malloc for gfx1100.
// These definitions take precedence (the device libraries are linked only for symbols the
// program leaves undefined) and ask the host through the hostcall protocol, service 3
// (SERVICE_DEVMEM): slot 0 = size allocates and returns the pointer (0 when the heap is
// full); slot 0 = 0 with slot 1 = pointer frees it.
#pragma once
#if defined(__HIP_DEVICE_COMPILE__)
typedef long __cass_long2 __attribute__((ext_vector_type(2)));
extern "C" __device__ __cass_long2 __ockl_hostcall_preview(unsigned int service, unsigned long a0,
                                                          unsigned long a1, unsigned long a2,
                                                          unsigned long a3, unsigned long a4,
                                                          unsigned long a5, unsigned long a6,
                                                          unsigned long a7);
#define __CASS_SERVICE_DEVMEM 3u

extern "C" __device__ __attribute__((weak)) unsigned long long __ockl_dm_alloc(
    unsigned long long size) {
  if (size == 0) return 0;
  return (unsigned long long)__ockl_hostcall_preview(__CASS_SERVICE_DEVMEM, size, 0, 0, 0, 0,
                                                     0, 0, 0)
      .x;
}

extern "C" __device__ __attribute__((weak)) void __ockl_dm_dealloc(unsigned long long addr) {
  if (addr != 0) __ockl_hostcall_preview(__CASS_SERVICE_DEVMEM, 0, addr, 0, 0, 0, 0, 0, 0);
}
#endif
