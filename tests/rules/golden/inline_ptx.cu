// Inline PTX idioms that have HIP builtin equivalents.
#include <cuda_runtime.h>
#include <cstdint>

__device__ __forceinline__ unsigned lane_id() {
    unsigned r;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(r));
    return r;
}

__device__ __forceinline__ unsigned bits(unsigned x, unsigned pos, unsigned len) {
    unsigned r;
    asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(pos), "r"(len));
    return r;
}

__device__ __forceinline__ unsigned swap_bytes(unsigned x) {
    unsigned r;
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(0u), "r"(0x0123u));
    return r;
}

__device__ __forceinline__ void add64(unsigned& lo, unsigned& hi, unsigned a_lo, unsigned a_hi) {
    asm("add.cc.u32 %0, %0, %2;\n\t"
        "addc.u32 %1, %1, %3;"
        : "+r"(lo), "+r"(hi)
        : "r"(a_lo), "r"(a_hi));
}

__device__ __forceinline__ float load_nc(const float* p) {
    float v;
    asm volatile("ld.global.nc.f32 %0, [%1];" : "=f"(v) : "l"(p));
    return v;
}

__device__ __forceinline__ unsigned vote(int pred) {
    unsigned r;
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %1, 0;\n\tvote.sync.ballot.b32 %0, p, 0xffffffff;\n\t}"
                 : "=r"(r) : "r"(pred));
    return r;
}

__global__ void kernel(const float* in, unsigned* out) {
    unsigned lo = threadIdx.x, hi = 0;
    add64(lo, hi, 0xffffffffu, 1u);
    out[threadIdx.x] = lane_id() + bits(0xabcdu, 4, 8) + swap_bytes(lo) + hi
                     + (unsigned)load_nc(in + threadIdx.x) + vote(threadIdx.x & 1);
}
