// Work-efficient (Blelloch) exclusive scan: per-block up/down sweeps, a scan of block sums, then a fix-up pass.
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
constexpr int ELEMS = 2 * THREADS;

__global__ void scan_blocks(const int* __restrict__ in, int* __restrict__ out,
                            int* __restrict__ block_sums, int n) {
    __shared__ int temp[ELEMS];
    const int tid = threadIdx.x;
    const int base = blockIdx.x * ELEMS;
    temp[2 * tid] = (base + 2 * tid < n) ? in[base + 2 * tid] : 0;
    temp[2 * tid + 1] = (base + 2 * tid + 1 < n) ? in[base + 2 * tid + 1] : 0;
    int offset = 1;
    for (int d = ELEMS >> 1; d > 0; d >>= 1) {  // up-sweep
        __syncthreads();
        if (tid < d) {
            const int ai = offset * (2 * tid + 1) - 1, bi = offset * (2 * tid + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset <<= 1;
    }
    if (tid == 0) {
        block_sums[blockIdx.x] = temp[ELEMS - 1];
        temp[ELEMS - 1] = 0;
    }
    for (int d = 1; d < ELEMS; d <<= 1) {  // down-sweep
        offset >>= 1;
        __syncthreads();
        if (tid < d) {
            const int ai = offset * (2 * tid + 1) - 1, bi = offset * (2 * tid + 2) - 1;
            const int t = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += t;
        }
    }
    __syncthreads();
    if (base + 2 * tid < n) out[base + 2 * tid] = temp[2 * tid];
    if (base + 2 * tid + 1 < n) out[base + 2 * tid + 1] = temp[2 * tid + 1];
}

__global__ void add_block_offsets(int* data, const int* offsets, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] += offsets[i / ELEMS];
}

int main() {
    g_seed = 55u;
    const int n = 60000;  // not a multiple of the block tile
    const int blocks = (n + ELEMS - 1) / ELEMS;
    std::vector<int> h(n), out(n);
    for (auto& v : h) v = (int)(next_u32() % 100u);
    int *d_in, *d_out, *d_sums, *d_offsets, *d_total;
    CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_sums, blocks * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_offsets, blocks * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_total, sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    scan_blocks<<<blocks, THREADS>>>(d_in, d_out, d_sums, n);
    CUDA_CHECK(cudaGetLastError());
    scan_blocks<<<1, THREADS>>>(d_sums, d_offsets, d_total, blocks);  // blocks <= ELEMS
    CUDA_CHECK(cudaGetLastError());
    add_block_offsets<<<(n + 255) / 256, 256>>>(d_out, d_offsets, n);
    CUDA_CHECK(cudaGetLastError());
    int total = 0;
    CUDA_CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&total, d_total, sizeof(int), cudaMemcpyDeviceToHost));

    bool ok = true;
    int running = 0;
    uint32_t hash = 2166136261u;
    for (int i = 0; i < n; ++i) {
        if (out[i] != running) ok = false;
        running += h[i];
        hash = (hash ^ (uint32_t)out[i]) * 16777619u;
    }
    ok = ok && total == running;
    printf("exclusive scan n %d blocks %d\n", n, blocks);
    printf("total %d\n", total);
    printf("out[1000] %d out[%d] %d\n", out[1000], n - 1, out[n - 1]);
    printf("fnv_hash %u\n", hash);
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    CUDA_CHECK(cudaFree(d_sums));
    CUDA_CHECK(cudaFree(d_offsets));
    CUDA_CHECK(cudaFree(d_total));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
