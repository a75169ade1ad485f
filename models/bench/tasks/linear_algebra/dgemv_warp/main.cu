// Double-precision GEMV two ways: one warp per row (shuffle reduction) and the transposed product.
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

constexpr int WARP = 32;  // this kernel is written for 32-lane warps

__global__ void dgemv_warp_per_row(int rows, int cols, const double* __restrict__ A,
                                   const double* __restrict__ x, double* __restrict__ y) {
    const int warp = (blockIdx.x * blockDim.x + threadIdx.x) / WARP;
    const int lane = threadIdx.x % WARP;
    if (warp >= rows) return;  // whole warps leave together
    double sum = 0.0;
    for (int c = lane; c < cols; c += WARP) sum += A[(size_t)warp * cols + c] * x[c];
    for (int offset = WARP / 2; offset > 0; offset >>= 1)
        sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (lane == 0) y[warp] = sum;
}

__global__ void dgemv_transposed(int rows, int cols, const double* __restrict__ A,
                                 const double* __restrict__ x, double* __restrict__ y) {
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols) return;
    double sum = 0.0;
    for (int r = 0; r < rows; ++r) sum += A[(size_t)r * cols + c] * x[r];
    y[c] = sum;
}

int main() {
    g_seed = 777u;
    const int rows = 512, cols = 384;
    std::vector<double> hA((size_t)rows * cols), hx(cols), hx2(rows);
    for (auto& v : hA) v = next_uniform();
    for (auto& v : hx) v = next_uniform();
    for (auto& v : hx2) v = next_uniform();

    double *dA, *dx, *dx2, *dy, *dy2;
    CUDA_CHECK(cudaMalloc(&dA, hA.size() * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&dx, cols * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&dx2, rows * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&dy, rows * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&dy2, cols * sizeof(double)));
    CUDA_CHECK(cudaMemcpy(dA, hA.data(), hA.size() * sizeof(double), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dx, hx.data(), cols * sizeof(double), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dx2, hx2.data(), rows * sizeof(double), cudaMemcpyHostToDevice));

    const int threads = 256;
    const int warps_per_block = threads / WARP;
    dgemv_warp_per_row<<<(rows + warps_per_block - 1) / warps_per_block, threads>>>(rows, cols, dA,
                                                                                    dx, dy);
    CUDA_CHECK(cudaGetLastError());
    dgemv_transposed<<<(cols + 127) / 128, 128>>>(rows, cols, dA, dx2, dy2);
    CUDA_CHECK(cudaGetLastError());
    std::vector<double> hy(rows), hy2(cols);
    CUDA_CHECK(cudaMemcpy(hy.data(), dy, rows * sizeof(double), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(hy2.data(), dy2, cols * sizeof(double), cudaMemcpyDeviceToHost));

    double max_err = 0.0, s1 = 0.0, s2 = 0.0, n1 = 0.0;
    for (int r = 0; r < rows; ++r) {
        double ref = 0.0;
        for (int c = 0; c < cols; ++c) ref += hA[(size_t)r * cols + c] * hx[c];
        max_err = fmax(max_err, fabs(ref - hy[r]));
        s1 += hy[r];
        n1 += hy[r] * hy[r];
    }
    for (int c = 0; c < cols; ++c) {
        double ref = 0.0;
        for (int r = 0; r < rows; ++r) ref += hA[(size_t)r * cols + c] * hx2[r];
        max_err = fmax(max_err, fabs(ref - hy2[c]));
        s2 += hy2[c];
    }
    printf("gemv rows %d cols %d\n", rows, cols);
    printf("sum_y %.10e norm2_y %.10e\n", s1, n1);
    printf("sum_yt %.10e\n", s2);
    printf("y[0] %.10e y[%d] %.10e yt[0] %.10e\n", hy[0], rows - 1, hy[rows - 1], hy2[0]);
    const bool ok = max_err < 1e-10;
    CUDA_CHECK(cudaFree(dA));
    CUDA_CHECK(cudaFree(dx));
    CUDA_CHECK(cudaFree(dx2));
    CUDA_CHECK(cudaFree(dy));
    CUDA_CHECK(cudaFree(dy2));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
