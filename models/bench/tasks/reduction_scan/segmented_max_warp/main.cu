// Segmented max/argmax: one warp per variable-length segment, ties broken by the lowest index.
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

#include <climits>

struct MaxLoc {
    int value;
    int index;
};

__device__ __forceinline__ MaxLoc better(MaxLoc a, MaxLoc b) {
    if (b.value > a.value || (b.value == a.value && b.index >= 0 && (a.index < 0 || b.index < a.index)))
        return b;
    return a;
}

__global__ void segmented_argmax(const int* __restrict__ values, const int* __restrict__ offsets,
                                 int num_segments, int* __restrict__ seg_max,
                                 int* __restrict__ seg_arg) {
    const int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const int lane = threadIdx.x & 31;
    if (warp >= num_segments) return;
    const int begin = offsets[warp], end = offsets[warp + 1];
    MaxLoc best{INT_MIN, -1};
    for (int i = begin + lane; i < end; i += 32) best = better(best, MaxLoc{values[i], i});
    for (int offset = 16; offset > 0; offset >>= 1) {
        MaxLoc other;
        other.value = __shfl_xor_sync(0xffffffffu, best.value, offset);
        other.index = __shfl_xor_sync(0xffffffffu, best.index, offset);
        best = better(best, other);
    }
    if (lane == 0) {
        seg_max[warp] = best.value;
        seg_arg[warp] = best.index;
    }
}

int main() {
    g_seed = 606u;
    const int num_segments = 1024;
    std::vector<int> offsets(num_segments + 1, 0);
    for (int s = 0; s < num_segments; ++s) {
        const int len = (s % 97 == 0) ? 0 : (int)(next_u32() % 150u) + 1;  // a few empty segments
        offsets[s + 1] = offsets[s] + len;
    }
    const int n = offsets[num_segments];
    std::vector<int> values(n);
    for (auto& v : values) v = (int)(next_u32() % 5000u) - 2500;  // many ties
    int *d_values, *d_offsets, *d_max, *d_arg;
    CUDA_CHECK(cudaMalloc(&d_values, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_offsets, (num_segments + 1) * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_max, num_segments * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_arg, num_segments * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_values, values.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_offsets, offsets.data(), (num_segments + 1) * sizeof(int),
                          cudaMemcpyHostToDevice));
    const int threads = 128;
    const int blocks = (num_segments * 32 + threads - 1) / threads;
    segmented_argmax<<<blocks, threads>>>(d_values, d_offsets, num_segments, d_max, d_arg);
    CUDA_CHECK(cudaGetLastError());
    std::vector<int> seg_max(num_segments), seg_arg(num_segments);
    CUDA_CHECK(cudaMemcpy(seg_max.data(), d_max, num_segments * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(seg_arg.data(), d_arg, num_segments * sizeof(int), cudaMemcpyDeviceToHost));

    bool ok = true;
    long long sum_max = 0;
    uint32_t arg_hash = 0;
    int empty = 0;
    for (int s = 0; s < num_segments; ++s) {
        int rmax = INT_MIN, rarg = -1;
        for (int i = offsets[s]; i < offsets[s + 1]; ++i)
            if (values[i] > rmax) {
                rmax = values[i];
                rarg = i;
            }
        if (rmax != seg_max[s] || rarg != seg_arg[s]) ok = false;
        if (rarg < 0) {
            ++empty;
            continue;
        }
        sum_max += seg_max[s];
        arg_hash = arg_hash * 31u + (uint32_t)seg_arg[s];
    }
    printf("segments %d elements %d empty %d\n", num_segments, n, empty);
    printf("sum_of_max %lld arg_hash %u\n", sum_max, arg_hash);
    printf("seg[1] max %d at %d, seg[1023] max %d at %d\n", seg_max[1], seg_arg[1], seg_max[1023],
           seg_arg[1023]);
    CUDA_CHECK(cudaFree(d_values));
    CUDA_CHECK(cudaFree(d_offsets));
    CUDA_CHECK(cudaFree(d_max));
    CUDA_CHECK(cudaFree(d_arg));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
