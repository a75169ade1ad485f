// Inline PTX idioms that have HIP builtin equivalents.
#include <hip/hip_runtime.h>
#include <cstdint>

__device__ __forceinline__ unsigned lane_id() {
    unsigned r;
    { r = __lane_id(); };
    return r;
}

__device__ __forceinline__ unsigned bits(unsigned x, unsigned pos, unsigned len) {
    unsigned r;
    { r = __bitextract_u32(x, pos, len); };
    return r;
}

__device__ __forceinline__ unsigned swap_bytes(unsigned x) {
    unsigned r;
    { r = __byte_perm(x, 0u, 0x0123u); };
    return r;
}

__device__ __forceinline__ void add64(unsigned& lo, unsigned& hi, unsigned a_lo, unsigned a_hi) {
    { unsigned int __cass_cc = 0; lo = __builtin_addc(lo, a_lo, 0, &__cass_cc); hi = hi + a_hi + __cass_cc; };
}

__device__ __forceinline__ float load_nc(const float* p) {
    float v;
    { v = __ldg((const float*)(p)); };
    return v;
}

__device__ __forceinline__ unsigned vote(int pred) {
    unsigned r;
    { bool __cass_p_p = (pred != 0); r = __ballot(__cass_p_p); };
    return r;
}

__global__ void kernel(const float* in, unsigned* out) {
    unsigned lo = threadIdx.x, hi = 0;
    add64(lo, hi, 0xffffffffu, 1u);
    out[threadIdx.x] = lane_id() + bits(0xabcdu, 4, 8) + swap_bytes(lo) + hi
                     + (unsigned)load_nc(in + threadIdx.x) + vote(threadIdx.x & 1);
}
