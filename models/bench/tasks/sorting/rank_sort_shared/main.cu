// Rank (counting) sort: each element counts the keys that precede it, tiles of keys staged in shared memory.
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

constexpr int TILE = 256;

__global__ void rank_scatter(const float* __restrict__ keys, int n, float* __restrict__ out,
                             int* __restrict__ perm) {
    __shared__ float tile[TILE];
    const int i = blockIdx.x * TILE + threadIdx.x;
    const float v = i < n ? keys[i] : 0.0f;
    int rank = 0;
    for (int base = 0; base < n; base += TILE) {
        if (base + threadIdx.x < n) tile[threadIdx.x] = keys[base + threadIdx.x];
        __syncthreads();
        const int limit = min(TILE, n - base);
        for (int k = 0; k < limit; ++k) {
            const float w = tile[k];
            const int j = base + k;
            rank += (w < v || (w == v && j < i)) ? 1 : 0;  // ties keep input order: stable
        }
        __syncthreads();
    }
    if (i < n) {
        out[rank] = v;
        perm[rank] = i;
    }
}

int main() {
    g_seed = 271828u;
    const int n = 2000;
    std::vector<float> h(n), out(n);
    std::vector<int> perm(n);
    for (auto& v : h) v = (float)(next_u32() % 700u) * 0.25f - 50.0f;  // many duplicates
    float *d_keys, *d_out;
    int* d_perm;
    CUDA_CHECK(cudaMalloc(&d_keys, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_perm, n * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_keys, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    rank_scatter<<<(n + TILE - 1) / TILE, TILE>>>(d_keys, n, d_out, d_perm);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(perm.data(), d_perm, n * sizeof(int), cudaMemcpyDeviceToHost));

    bool ok = true;
    std::vector<int> seen(n, 0);
    uint64_t perm_hash = 0;
    for (int r = 0; r < n; ++r) {
        const int src = perm[r];
        if (src < 0 || src >= n || seen[src]++ || h[src] != out[r]) {
            ok = false;
            break;
        }
        if (r > 0 && (out[r - 1] > out[r] || (out[r - 1] == out[r] && perm[r - 1] > perm[r]))) ok = false;
        perm_hash = perm_hash * 131ull + (uint64_t)src;
    }
    printf("rank sort n %d\n", n);
    printf("min %.2f median %.2f max %.2f\n", out[0], out[n / 2], out[n - 1]);
    printf("perm head %d %d %d tail %d\n", perm[0], perm[1], perm[2], perm[n - 1]);
    printf("perm_hash %llu\n", (unsigned long long)perm_hash);
    CUDA_CHECK(cudaFree(d_keys));
    CUDA_CHECK(cudaFree(d_out));
    CUDA_CHECK(cudaFree(d_perm));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
