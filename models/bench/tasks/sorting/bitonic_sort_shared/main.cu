// Bitonic sort of 1024-key tiles in shared memory, one tile per block, two keys per thread.
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

#include <algorithm>

constexpr int TILE = 1024;

__device__ __forceinline__ void compare_swap(unsigned int* s, int a, int b, bool ascending) {
    const unsigned int x = s[a], y = s[b];
    if ((x > y) == ascending) {
        s[a] = y;
        s[b] = x;
    }
}

__global__ void bitonic_sort_tiles(unsigned int* keys) {
    __shared__ unsigned int s[TILE];
    unsigned int* tile = keys + blockIdx.x * TILE;
    const int t = threadIdx.x;  // TILE / 2 threads
    s[t] = tile[t];
    s[t + TILE / 2] = tile[t + TILE / 2];
    __syncthreads();
    for (int size = 2; size <= TILE; size <<= 1) {
        for (int stride = size >> 1; stride > 0; stride >>= 1) {
            // Thread t handles the pair (i, i + stride) where i has the stride bit clear.
            const int i = 2 * t - (t & (stride - 1));
            const bool ascending = (i & size) == 0;
            compare_swap(s, i, i + stride, ascending);
            __syncthreads();
        }
    }
    tile[t] = s[t];
    tile[t + TILE / 2] = s[t + TILE / 2];
}

int main() {
    g_seed = 3141u;
    const int tiles = 32, n = tiles * TILE;
    std::vector<unsigned int> h(n), out(n);
    for (auto& v : h) v = next_u32() % 1000000u;
    unsigned int* d;
    CUDA_CHECK(cudaMalloc(&d, n * sizeof(unsigned int)));
    CUDA_CHECK(cudaMemcpy(d, h.data(), n * sizeof(unsigned int), cudaMemcpyHostToDevice));
    bitonic_sort_tiles<<<tiles, TILE / 2>>>(d);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(out.data(), d, n * sizeof(unsigned int), cudaMemcpyDeviceToHost));

    bool ok = true;
    uint64_t weighted = 0;
    for (int t = 0; t < tiles; ++t) {
        std::vector<unsigned int> ref(h.begin() + t * TILE, h.begin() + (t + 1) * TILE);
        std::sort(ref.begin(), ref.end());
        for (int i = 0; i < TILE; ++i) {
            if (out[t * TILE + i] != ref[i]) ok = false;
            weighted += (uint64_t)out[t * TILE + i] * (uint64_t)(i + 1);
        }
    }
    printf("bitonic tiles %d tile %d\n", tiles, TILE);
    printf("tile0 min %u median %u max %u\n", out[0], out[TILE / 2], out[TILE - 1]);
    printf("tile31 min %u max %u\n", out[31 * TILE], out[32 * TILE - 1]);
    printf("position_weighted_sum %llu\n", (unsigned long long)weighted);
    CUDA_CHECK(cudaFree(d));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
