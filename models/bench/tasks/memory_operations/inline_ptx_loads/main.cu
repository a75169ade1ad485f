// Inline PTX in a copy kernel: non-coherent vector loads, streaming stores, %laneid and bfe bit-field extraction.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                          \
    do {                                                                          \
        cudaError_t err_ = (call);                                                \
        if (err_ != cudaSuccess) {                                                \
            fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_), \
                    __FILE__, __LINE__);                                          \
            exit(2);                                                              \
        }                                                                         \
    } while (0)

// Deterministic input generator (LCG); never rand() or the clock.
static uint32_t g_seed = 12345u;
inline uint32_t next_u32() {
    g_seed = g_seed * 1664525u + 1013904223u;
    return g_seed;
}
inline float next_uniform() {  // uniform in [-1, 1)
    return (float)(next_u32() >> 8) * (2.0f / 16777216.0f) - 1.0f;
}

__device__ __forceinline__ float4 load_nc_v4(const float4* p) {
    float4 v;
    asm volatile("ld.global.nc.v4.f32 {%0, %1, %2, %3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "l"(p));
    return v;
}

__device__ __forceinline__ void store_streaming(float* p, float v) {
    asm volatile("st.global.cs.f32 [%0], %1;" ::"l"(p), "f"(v) : "memory");
}

__device__ __forceinline__ unsigned lane_id() {
    unsigned r;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(r));
    return r;
}

__device__ __forceinline__ unsigned bit_field(unsigned x, unsigned pos, unsigned len) {
    unsigned r;
    asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(pos), "r"(len));
    return r;
}

// out[i] = 2 * in[i] + 1, reading four floats at a time through the non-coherent path.
__global__ void scale_copy(const float4* __restrict__ in, float* __restrict__ out, int n4) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n4) return;
    const float4 v = load_nc_v4(in + i);
    store_streaming(out + 4 * i + 0, 2.0f * v.x + 1.0f);
    store_streaming(out + 4 * i + 1, 2.0f * v.y + 1.0f);
    store_streaming(out + 4 * i + 2, 2.0f * v.z + 1.0f);
    store_streaming(out + 4 * i + 3, 2.0f * v.w + 1.0f);
}

// Unpack 10-bit fields of packed words; count lanes whose PTX lane id disagrees with threadIdx.
__global__ void unpack_fields(const unsigned* __restrict__ packed, int n, unsigned* __restrict__ fields,
                              int* lane_mismatches) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (lane_id() != (threadIdx.x & 31)) atomicAdd(lane_mismatches, 1);
    if (i >= n) return;
    const unsigned w = packed[i];
    fields[3 * i + 0] = bit_field(w, 0, 10);
    fields[3 * i + 1] = bit_field(w, 10, 10);
    fields[3 * i + 2] = bit_field(w, 20, 10);
}

int main() {
    g_seed = 7007u;
    const int n = 1 << 15, nw = 10000;
    std::vector<float> h(n), out(n);
    std::vector<unsigned> packed(nw), fields(3 * nw);
    for (auto& v : h) v = next_uniform();
    for (auto& w : packed) w = next_u32();
    float *d_in, *d_out;
    unsigned *d_packed, *d_fields;
    int* d_mis;
    CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_packed, nw * sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&d_fields, 3 * nw * sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&d_mis, sizeof(int)));
    CUDA_CHECK(cudaMemset(d_mis, 0, sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_packed, packed.data(), nw * sizeof(unsigned), cudaMemcpyHostToDevice));
    scale_copy<<<n / 4 / 128, 128>>>(reinterpret_cast<const float4*>(d_in), d_out, n / 4);
    CUDA_CHECK(cudaGetLastError());
    unpack_fields<<<(nw + 127) / 128, 128>>>(d_packed, nw, d_fields, d_mis);
    CUDA_CHECK(cudaGetLastError());
    int mismatches = -1;
    CUDA_CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(fields.data(), d_fields, 3 * nw * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&mismatches, d_mis, sizeof(int), cudaMemcpyDeviceToHost));

    bool ok = mismatches == 0;
    double sum = 0.0;
    unsigned long long field_sum = 0;
    for (int i = 0; i < n; ++i) {
        if (fabsf(out[i] - (2.0f * h[i] + 1.0f)) > 1e-6f) ok = false;
        sum += out[i];
    }
    for (int i = 0; i < nw; ++i)
        for (int f = 0; f < 3; ++f) {
            const unsigned ref = (packed[i] >> (10 * f)) & 1023u;
            if (fields[3 * i + f] != ref) ok = false;
            field_sum += (unsigned long long)fields[3 * i + f] * (f + 1);
        }
    printf("inline ptx copy n %d words %d\n", n, nw);
    printf("sum %.6e out[7] %.6e\n", sum, out[7]);
    printf("field_sum %llu lane_mismatches %d\n", field_sum, mismatches);
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    CUDA_CHECK(cudaFree(d_packed));
    CUDA_CHECK(cudaFree(d_fields));
    CUDA_CHECK(cudaFree(d_mis));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
