// Block-wide inclusive scans (sum and running max) built from __shfl_up_sync warp scans; a device printf summary.
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

template <typename T, typename Op>
__device__ T warp_inclusive_scan(T v, Op op) {
    const int lane = threadIdx.x & 31;
    for (int offset = 1; offset < 32; offset <<= 1) {
        const T other = __shfl_up_sync(0xffffffffu, v, offset);
        if (lane >= offset) v = op(v, other);
    }
    return v;
}

struct Add {
    __device__ int operator()(int a, int b) const { return a + b; }
};
struct Max {
    __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};

template <typename Op>
__device__ int block_inclusive_scan(int v, int* warp_totals, Op op) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    v = warp_inclusive_scan(v, op);
    if (lane == 31) warp_totals[warp] = v;
    __syncthreads();
    if (warp == 0) {
        int t = lane < THREADS / 32 ? warp_totals[lane] : warp_totals[0];
        t = warp_inclusive_scan(t, op);
        if (lane < THREADS / 32) warp_totals[lane] = t;
    }
    __syncthreads();
    if (warp > 0) v = op(v, warp_totals[warp - 1]);
    __syncthreads();
    return v;
}

__global__ void tile_scans(const int* __restrict__ in, int n, int* __restrict__ sums,
                           int* __restrict__ maxes, int* __restrict__ tile_totals) {
    __shared__ int warp_totals[THREADS / 32];
    const int i = blockIdx.x * THREADS + threadIdx.x;
    const int v = i < n ? in[i] : 0;
    const int s = block_inclusive_scan(v, warp_totals, Add());
    const int m = block_inclusive_scan(v, warp_totals, Max());
    if (i < n) {
        sums[i] = s;
        maxes[i] = m;
    }
    if (threadIdx.x == THREADS - 1) tile_totals[blockIdx.x] = s;
    if (blockIdx.x == 0 && threadIdx.x == THREADS - 1)
        printf("device: tile 0 total %d running max %d\n", s, m);
}

__global__ void add_tile_offsets(int* sums, const int* tile_offsets, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && blockIdx.x > 0) sums[i] += tile_offsets[blockIdx.x - 1];
}

int main() {
    g_seed = 2024u;
    const int n = 40000, tiles = (n + THREADS - 1) / THREADS;
    std::vector<int> h(n), sums(n), maxes(n), totals(tiles);
    for (auto& v : h) v = (int)(next_u32() % 64u);
    int *d_in, *d_sums, *d_maxes, *d_totals;
    CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_sums, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_maxes, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_totals, tiles * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    tile_scans<<<tiles, THREADS>>>(d_in, n, d_sums, d_maxes, d_totals);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());  // flushes the device printf before host output
    CUDA_CHECK(cudaMemcpy(totals.data(), d_totals, tiles * sizeof(int), cudaMemcpyDeviceToHost));
    for (int t = 1; t < tiles; ++t) totals[t] += totals[t - 1];  // small host scan of tile totals
    CUDA_CHECK(cudaMemcpy(d_totals, totals.data(), tiles * sizeof(int), cudaMemcpyHostToDevice));
    add_tile_offsets<<<tiles, THREADS>>>(d_sums, d_totals, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(sums.data(), d_sums, n * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(maxes.data(), d_maxes, n * sizeof(int), cudaMemcpyDeviceToHost));

    bool ok = true;
    int running = 0, tile_max = 0;
    long long max_sum = 0;
    for (int i = 0; i < n; ++i) {
        if (i % THREADS == 0) tile_max = 0;
        running += h[i];
        tile_max = h[i] > tile_max ? h[i] : tile_max;
        if (sums[i] != running || maxes[i] != tile_max) ok = false;
        max_sum += maxes[i];
    }
    printf("scan n %d tiles %d\n", n, tiles);
    printf("total %d sums[12345] %d\n", sums[n - 1], sums[12345]);
    printf("sum_of_running_max %lld\n", max_sum);
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_sums));
    CUDA_CHECK(cudaFree(d_maxes));
    CUDA_CHECK(cudaFree(d_totals));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
