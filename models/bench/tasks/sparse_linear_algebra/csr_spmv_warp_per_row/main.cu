// CSR-vector SpMV: each 32-lane warp owns one row, lanes stride over its nonzeros and fold with __shfl_down_sync.
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

#include <algorithm>

constexpr int WARP = 32;
constexpr int BLOCK = 256;

__device__ __forceinline__ float warp_sum(float v) {
    for (int off = WARP / 2; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    return v;
}

__global__ void __launch_bounds__(BLOCK) spmv_csr_vector(int rows, const int* __restrict__ row_ptr,
                                                         const int* __restrict__ col_idx,
                                                         const float* __restrict__ vals,
                                                         const float* __restrict__ x, float* __restrict__ y,
                                                         int* __restrict__ long_rows) {
    __shared__ int block_long;
    if (threadIdx.x == 0) block_long = 0;
    __syncthreads();
    const int warp_id = (blockIdx.x * BLOCK + threadIdx.x) / WARP;
    const int lane = threadIdx.x % WARP;
    if (warp_id < rows) {
        const int begin = row_ptr[warp_id], end = row_ptr[warp_id + 1];
        float s = 0.0f;
        for (int k = begin + lane; k < end; k += WARP) s += vals[k] * x[col_idx[k]];
        s = warp_sum(s);
        if (lane == 0) {
            y[warp_id] = s;
            if (end - begin > WARP) atomicAdd(&block_long, 1);
        }
    }
    __syncthreads();
    if (threadIdx.x == 0 && block_long) atomicAdd(long_rows, block_long);
}

int main() {
    g_seed = 777001u;
    const int rows = 4096, cols = 4096;
    std::vector<int> row_ptr(1, 0), col_idx;
    std::vector<float> vals;
    for (int r = 0; r < rows; ++r) {
        // Power-law-ish row lengths: most short, some long (up to 160).
        const uint32_t u = next_u32() >> 24;
        const int len = u < 200 ? 1 + (int)(next_u32() % 12u) : 40 + (int)(next_u32() % 120u);
        const int start = (int)(next_u32() % (uint32_t)cols);
        for (int k = 0; k < len; ++k) {
            col_idx.push_back((start + k * 7) % cols);
            vals.push_back(next_uniform());
        }
        row_ptr.push_back((int)col_idx.size());
    }
    const int nnz = (int)col_idx.size();
    std::vector<float> x(cols);
    for (auto& v : x) v = next_uniform();

    int *d_rp, *d_ci, *d_long;
    float *d_v, *d_x, *d_y;
    CUDA_CHECK(cudaMalloc(&d_rp, (rows + 1) * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_ci, nnz * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_v, nnz * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_x, cols * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_y, rows * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_long, sizeof(int)));
    CUDA_CHECK(cudaMemset(d_long, 0, sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_rp, row_ptr.data(), (rows + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_ci, col_idx.data(), nnz * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_v, vals.data(), nnz * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_x, x.data(), cols * sizeof(float), cudaMemcpyHostToDevice));
    const int warps_per_block = BLOCK / WARP;
    spmv_csr_vector<<<(rows + warps_per_block - 1) / warps_per_block, BLOCK>>>(rows, d_rp, d_ci, d_v, d_x, d_y, d_long);
    CUDA_CHECK(cudaGetLastError());
    std::vector<float> y(rows);
    int long_rows = 0;
    CUDA_CHECK(cudaMemcpy(y.data(), d_y, rows * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&long_rows, d_long, sizeof(int), cudaMemcpyDeviceToHost));

    bool ok = true;
    int ref_long = 0;
    double checksum = 0.0, norm2 = 0.0;
    for (int r = 0; r < rows; ++r) {
        double s = 0.0, mag = 0.0;
        for (int k = row_ptr[r]; k < row_ptr[r + 1]; ++k) {
            s += (double)vals[k] * x[col_idx[k]];
            mag += fabs((double)vals[k] * x[col_idx[k]]);
        }
        if (row_ptr[r + 1] - row_ptr[r] > WARP) ++ref_long;
        if (fabs(s - y[r]) > 1e-5 * (mag + 1.0)) ok = false;
        checksum += y[r] * (double)(1 + r % 3);
        norm2 += (double)y[r] * y[r];
    }
    if (long_rows != ref_long) ok = false;
    printf("rows %d nnz %d long_rows %d\n", rows, nnz, long_rows);
    printf("checksum %.6e norm2 %.6e\n", checksum, norm2);
    printf("y[1] %.6e y[2048] %.6e y[4095] %.6e\n", y[1], y[2048], y[4095]);
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(d_rp));
    CUDA_CHECK(cudaFree(d_ci));
    CUDA_CHECK(cudaFree(d_v));
    CUDA_CHECK(cudaFree(d_x));
    CUDA_CHECK(cudaFree(d_y));
    CUDA_CHECK(cudaFree(d_long));
    return ok ? 0 : 1;
}
