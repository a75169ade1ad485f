// Exact quantiles by radix select: four 8-bit histogram passes with atomics narrow down the k-th smallest key.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>
#include <vector>
#include <cstring>
#include <algorithm>
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

constexpr int BINS = 256;

// Histogram of the byte at `shift` among keys whose higher bytes equal `prefix` (under `mask`).
__global__ void masked_digit_histogram(const unsigned* __restrict__ keys, int n, unsigned prefix,
                                       unsigned mask, int shift, unsigned* __restrict__ hist) {
    __shared__ unsigned local[BINS];
    local[threadIdx.x] = 0;  // blockDim.x == BINS
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        const unsigned k = keys[i];
        if ((k & mask) == prefix) atomicAdd(&local[(k >> shift) & 0xffu], 1u);
    }
    __syncthreads();
    if (local[threadIdx.x]) atomicAdd(&hist[threadIdx.x], local[threadIdx.x]);
}

// Map float to an unsigned key with the same order.
static unsigned float_key(float f) {
    unsigned u;
    memcpy(&u, &f, 4);
    return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}
static float key_float(unsigned k) {
    const unsigned u = (k & 0x80000000u) ? (k & 0x7fffffffu) : ~k;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static unsigned select_kth(const unsigned* d_keys, unsigned* d_hist, int n, unsigned k) {
    unsigned prefix = 0, mask = 0;
    for (int shift = 24; shift >= 0; shift -= 8) {
        CUDA_CHECK(cudaMemset(d_hist, 0, BINS * sizeof(unsigned)));
        masked_digit_histogram<<<32, BINS>>>(d_keys, n, prefix, mask, shift, d_hist);
        CUDA_CHECK(cudaGetLastError());
        unsigned hist[BINS];
        CUDA_CHECK(cudaMemcpy(hist, d_hist, sizeof(hist), cudaMemcpyDeviceToHost));
        unsigned digit = 0;
        while (k >= hist[digit]) k -= hist[digit++];  // k-th falls in this digit's bucket
        prefix |= digit << shift;
        mask |= 0xffu << shift;
    }
    return prefix;
}

int main() {
    g_seed = 10101u;
    const int n = 50000;
    std::vector<float> x(n);
    std::vector<unsigned> keys(n);
    for (int i = 0; i < n; ++i) {
        const float u = 0.5f * (next_uniform() + 1.0f) + 1e-7f;
        x[i] = -logf(u) * 3.0f - 2.0f;  // shifted exponential: negative and positive values
        keys[i] = float_key(x[i]);
    }
    unsigned *d_keys, *d_hist;
    CUDA_CHECK(cudaMalloc(&d_keys, n * sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&d_hist, BINS * sizeof(unsigned)));
    CUDA_CHECK(cudaMemcpy(d_keys, keys.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
    const double qs[5] = {0.0, 0.1, 0.5, 0.9, 0.999};
    std::vector<float> sorted = x;
    std::sort(sorted.begin(), sorted.end());
    bool ok = true;
    printf("radix select n %d\n", n);
    for (double q : qs) {
        const unsigned k = (unsigned)(q * (n - 1));
        const float v = key_float(select_kth(d_keys, d_hist, n, k));
        if (v != sorted[k]) ok = false;
        printf("q%.3f rank %u value %.7e\n", q, k, v);
    }
    CUDA_CHECK(cudaFree(d_keys));
    CUDA_CHECK(cudaFree(d_hist));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
