// BLAS level-1 kernels (axpy, dot, nrm2) templated over float and double, reduced with cooperative groups tiles.
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
namespace cg = cooperative_groups;

template <typename T>
__global__ void axpy(int n, T a, const T* __restrict__ x, T* __restrict__ y) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        y[i] = a * x[i] + y[i];
}

template <typename T>
__global__ void dot_partial(int n, const T* __restrict__ x, const T* __restrict__ y, T* partial) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    __shared__ T warp_sums[32];
    T sum = T(0);
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        sum += x[i] * y[i];
    for (int offset = tile.size() / 2; offset > 0; offset /= 2) sum += tile.shfl_down(sum, offset);
    if (tile.thread_rank() == 0) warp_sums[tile.meta_group_rank()] = sum;
    block.sync();
    if (tile.meta_group_rank() == 0) {
        sum = tile.thread_rank() < tile.meta_group_size() ? warp_sums[tile.thread_rank()] : T(0);
        for (int offset = tile.size() / 2; offset > 0; offset /= 2)
            sum += tile.shfl_down(sum, offset);
        if (tile.thread_rank() == 0) partial[blockIdx.x] = sum;
    }
}

template <typename T>
struct Blas1Result {
    double dot, nrm2, y_sum;
};

template <typename T>
Blas1Result<T> run_blas1(int n, const std::vector<double>& x0, const std::vector<double>& y0) {
    const int blocks = 64, threads = 256;
    std::vector<T> hx(n), hy(n), hpart(blocks);
    for (int i = 0; i < n; ++i) {
        hx[i] = (T)x0[i];
        hy[i] = (T)y0[i];
    }
    T *dx, *dy, *dpart;
    CUDA_CHECK(cudaMalloc(&dx, n * sizeof(T)));
    CUDA_CHECK(cudaMalloc(&dy, n * sizeof(T)));
    CUDA_CHECK(cudaMalloc(&dpart, blocks * sizeof(T)));
    CUDA_CHECK(cudaMemcpy(dx, hx.data(), n * sizeof(T), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dy, hy.data(), n * sizeof(T), cudaMemcpyHostToDevice));
    axpy<T><<<blocks, threads>>>(n, T(0.75), dx, dy);
    CUDA_CHECK(cudaGetLastError());
    Blas1Result<T> r{};
    dot_partial<T><<<blocks, threads>>>(n, dx, dy, dpart);
    CUDA_CHECK(cudaMemcpy(hpart.data(), dpart, blocks * sizeof(T), cudaMemcpyDeviceToHost));
    for (T p : hpart) r.dot += (double)p;
    dot_partial<T><<<blocks, threads>>>(n, dy, dy, dpart);
    CUDA_CHECK(cudaMemcpy(hpart.data(), dpart, blocks * sizeof(T), cudaMemcpyDeviceToHost));
    double sq = 0.0;
    for (T p : hpart) sq += (double)p;
    r.nrm2 = sqrt(sq);
    CUDA_CHECK(cudaMemcpy(hy.data(), dy, n * sizeof(T), cudaMemcpyDeviceToHost));
    for (T v : hy) r.y_sum += (double)v;
    CUDA_CHECK(cudaFree(dx));
    CUDA_CHECK(cudaFree(dy));
    CUDA_CHECK(cudaFree(dpart));
    return r;
}

int main() {
    g_seed = 31337u;
    const int n = 65536;
    std::vector<double> x(n), y(n);
    for (int i = 0; i < n; ++i) {
        x[i] = next_uniform();
        y[i] = next_uniform();
    }
    double ref_dot = 0.0, ref_sq = 0.0, ref_sum = 0.0;
    for (int i = 0; i < n; ++i) {
        const double yi = 0.75 * x[i] + y[i];
        ref_dot += x[i] * yi;
        ref_sq += yi * yi;
        ref_sum += yi;
    }
    const double ref_nrm = sqrt(ref_sq);
    Blas1Result<float> rf = run_blas1<float>(n, x, y);
    Blas1Result<double> rd = run_blas1<double>(n, x, y);
    printf("blas1 n %d\n", n);
    printf("float  dot %.6e nrm2 %.6e sum %.6e\n", rf.dot, rf.nrm2, rf.y_sum);
    printf("double dot %.12e nrm2 %.12e sum %.12e\n", rd.dot, rd.nrm2, rd.y_sum);
    const bool ok_f = fabs(rf.dot - ref_dot) < 1e-3 * (1.0 + fabs(ref_dot)) &&
                      fabs(rf.nrm2 - ref_nrm) < 1e-4 * ref_nrm;
    const bool ok_d = fabs(rd.dot - ref_dot) < 1e-9 * (1.0 + fabs(ref_dot)) &&
                      fabs(rd.nrm2 - ref_nrm) < 1e-10 * ref_nrm &&
                      fabs(rd.y_sum - ref_sum) < 1e-9 * (1.0 + fabs(ref_sum));
    printf("float_ok %d double_ok %d\n", ok_f ? 1 : 0, ok_d ? 1 : 0);
    printf(ok_f && ok_d ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok_f && ok_d ? 0 : 1;
}
