// Double-buffered global->shared staging with cooperative_groups::memcpy_async, overlapping the next copy with compute.
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

#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;

constexpr int TILE = 1024;  // floats per stage
constexpr int THREADS = 256;
constexpr int RADIUS = 2;

__device__ __forceinline__ float window_sum(const float* s, int i) {
    float acc = 0.0f;
    for (int k = -RADIUS; k <= RADIUS; ++k) {
        const int j = i + k;
        if (j >= 0 && j < TILE) acc += s[j];
    }
    return acc;
}

__global__ void windowed_sums(const float* __restrict__ in, float* __restrict__ out, int n_tiles) {
    __shared__ float stage[2][TILE];
    cg::thread_block block = cg::this_thread_block();
    int buf = 0;
    int t = blockIdx.x;
    if (t < n_tiles) cg::memcpy_async(block, stage[0], in + (size_t)t * TILE, sizeof(float) * TILE);
    for (; t < n_tiles; t += gridDim.x) {
        const int next = t + gridDim.x;
        if (next < n_tiles) {
            cg::memcpy_async(block, stage[buf ^ 1], in + (size_t)next * TILE, sizeof(float) * TILE);
            cg::wait_prior<1>(block);  // the current stage has landed, the next may be in flight
        } else {
            cg::wait(block);
        }
        for (int i = threadIdx.x; i < TILE; i += THREADS)
            out[(size_t)t * TILE + i] = window_sum(stage[buf], i);
        block.sync();  // everyone is done reading before this buffer is refilled
        buf ^= 1;
    }
}

int main() {
    g_seed = 1357u;
    const int n_tiles = 64, n = n_tiles * TILE;
    std::vector<float> h(n), out(n);
    for (auto& v : h) v = next_uniform();
    float *d_in, *d_out;
    CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    windowed_sums<<<16, THREADS>>>(d_in, d_out, n_tiles);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));

    double max_err = 0.0, sum = 0.0, sum_sq = 0.0;
    for (int t = 0; t < n_tiles; ++t)
        for (int i = 0; i < TILE; ++i) {
            float ref = 0.0f;
            for (int k = -RADIUS; k <= RADIUS; ++k)
                if (i + k >= 0 && i + k < TILE) ref += h[t * TILE + i + k];
            const float got = out[t * TILE + i];
            max_err = fmax(max_err, fabs((double)got - ref));
            sum += got;
            sum_sq += (double)got * got;
        }
    printf("async copy tiles %d tile %d radius %d\n", n_tiles, TILE, RADIUS);
    printf("sum %.6e sum_sq %.6e\n", sum, sum_sq);
    printf("out[0] %.6e out[%d] %.6e\n", out[0], n - 1, out[n - 1]);
    const bool ok = max_err < 1e-5;
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
