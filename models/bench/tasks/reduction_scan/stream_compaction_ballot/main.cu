// Order-preserving stream compaction: ballot/popc ranking inside warps, block counts scanned on the device.
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

__device__ __forceinline__ bool keep(int v) { return (v % 7) == 3 || v > 900; }

__global__ void count_kept(const int* __restrict__ in, int n, int* __restrict__ block_counts) {
    __shared__ int count;
    if (threadIdx.x == 0) count = 0;
    __syncthreads();
    const int i = blockIdx.x * THREADS + threadIdx.x;
    const unsigned ballot = __ballot_sync(0xffffffffu, i < n && keep(in[i]));
    if ((threadIdx.x & 31) == 0) atomicAdd(&count, __popc(ballot));
    __syncthreads();
    if (threadIdx.x == 0) block_counts[blockIdx.x] = count;
}

// One block: exclusive scan of up to THREADS block counts (Hillis-Steele, double buffered).
__global__ void scan_counts(const int* __restrict__ counts, int* __restrict__ offsets, int nblocks) {
    __shared__ int buf[2][THREADS];
    const int t = threadIdx.x;
    int src = 0;
    buf[0][t] = (t > 0 && t - 1 < nblocks) ? counts[t - 1] : 0;
    __syncthreads();
    for (int step = 1; step < THREADS; step <<= 1) {
        buf[1 - src][t] = buf[src][t] + (t >= step ? buf[src][t - step] : 0);
        src = 1 - src;
        __syncthreads();
    }
    if (t <= nblocks) offsets[t] = buf[src][t];
}

__global__ void scatter_kept(const int* __restrict__ in, int n, const int* __restrict__ offsets,
                             int* __restrict__ out) {
    __shared__ int warp_base[WARPS];
    const int i = blockIdx.x * THREADS + threadIdx.x;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const bool flag = i < n && keep(in[i]);
    const unsigned ballot = __ballot_sync(0xffffffffu, flag);
    if (lane == 0) warp_base[warp] = __popc(ballot);
    __syncthreads();
    if (threadIdx.x == 0) {
        int running = 0;
        for (int w = 0; w < WARPS; ++w) {
            const int c = warp_base[w];
            warp_base[w] = running;
            running += c;
        }
    }
    __syncthreads();
    if (flag) {
        const unsigned lanes_below = ballot & ((1u << lane) - 1u);
        out[offsets[blockIdx.x] + warp_base[warp] + __popc(lanes_below)] = in[i];
    }
}

int main() {
    g_seed = 112358u;
    const int n = 50000;
    const int blocks = (n + THREADS - 1) / THREADS;  // 196 <= THREADS
    std::vector<int> h(n);
    for (auto& v : h) v = (int)(next_u32() % 1000u);
    int *d_in, *d_counts, *d_offsets, *d_out;
    CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_counts, blocks * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_offsets, (blocks + 1) * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    count_kept<<<blocks, THREADS>>>(d_in, n, d_counts);
    CUDA_CHECK(cudaGetLastError());
    scan_counts<<<1, THREADS>>>(d_counts, d_offsets, blocks);
    CUDA_CHECK(cudaGetLastError());
    scatter_kept<<<blocks, THREADS>>>(d_in, n, d_offsets, d_out);
    CUDA_CHECK(cudaGetLastError());
    int kept = 0;
    CUDA_CHECK(cudaMemcpy(&kept, d_offsets + blocks, sizeof(int), cudaMemcpyDeviceToHost));
    std::vector<int> out(kept > 0 ? kept : 1);
    if (kept > 0)
        CUDA_CHECK(cudaMemcpy(out.data(), d_out, kept * sizeof(int), cudaMemcpyDeviceToHost));

    std::vector<int> ref;
    for (int v : h)
        if ((v % 7) == 3 || v > 900) ref.push_back(v);
    bool ok = kept == (int)ref.size();
    uint64_t hash = 1469598103934665603ull;
    for (int i = 0; ok && i < kept; ++i) {
        if (out[i] != ref[i]) ok = false;
        hash = (hash ^ (uint64_t)out[i]) * 1099511628211ull;
    }
    printf("compaction n %d kept %d\n", n, kept);
    printf("first %d %d %d last %d\n", out[0], out[1], out[2], out[kept - 1]);
    printf("fnv64 %llu\n", (unsigned long long)hash);
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_counts));
    CUDA_CHECK(cudaFree(d_offsets));
    CUDA_CHECK(cudaFree(d_out));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
