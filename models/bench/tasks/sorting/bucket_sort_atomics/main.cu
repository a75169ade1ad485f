// Bucket sort: atomic bucket counts, atomic-cursor scatter, then a padded bitonic sort of each bucket in shared memory.
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

constexpr int BUCKETS = 64;
constexpr int CAP = 1024;        // largest bucket the per-bucket sort handles
constexpr int KEY_BITS = 20;
constexpr int SHIFT = KEY_BITS - 6;  // 64 buckets

__global__ void count_buckets(const unsigned* __restrict__ keys, int n, int* counts) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&counts[keys[i] >> SHIFT], 1);
}

// Order inside a bucket after this pass depends on scheduling; the bucket sort fixes it.
__global__ void scatter_buckets(const unsigned* __restrict__ keys, int n, int* cursors,
                                unsigned* __restrict__ out) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[atomicAdd(&cursors[keys[i] >> SHIFT], 1)] = keys[i];
}

__global__ void __launch_bounds__(CAP / 2) sort_buckets(unsigned* data, const int* offsets) {
    __shared__ unsigned s[CAP];
    const int begin = offsets[blockIdx.x], len = offsets[blockIdx.x + 1] - begin;
    for (int i = threadIdx.x; i < CAP; i += blockDim.x) s[i] = i < len ? data[begin + i] : 0xffffffffu;
    __syncthreads();
    const int t = threadIdx.x;
    for (int size = 2; size <= CAP; size <<= 1)
        for (int stride = size >> 1; stride > 0; stride >>= 1) {
            const int i = 2 * t - (t & (stride - 1));
            const bool up = (i & size) == 0;
            const unsigned a = s[i], b = s[i + stride];
            if ((a > b) == up) {
                s[i] = b;
                s[i + stride] = a;
            }
            __syncthreads();
        }
    for (int i = threadIdx.x; i < len; i += blockDim.x) data[begin + i] = s[i];
}

int main() {
    g_seed = 123u;
    const int n = 16384;
    std::vector<unsigned> h(n), out(n);
    for (auto& v : h) v = next_u32() >> (32 - KEY_BITS);
    unsigned *d_keys, *d_out;
    int *d_counts, *d_offsets;
    CUDA_CHECK(cudaMalloc(&d_keys, n * sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&d_counts, BUCKETS * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_offsets, (BUCKETS + 1) * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_keys, h.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_counts, 0, BUCKETS * sizeof(int)));
    count_buckets<<<(n + 255) / 256, 256>>>(d_keys, n, d_counts);
    CUDA_CHECK(cudaGetLastError());
    std::vector<int> counts(BUCKETS), offsets(BUCKETS + 1, 0);
    CUDA_CHECK(cudaMemcpy(counts.data(), d_counts, BUCKETS * sizeof(int), cudaMemcpyDeviceToHost));
    int largest = 0;
    for (int b = 0; b < BUCKETS; ++b) {
        offsets[b + 1] = offsets[b] + counts[b];
        largest = std::max(largest, counts[b]);
    }
    if (largest > CAP) {
        printf("bucket of %d keys exceeds capacity %d\nCHECK FAIL\n", largest, CAP);
        return 1;
    }
    CUDA_CHECK(cudaMemcpy(d_offsets, offsets.data(), (BUCKETS + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_counts, offsets.data(), BUCKETS * sizeof(int), cudaMemcpyHostToDevice));
    scatter_buckets<<<(n + 255) / 256, 256>>>(d_keys, n, d_counts, d_out);
    CUDA_CHECK(cudaGetLastError());
    sort_buckets<<<BUCKETS, CAP / 2>>>(d_out, d_offsets);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(unsigned), cudaMemcpyDeviceToHost));

    std::vector<unsigned> ref = h;
    std::sort(ref.begin(), ref.end());
    const bool ok = out == ref;
    uint64_t checksum = 0;
    for (int i = 0; i < n; i += 7) checksum += (uint64_t)out[i] * (uint64_t)(i + 3);
    printf("bucket sort n %d buckets %d largest %d\n", n, BUCKETS, largest);
    printf("bucket sizes [0] %d [31] %d [63] %d\n", counts[0], counts[31], counts[63]);
    printf("out[0] %u out[8192] %u out[%d] %u\n", out[0], out[8192], n - 1, out[n - 1]);
    printf("sampled_checksum %llu\n", (unsigned long long)checksum);
    CUDA_CHECK(cudaFree(d_keys));
    CUDA_CHECK(cudaFree(d_out));
    CUDA_CHECK(cudaFree(d_counts));
    CUDA_CHECK(cudaFree(d_offsets));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
