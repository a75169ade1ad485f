// Replacements for ROCm 5.2 device-library functions that clang-16 cannot build for gfx1100,
// force-included into every HIP program the emulator builds (cass.runner.emulator.build).
//
// Device-side malloc/free. clang-16's HIP wrapper maps device malloc/free to
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

// Workgroup reductions behind __syncthreads_count/_and/_or at -O0. ROCm 5.2's ockl picks its
// wave reduction by ISA version at run time; at -O0 nothing folds those branches, and the
// gfx8/gfx9 branch (DPP wave shifts) is illegal on gfx11, so clang-16 stops with "Illegal
// instruction detected". These take precedence as above; optimised builds keep ockl's.
#if defined(__HIP_DEVICE_COMPILE__) && !defined(__OPTIMIZE__)
static __device__ inline void __cass_barrier() {  // __syncthreads (hip_runtime.h comes later)
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
static __device__ inline int __cass_wgred(int a, int op) {
  __shared__ int acc;
  const bool first = __builtin_amdgcn_workitem_id_x() == 0 &&
                     __builtin_amdgcn_workitem_id_y() == 0 && __builtin_amdgcn_workitem_id_z() == 0;
  __cass_barrier();  // every reader of the previous result is done
  if (first) acc = op == 1 ? -1 : 0;
  __cass_barrier();
  if (op == 0) __atomic_fetch_add(&acc, a, __ATOMIC_RELAXED);
  if (op == 1) __atomic_fetch_and(&acc, a, __ATOMIC_RELAXED);
  if (op == 2) __atomic_fetch_or(&acc, a, __ATOMIC_RELAXED);
  __cass_barrier();
  return acc;
}
extern "C" __device__ __attribute__((weak, convergent)) int __ockl_wgred_add_i32(int a) {
  return __cass_wgred(a, 0);
}
extern "C" __device__ __attribute__((weak, convergent)) int __ockl_wgred_and_i32(int a) {
  return __cass_wgred(a, 1);
}
extern "C" __device__ __attribute__((weak, convergent)) int __ockl_wgred_or_i32(int a) {
  return __cass_wgred(a, 2);
}
#endif
