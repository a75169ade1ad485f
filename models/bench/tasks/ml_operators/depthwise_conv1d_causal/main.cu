// Causal depthwise 1D convolution over (batch, channel, time) with a shared-memory halo tile per block.
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

constexpr int BATCH = 4, CH = 32, T = 1024, K = 7;  // kernel taps look back K-1 steps
constexpr int TILE_T = 128;

__global__ void depthwise_causal(const float* __restrict__ x, const float* __restrict__ w,
                                 const float* __restrict__ bias, float* __restrict__ y) {
    __shared__ float tile[TILE_T + K - 1];
    __shared__ float taps[K];
    const int b = blockIdx.z, c = blockIdx.y, t0 = blockIdx.x * TILE_T;
    const float* xs = x + ((size_t)b * CH + c) * T;
    // Load TILE_T outputs' worth of input plus K-1 earlier steps (zeros before t = 0).
    for (int i = threadIdx.x; i < TILE_T + K - 1; i += blockDim.x) {
        const int t = t0 - (K - 1) + i;
        tile[i] = t >= 0 ? xs[t] : 0.0f;
    }
    if (threadIdx.x < K) taps[threadIdx.x] = w[c * K + threadIdx.x];
    __syncthreads();
    const int t = t0 + threadIdx.x;
    float acc = bias[c];
#pragma unroll
    for (int k = 0; k < K; ++k) acc += taps[k] * tile[threadIdx.x + k];  // taps[K-1] multiplies x[t]
    y[((size_t)b * CH + c) * T + t] = acc;
}

int main() {
    g_seed = 7331u;
    const size_t n = (size_t)BATCH * CH * T;
    std::vector<float> x(n), y(n), w(CH * K), bias(CH);
    for (auto& v : x) v = next_uniform();
    for (auto& v : w) v = 0.5f * next_uniform();
    for (auto& v : bias) v = 0.1f * next_uniform();
    float *dx, *dw, *db, *dy;
    CUDA_CHECK(cudaMalloc(&dx, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dy, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dw, w.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&db, bias.size() * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dw, w.data(), w.size() * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(db, bias.data(), bias.size() * sizeof(float), cudaMemcpyHostToDevice));
    dim3 grid(T / TILE_T, CH, BATCH);
    depthwise_causal<<<grid, TILE_T>>>(dx, dw, db, dy);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));

    double max_err = 0.0, sum = 0.0, sum_sq = 0.0;
    for (int b = 0; b < BATCH; ++b)
        for (int c = 0; c < CH; ++c)
            for (int t = 0; t < T; ++t) {
                double ref = bias[c];
                for (int k = 0; k < K; ++k) {
                    const int src = t - (K - 1) + k;
                    if (src >= 0) ref += (double)w[c * K + k] * x[((size_t)b * CH + c) * T + src];
                }
                const float got = y[((size_t)b * CH + c) * T + t];
                max_err = fmax(max_err, fabs(ref - got));
                sum += got;
                sum_sq += (double)got * got;
            }
    printf("depthwise causal conv batch %d channels %d steps %d taps %d\n", BATCH, CH, T, K);
    printf("sum %.6e sum_sq %.6e\n", sum, sum_sq);
    printf("y[0][0][0] %.6e y[last] %.6e\n", y[0], y[n - 1]);
    const bool ok = max_err < 1e-5;
    CUDA_CHECK(cudaFree(dx));
    CUDA_CHECK(cudaFree(dy));
    CUDA_CHECK(cudaFree(dw));
    CUDA_CHECK(cudaFree(db));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
