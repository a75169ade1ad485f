// Double-precision moments (sum, sum of squares, sum of cubes) with cooperative_groups::reduce over warp tiles.
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
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

struct Moments {
    double s1, s2, s3;
};

__device__ Moments block_moments(Moments m, Moments* scratch) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    m.s1 = cg::reduce(tile, m.s1, cg::plus<double>());
    m.s2 = cg::reduce(tile, m.s2, cg::plus<double>());
    m.s3 = cg::reduce(tile, m.s3, cg::plus<double>());
    if (tile.thread_rank() == 0) scratch[tile.meta_group_rank()] = m;
    block.sync();
    Moments total{0.0, 0.0, 0.0};
    if (tile.meta_group_rank() == 0) {
        Moments part = tile.thread_rank() < tile.meta_group_size() ? scratch[tile.thread_rank()]
                                                                    : Moments{0.0, 0.0, 0.0};
        total.s1 = cg::reduce(tile, part.s1, cg::plus<double>());
        total.s2 = cg::reduce(tile, part.s2, cg::plus<double>());
        total.s3 = cg::reduce(tile, part.s3, cg::plus<double>());
    }
    return total;  // valid in thread 0
}

__global__ void moments_partial(const double* __restrict__ x, int n, Moments* partial) {
    __shared__ Moments scratch[32];
    Moments m{0.0, 0.0, 0.0};
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        const double v = x[i];
        m.s1 += v;
        m.s2 += v * v;
        m.s3 += v * v * v;
    }
    m = block_moments(m, scratch);
    if (threadIdx.x == 0) partial[blockIdx.x] = m;
}

__global__ void moments_final(const Moments* __restrict__ partial, int count, Moments* out) {
    __shared__ Moments scratch[32];
    Moments m{0.0, 0.0, 0.0};
    for (int i = threadIdx.x; i < count; i += blockDim.x) {
        m.s1 += partial[i].s1;
        m.s2 += partial[i].s2;
        m.s3 += partial[i].s3;
    }
    m = block_moments(m, scratch);
    if (threadIdx.x == 0) *out = m;
}

int main() {
    g_seed = 17u;
    const int n = 1 << 16, blocks = 96;
    std::vector<double> h(n);
    for (auto& v : h) v = 3.0 + 2.0 * (double)next_uniform() + 0.001 * (double)next_uniform();
    double* dx;
    Moments *dpart, *dout;
    CUDA_CHECK(cudaMalloc(&dx, n * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&dpart, blocks * sizeof(Moments)));
    CUDA_CHECK(cudaMalloc(&dout, sizeof(Moments)));
    CUDA_CHECK(cudaMemcpy(dx, h.data(), n * sizeof(double), cudaMemcpyHostToDevice));
    moments_partial<<<blocks, 256>>>(dx, n, dpart);
    CUDA_CHECK(cudaGetLastError());
    moments_final<<<1, 128>>>(dpart, blocks, dout);
    CUDA_CHECK(cudaGetLastError());
    Moments m;
    CUDA_CHECK(cudaMemcpy(&m, dout, sizeof(Moments), cudaMemcpyDeviceToHost));

    double r1 = 0.0, r2 = 0.0, r3 = 0.0;
    for (double v : h) {
        r1 += v;
        r2 += v * v;
        r3 += v * v * v;
    }
    const double mean = m.s1 / n;
    const double var = m.s2 / n - mean * mean;
    printf("moments n %d\n", n);
    printf("sum %.12e sum_sq %.12e sum_cube %.12e\n", m.s1, m.s2, m.s3);
    printf("mean %.10e variance %.8e\n", mean, var);
    const bool ok = fabs(m.s1 - r1) < 1e-11 * r1 && fabs(m.s2 - r2) < 1e-11 * r2 &&
                    fabs(m.s3 - r3) < 1e-11 * r3;
    CUDA_CHECK(cudaFree(dx));
    CUDA_CHECK(cudaFree(dpart));
    CUDA_CHECK(cudaFree(dout));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
