// LSD radix sort of 16-bit keys with payloads: per-block digit histograms, a device scan, stable ballot-ranked scatter.
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

constexpr int THREADS = 256;
constexpr int WARPS = THREADS / 32;
constexpr int RADIX = 16;  // 4 bits per pass, 4 passes for 16-bit keys

__global__ void digit_histogram(const unsigned* __restrict__ keys, int n, int shift,
                                unsigned* __restrict__ hist, int nblocks) {
    __shared__ unsigned counts[RADIX];
    if (threadIdx.x < RADIX) counts[threadIdx.x] = 0;
    __syncthreads();
    const int i = blockIdx.x * THREADS + threadIdx.x;
    if (i < n) atomicAdd(&counts[(keys[i] >> shift) & (RADIX - 1)], 1u);
    __syncthreads();
    if (threadIdx.x < RADIX) hist[threadIdx.x * nblocks + blockIdx.x] = counts[threadIdx.x];
}

// Exclusive scan of the digit-major histogram table (RADIX * nblocks entries) in one block.
__global__ void scan_histogram(unsigned* hist, int total) {
    __shared__ unsigned partial[THREADS];
    const int per = (total + THREADS - 1) / THREADS;
    const int begin = threadIdx.x * per, end = min(begin + per, total);
    unsigned s = 0;
    for (int i = begin; i < end; ++i) s += hist[i];
    partial[threadIdx.x] = s;
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned run = 0;
        for (int t = 0; t < THREADS; ++t) {
            const unsigned c = partial[t];
            partial[t] = run;
            run += c;
        }
    }
    __syncthreads();
    unsigned run = partial[threadIdx.x];
    for (int i = begin; i < end; ++i) {
        const unsigned c = hist[i];
        hist[i] = run;
        run += c;
    }
}

__global__ void scatter_stable(const unsigned* __restrict__ keys_in, const int* __restrict__ vals_in,
                               unsigned* __restrict__ keys_out, int* __restrict__ vals_out, int n,
                               int shift, const unsigned* __restrict__ hist, int nblocks) {
    __shared__ unsigned warp_counts[WARPS][RADIX];
    const int i = blockIdx.x * THREADS + threadIdx.x;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const bool valid = i < n;
    const unsigned digit = valid ? (keys_in[i] >> shift) & (RADIX - 1) : RADIX;
    unsigned rank_in_warp = 0;
    for (unsigned d = 0; d < RADIX; ++d) {
        const unsigned mask = __ballot_sync(0xffffffffu, digit == d);
        if (digit == d) rank_in_warp = __popc(mask & ((1u << lane) - 1u));
        if (lane == 0) warp_counts[warp][d] = __popc(mask);
    }
    __syncthreads();
    if (!valid) return;
    unsigned before = 0;
    for (int w = 0; w < warp; ++w) before += warp_counts[w][digit];
    const unsigned dst = hist[digit * nblocks + blockIdx.x] + before + rank_in_warp;
    keys_out[dst] = keys_in[i];
    vals_out[dst] = vals_in[i];
}

int main() {
    g_seed = 65536u;
    const int n = 30000, nblocks = (n + THREADS - 1) / THREADS;
    std::vector<unsigned> keys(n);
    std::vector<int> vals(n);
    for (int i = 0; i < n; ++i) {
        keys[i] = next_u32() >> 16;
        vals[i] = i;
    }
    unsigned *dk[2], *dhist;
    int* dv[2];
    for (int b = 0; b < 2; ++b) {
        CUDA_CHECK(cudaMalloc(&dk[b], n * sizeof(unsigned)));
        CUDA_CHECK(cudaMalloc(&dv[b], n * sizeof(int)));
    }
    CUDA_CHECK(cudaMalloc(&dhist, RADIX * nblocks * sizeof(unsigned)));
    CUDA_CHECK(cudaMemcpy(dk[0], keys.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dv[0], vals.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    int cur = 0;
    for (int shift = 0; shift < 16; shift += 4) {
        digit_histogram<<<nblocks, THREADS>>>(dk[cur], n, shift, dhist, nblocks);
        scan_histogram<<<1, THREADS>>>(dhist, RADIX * nblocks);
        scatter_stable<<<nblocks, THREADS>>>(dk[cur], dv[cur], dk[1 - cur], dv[1 - cur], n, shift,
                                             dhist, nblocks);
        CUDA_CHECK(cudaGetLastError());
        cur = 1 - cur;
    }
    std::vector<unsigned> sk(n);
    std::vector<int> sv(n);
    CUDA_CHECK(cudaMemcpy(sk.data(), dk[cur], n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(sv.data(), dv[cur], n * sizeof(int), cudaMemcpyDeviceToHost));

    // Stable sort check: keys ascending, equal keys keep their original order (payload = index).
    bool ok = true;
    uint64_t hash = 0;
    std::vector<int> seen(n, 0);
    for (int i = 0; i < n; ++i) {
        if (sv[i] < 0 || sv[i] >= n || seen[sv[i]]++ || keys[sv[i]] != sk[i]) ok = false;
        if (i > 0 && (sk[i - 1] > sk[i] || (sk[i - 1] == sk[i] && sv[i - 1] > sv[i]))) ok = false;
        hash = hash * 1000003ull + (uint64_t)sv[i];
    }
    printf("radix sort pairs n %d passes 4\n", n);
    printf("keys first %u %u last %u\n", sk[0], sk[1], sk[n - 1]);
    printf("payload_hash %llu\n", (unsigned long long)hash);
    for (int b = 0; b < 2; ++b) {
        CUDA_CHECK(cudaFree(dk[b]));
        CUDA_CHECK(cudaFree(dv[b]));
    }
    CUDA_CHECK(cudaFree(dhist));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
