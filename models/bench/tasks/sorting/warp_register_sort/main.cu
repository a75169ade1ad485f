// Sorting 32-key groups entirely in registers: a bitonic network over the lanes of a warp with __shfl_xor_sync.
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

// Lane `lane` holds one key; after the network the warp's keys are ascending by lane.
__device__ __forceinline__ unsigned warp_bitonic_sort(unsigned key, int lane) {
    for (int size = 2; size <= 32; size <<= 1) {
        for (int stride = size >> 1; stride > 0; stride >>= 1) {
            const unsigned other = __shfl_xor_sync(0xffffffffu, key, stride);
            const bool ascending = (lane & size) == 0 || size == 32;
            const bool lower = (lane & stride) == 0;
            // The lower lane of a pair keeps the smaller key in an ascending run, the larger otherwise.
            const bool keep_min = (lower == ascending);
            key = keep_min ? min(key, other) : max(key, other);
        }
    }
    return key;
}

__global__ void sort_groups(unsigned* keys, int groups, unsigned* group_max) {
    const int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const int lane = threadIdx.x & 31;
    if (warp >= groups) return;
    const unsigned sorted = warp_bitonic_sort(keys[warp * 32 + lane], lane);
    keys[warp * 32 + lane] = sorted;
    if (lane == 31) group_max[warp] = sorted;
}

int main() {
    g_seed = 4321234u;
    const int groups = 2048, n = groups * 32;
    std::vector<unsigned> keys(n), out(n), gmax(groups);
    for (auto& k : keys) k = next_u32() % 100000u;
    unsigned *d_keys, *d_max;
    CUDA_CHECK(cudaMalloc(&d_keys, n * sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&d_max, groups * sizeof(unsigned)));
    CUDA_CHECK(cudaMemcpy(d_keys, keys.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
    sort_groups<<<n / 256, 256>>>(d_keys, groups, d_max);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(out.data(), d_keys, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(gmax.data(), d_max, groups * sizeof(unsigned), cudaMemcpyDeviceToHost));

    bool ok = true;
    uint64_t checksum = 0, max_sum = 0;
    for (int g = 0; g < groups; ++g) {
        std::vector<unsigned> ref(keys.begin() + g * 32, keys.begin() + (g + 1) * 32);
        std::sort(ref.begin(), ref.end());
        for (int l = 0; l < 32; ++l) {
            if (ref[l] != out[g * 32 + l]) ok = false;
            checksum += (uint64_t)out[g * 32 + l] * (uint64_t)(l + 1);
        }
        if (gmax[g] != ref[31]) ok = false;
        max_sum += gmax[g];
    }
    printf("warp register sort groups %d\n", groups);
    printf("group0 min %u max %u\n", out[0], out[31]);
    printf("rank_weighted_checksum %llu sum_of_group_max %llu\n", (unsigned long long)checksum,
           (unsigned long long)max_sum);
    CUDA_CHECK(cudaFree(d_keys));
    CUDA_CHECK(cudaFree(d_max));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
