// Nesting depth of ( [ { brackets in a code-like text via a parallel prefix sum of +1/-1/0: phase 1 scans
// each 256-character block (warp shuffles, then warp totals in shared memory) and stores block totals;
// phase 2 scans the block totals in one block; phase 3 adds the offsets, finds the maximum depth
// (atomicMax) and the first position where the depth goes negative (atomicMin).
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

constexpr int N = 1 << 18;
constexpr int BLOCK = 256;
constexpr int NBLOCKS = N / BLOCK;

__device__ __forceinline__ int delta_of(char c) {
    return (c == '(' || c == '[' || c == '{') ? 1 : (c == ')' || c == ']' || c == '}') ? -1 : 0;
}

__device__ int block_inclusive_scan(int v, int* warp_sums) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    for (int off = 1; off < 32; off <<= 1) {
        const int up = __shfl_up_sync(0xffffffffu, v, off);
        if (lane >= off) v += up;
    }
    if (lane == 31) warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        int w = lane < BLOCK / 32 ? warp_sums[lane] : 0;
        for (int off = 1; off < 32; off <<= 1) {
            const int up = __shfl_up_sync(0xffffffffu, w, off);
            if (lane >= off) w += up;
        }
        if (lane < BLOCK / 32) warp_sums[lane] = w;
    }
    __syncthreads();
    return v + (warp ? warp_sums[warp - 1] : 0);
}

__global__ void scan_blocks(const char* text, int* depth, int* block_total) {
    __shared__ int warp_sums[BLOCK / 32];
    const int i = blockIdx.x * BLOCK + threadIdx.x;
    const int incl = block_inclusive_scan(delta_of(text[i]), warp_sums);
    depth[i] = incl;
    if (threadIdx.x == BLOCK - 1) block_total[blockIdx.x] = incl;
}

__global__ void scan_totals(int* block_total) {  // one block of BLOCK threads, NBLOCKS = 4 * BLOCK
    __shared__ int warp_sums[BLOCK / 32];
    __shared__ int carry;
    if (threadIdx.x == 0) carry = 0;
    __syncthreads();
    for (int base = 0; base < NBLOCKS; base += BLOCK) {
        const int v = block_total[base + threadIdx.x];
        const int incl = block_inclusive_scan(v, warp_sums) + carry;
        __syncthreads();
        block_total[base + threadIdx.x] = incl - v;  // exclusive offset
        if (threadIdx.x == BLOCK - 1) carry = incl;
        __syncthreads();
    }
}

__global__ void finish(int* depth, const int* block_offset, int* max_depth, int* first_negative) {
    const int i = blockIdx.x * BLOCK + threadIdx.x;
    const int d = depth[i] + block_offset[blockIdx.x];
    depth[i] = d;
    atomicMax(max_depth, d);
    if (d < 0) atomicMin(first_negative, i);
}

int main() {
    g_seed = 1972u;
    std::vector<char> text(N);
    const char opens[3] = {'(', '[', '{'}, closes[3] = {')', ']', '}'};
    int depth = 0;
    for (int i = 0; i < N; ++i) {
        const uint32_t r = next_u32() >> 24;
        if (r < 20 && depth < 40) { text[i] = opens[r % 3]; ++depth; }
        else if (r < 40 && depth > 0) { text[i] = closes[r % 3]; --depth; }
        else text[i] = (char)('a' + r % 26);
        if (i == N - 1000) text[i] = ')';  // one stray close bracket near the end
    }
    char* d_text;
    int *d_depth, *d_tot, *d_stats;
    CUDA_CHECK(cudaMalloc(&d_text, N));
    CUDA_CHECK(cudaMalloc(&d_depth, N * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_tot, NBLOCKS * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_stats, 2 * sizeof(int)));
    const int init[2] = {-1000000, N};
    CUDA_CHECK(cudaMemcpy(d_stats, init, sizeof(init), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_text, text.data(), N, cudaMemcpyHostToDevice));
    scan_blocks<<<NBLOCKS, BLOCK>>>(d_text, d_depth, d_tot);
    CUDA_CHECK(cudaGetLastError());
    scan_totals<<<1, BLOCK>>>(d_tot);
    CUDA_CHECK(cudaGetLastError());
    finish<<<NBLOCKS, BLOCK>>>(d_depth, d_tot, &d_stats[0], &d_stats[1]);
    CUDA_CHECK(cudaGetLastError());
    std::vector<int> dep(N);
    int stats[2];
    CUDA_CHECK(cudaMemcpy(dep.data(), d_depth, N * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(stats, d_stats, sizeof(stats), cudaMemcpyDeviceToHost));

    bool ok = true;
    int d = 0, rmax = -1000000, rfirst = N;
    long long depth_sum = 0;
    for (int i = 0; i < N; ++i) {
        const char c = text[i];
        d += (c == '(' || c == '[' || c == '{') ? 1 : (c == ')' || c == ']' || c == '}') ? -1 : 0;
        if (dep[i] != d) ok = false;
        rmax = d > rmax ? d : rmax;
        if (d < 0 && i < rfirst) rfirst = i;
        depth_sum += dep[i];
    }
    if (stats[0] != rmax || stats[1] != rfirst) ok = false;
    printf("chars %d final_depth %d max_depth %d\n", N, dep[N - 1], stats[0]);
    printf("first_negative_depth_at %d balanced %d\n", stats[1], dep[N - 1] == 0 && stats[1] == N ? 1 : 0);
    printf("depth_sum %lld\n", depth_sum);
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(d_text));
    CUDA_CHECK(cudaFree(d_depth));
    CUDA_CHECK(cudaFree(d_tot));
    CUDA_CHECK(cudaFree(d_stats));
    return ok ? 0 : 1;
}
