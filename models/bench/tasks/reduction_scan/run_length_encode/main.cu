// Run-length encoding: head flags, a block-level scan of the flags, scatter of run starts, then run lengths.
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

constexpr int THREADS = 1024;  // one block scans up to THREADS * PER_THREAD flags
constexpr int PER_THREAD = 16;

__global__ void mark_heads(const int* __restrict__ in, int n, int* __restrict__ flags) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) flags[i] = (i == 0 || in[i] != in[i - 1]) ? 1 : 0;
}

// Single block: each thread scans its PER_THREAD-element chunk serially, then the chunk totals
// are scanned in shared memory (Hillis-Steele), then each chunk adds its offset. Exclusive result.
__global__ void __launch_bounds__(THREADS) scan_flags(const int* __restrict__ flags, int n,
                                                      int* __restrict__ positions, int* __restrict__ runs) {
    __shared__ int totals[THREADS];
    const int t = threadIdx.x, begin = t * PER_THREAD;
    int local = 0;
    for (int k = 0; k < PER_THREAD && begin + k < n; ++k) local += flags[begin + k];
    totals[t] = local;
    __syncthreads();
    for (int off = 1; off < THREADS; off <<= 1) {
        const int add = t >= off ? totals[t - off] : 0;
        __syncthreads();
        totals[t] += add;
        __syncthreads();
    }
    int running = totals[t] - local;  // exclusive offset of this chunk
    for (int k = 0; k < PER_THREAD && begin + k < n; ++k) {
        positions[begin + k] = running;
        running += flags[begin + k];
    }
    if (t == THREADS - 1) *runs = totals[t];
}

__global__ void scatter_runs(const int* __restrict__ in, const int* __restrict__ flags,
                             const int* __restrict__ positions, int n, int* __restrict__ values,
                             int* __restrict__ starts) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && flags[i]) {
        values[positions[i]] = in[i];
        starts[positions[i]] = i;
    }
}

int main() {
    g_seed = 2600u;
    const int n = 15000;
    std::vector<int> in(n);
    int current = 0;
    for (int i = 0; i < n; ++i) {
        if (next_u32() % 5u == 0) current = (int)(next_u32() % 7u);  // runs of random length
        in[i] = current;
    }
    int *d_in, *d_flags, *d_pos, *d_runs, *d_values, *d_starts;
    CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_flags, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_pos, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_runs, sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_values, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_starts, n * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    mark_heads<<<(n + 255) / 256, 256>>>(d_in, n, d_flags);
    scan_flags<<<1, THREADS>>>(d_flags, n, d_pos, d_runs);
    scatter_runs<<<(n + 255) / 256, 256>>>(d_in, d_flags, d_pos, n, d_values, d_starts);
    CUDA_CHECK(cudaGetLastError());
    int runs = 0;
    CUDA_CHECK(cudaMemcpy(&runs, d_runs, sizeof(int), cudaMemcpyDeviceToHost));
    std::vector<int> values(runs > 0 ? runs : 1), starts(runs > 0 ? runs : 1);
    CUDA_CHECK(cudaMemcpy(values.data(), d_values, runs * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(starts.data(), d_starts, runs * sizeof(int), cudaMemcpyDeviceToHost));

    std::vector<int> ref_values, ref_starts;
    for (int i = 0; i < n; ++i)
        if (i == 0 || in[i] != in[i - 1]) {
            ref_values.push_back(in[i]);
            ref_starts.push_back(i);
        }
    bool ok = runs == (int)ref_values.size();
    int longest = 0, longest_at = 0;
    uint32_t hash = 0;
    for (int r = 0; ok && r < runs; ++r) {
        if (values[r] != ref_values[r] || starts[r] != ref_starts[r]) ok = false;
        const int len = (r + 1 < runs ? starts[r + 1] : n) - starts[r];
        if (len > longest) { longest = len; longest_at = starts[r]; }
        hash = hash * 16777619u ^ (uint32_t)(values[r] * 100003 + len);
    }
    printf("rle n %d runs %d\n", n, runs);
    printf("longest run %d at %d\n", longest, longest_at);
    printf("first runs (%d@%d) (%d@%d) rle_hash %u\n", values[0], starts[0], values[1], starts[1], hash);
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_flags));
    CUDA_CHECK(cudaFree(d_pos));
    CUDA_CHECK(cudaFree(d_runs));
    CUDA_CHECK(cudaFree(d_values));
    CUDA_CHECK(cudaFree(d_starts));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
