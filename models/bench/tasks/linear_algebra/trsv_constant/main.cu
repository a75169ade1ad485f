// Lower-triangular solves for thousands of right-hand sides, the 32x32 factor held in constant memory.
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

constexpr int DIM = 32;
__constant__ float c_L[DIM * DIM];

// Each thread solves L x = b for one right-hand side; B is DIM x nrhs row-major (coalesced).
__global__ void trsv_many(int nrhs, const float* __restrict__ B, float* __restrict__ X) {
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= nrhs) return;
    float x[DIM];
#pragma unroll
    for (int i = 0; i < DIM; ++i) {
        float s = B[i * nrhs + j];
#pragma unroll
        for (int k = 0; k < i; ++k) s -= c_L[i * DIM + k] * x[k];
        x[i] = s / c_L[i * DIM + i];
        X[i * nrhs + j] = x[i];
    }
}

int main() {
    g_seed = 8080u;
    const int nrhs = 8192;
    std::vector<float> L(DIM * DIM, 0.0f), B((size_t)DIM * nrhs), X((size_t)DIM * nrhs);
    for (int i = 0; i < DIM; ++i)
        for (int k = 0; k <= i; ++k)
            L[i * DIM + k] = (k == i) ? 2.0f + 0.5f * (next_uniform() + 1.0f) : 0.1f * next_uniform();
    for (auto& v : B) v = next_uniform();
    CUDA_CHECK(cudaMemcpyToSymbol(c_L, L.data(), DIM * DIM * sizeof(float)));
    float *dB, *dX;
    CUDA_CHECK(cudaMalloc(&dB, B.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dX, X.size() * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dB, B.data(), B.size() * sizeof(float), cudaMemcpyHostToDevice));
    trsv_many<<<(nrhs + 127) / 128, 128>>>(nrhs, dB, dX);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(X.data(), dX, X.size() * sizeof(float), cudaMemcpyDeviceToHost));

    double max_err = 0.0, sum = 0.0, sum_sq = 0.0;
    std::vector<double> x(DIM);
    for (int j = 0; j < nrhs; ++j) {
        for (int i = 0; i < DIM; ++i) {
            double s = B[(size_t)i * nrhs + j];
            for (int k = 0; k < i; ++k) s -= (double)L[i * DIM + k] * x[k];
            x[i] = s / L[i * DIM + i];
            const double got = X[(size_t)i * nrhs + j];
            max_err = fmax(max_err, fabs(got - x[i]));
            sum += got;
            sum_sq += got * got;
        }
    }
    printf("trsv dim %d nrhs %d\n", DIM, nrhs);
    printf("sum %.6e sum_sq %.6e\n", sum, sum_sq);
    printf("X[0][0] %.6e X[31][8191] %.6e\n", X[0], X[(size_t)(DIM - 1) * nrhs + nrhs - 1]);
    const bool ok = max_err < 1e-5;
    CUDA_CHECK(cudaFree(dB));
    CUDA_CHECK(cudaFree(dX));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
