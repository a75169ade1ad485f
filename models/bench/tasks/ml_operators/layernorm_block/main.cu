// Layer normalisation: one block per row, two-level (warp shuffle + shared) reductions for mean and variance, rsqrtf.
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

constexpr int COLS = 512;
constexpr int THREADS = 128;

__device__ float block_sum(float v, float* scratch) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) scratch[warp] = v;
    __syncthreads();
    float total = 0.0f;
    for (int w = 0; w < THREADS / 32; ++w) total += scratch[w];
    __syncthreads();
    return total;
}

__global__ void __launch_bounds__(THREADS) layernorm(const float* __restrict__ x,
                                                     const float* __restrict__ gamma,
                                                     const float* __restrict__ beta,
                                                     float* __restrict__ y, float eps) {
    __shared__ float scratch[THREADS / 32];
    const float* row = x + (size_t)blockIdx.x * COLS;
    float local[COLS / THREADS];
    float s = 0.0f;
    for (int k = 0; k < COLS / THREADS; ++k) {
        local[k] = row[threadIdx.x + k * THREADS];
        s += local[k];
    }
    const float mean = block_sum(s, scratch) / COLS;
    float sq = 0.0f;
    for (int k = 0; k < COLS / THREADS; ++k) {
        const float d = local[k] - mean;
        sq += d * d;
    }
    const float rstd = rsqrtf(block_sum(sq, scratch) / COLS + eps);
    for (int k = 0; k < COLS / THREADS; ++k) {
        const int c = threadIdx.x + k * THREADS;
        y[(size_t)blockIdx.x * COLS + c] = (local[k] - mean) * rstd * gamma[c] + beta[c];
    }
}

int main() {
    g_seed = 1701u;
    const int rows = 256;
    const float eps = 1e-5f;
    std::vector<float> x((size_t)rows * COLS), y(x.size()), gamma(COLS), beta(COLS);
    for (int r = 0; r < rows; ++r) {
        const float offset = 3.0f * next_uniform(), scale = 1.5f + next_uniform();
        for (int c = 0; c < COLS; ++c) x[(size_t)r * COLS + c] = offset + scale * next_uniform();
    }
    for (int c = 0; c < COLS; ++c) {
        gamma[c] = 1.0f + 0.1f * next_uniform();
        beta[c] = 0.1f * next_uniform();
    }
    float *dx, *dy, *dg, *db;
    CUDA_CHECK(cudaMalloc(&dx, x.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dy, y.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dg, COLS * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&db, COLS * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dx, x.data(), x.size() * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dg, gamma.data(), COLS * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(db, beta.data(), COLS * sizeof(float), cudaMemcpyHostToDevice));
    layernorm<<<rows, THREADS>>>(dx, dg, db, dy, eps);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(y.data(), dy, y.size() * sizeof(float), cudaMemcpyDeviceToHost));

    double max_err = 0.0, abs_sum = 0.0, sq_sum = 0.0;
    for (int r = 0; r < rows; ++r) {
        double mean = 0.0, var = 0.0;
        for (int c = 0; c < COLS; ++c) mean += x[(size_t)r * COLS + c];
        mean /= COLS;
        for (int c = 0; c < COLS; ++c) {
            const double d = x[(size_t)r * COLS + c] - mean;
            var += d * d;
        }
        const double rstd = 1.0 / sqrt(var / COLS + eps);
        for (int c = 0; c < COLS; ++c) {
            const double ref = (x[(size_t)r * COLS + c] - mean) * rstd * gamma[c] + beta[c];
            const double got = y[(size_t)r * COLS + c];
            max_err = fmax(max_err, fabs(got - ref));
            abs_sum += fabs(got);
            sq_sum += got * got;
        }
    }
    printf("layernorm rows %d cols %d\n", rows, COLS);
    printf("abs_sum %.6e sq_sum %.6e\n", abs_sum, sq_sum);
    printf("y[0][0] %.5e y[%d][%d] %.5e\n", y[0], rows - 1, COLS - 1, y[y.size() - 1]);
    const bool ok = max_err < 2e-4;
    CUDA_CHECK(cudaFree(dx));
    CUDA_CHECK(cudaFree(dy));
    CUDA_CHECK(cudaFree(dg));
    CUDA_CHECK(cudaFree(db));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
