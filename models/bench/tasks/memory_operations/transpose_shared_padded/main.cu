// Matrix transpose of a non-square matrix: naive and shared-memory tiled with +1 padding against bank conflicts.
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

constexpr int TILE = 32;
constexpr int ROWS_PER_PASS = 8;

__global__ void transpose_naive(const float* __restrict__ in, float* __restrict__ out, int rows,
                                int cols) {
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    const int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols) out[c * rows + r] = in[r * cols + c];
}

// Block of TILE x ROWS_PER_PASS threads moves a TILE x TILE tile; reads and writes coalesced.
__global__ void transpose_tiled(const float* __restrict__ in, float* __restrict__ out, int rows,
                                int cols) {
    __shared__ float tile[TILE][TILE + 1];
    int c = blockIdx.x * TILE + threadIdx.x;
    int r = blockIdx.y * TILE + threadIdx.y;
    for (int k = 0; k < TILE; k += ROWS_PER_PASS)
        if (r + k < rows && c < cols) tile[threadIdx.y + k][threadIdx.x] = in[(r + k) * cols + c];
    __syncthreads();
    c = blockIdx.y * TILE + threadIdx.x;  // output column = input row
    r = blockIdx.x * TILE + threadIdx.y;  // output row = input column
    for (int k = 0; k < TILE; k += ROWS_PER_PASS)
        if (r + k < cols && c < rows) out[(r + k) * rows + c] = tile[threadIdx.x][threadIdx.y + k];
}

int main() {
    g_seed = 1010u;
    const int rows = 200, cols = 320;
    const size_t n = (size_t)rows * cols;
    std::vector<float> h(n), a(n), b(n);
    for (auto& v : h) v = next_uniform();
    float *d_in, *d_a, *d_b;
    CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_a, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_b, n * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    dim3 nb(16, 16), ng((cols + 15) / 16, (rows + 15) / 16);
    transpose_naive<<<ng, nb>>>(d_in, d_a, rows, cols);
    CUDA_CHECK(cudaGetLastError());
    dim3 tb(TILE, ROWS_PER_PASS), tg((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    transpose_tiled<<<tg, tb>>>(d_in, d_b, rows, cols);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(a.data(), d_a, n * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(b.data(), d_b, n * sizeof(float), cudaMemcpyDeviceToHost));

    bool ok = true;
    double weighted = 0.0;
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            const float ref = h[r * cols + c];
            if (a[c * rows + r] != ref || b[c * rows + r] != ref) ok = false;
        }
    for (size_t i = 0; i < n; i += 13) weighted += b[i] * (double)(i % 17);
    printf("transpose %dx%d\n", rows, cols);
    printf("out[1][0] %.6e out[%d][%d] %.6e\n", b[rows], cols - 1, rows - 1, b[n - 1]);
    printf("weighted_sample %.6e\n", weighted);
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_a));
    CUDA_CHECK(cudaFree(d_b));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
