// Tiled single-precision GEMM: C = alpha * A * B + beta * C with shared-memory tiles.
// Sizes are deliberately not multiples of the tile so the edge handling is exercised.
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

static uint32_t g_seed = 20240611u;
inline float next_uniform() {  // LCG, uniform in [-1, 1)
    g_seed = g_seed * 1664525u + 1013904223u;
    return (float)(g_seed >> 8) * (2.0f / 16777216.0f) - 1.0f;
}

template <int TILE>
__global__ void sgemm_tiled(int M, int N, int K, float alpha, const float* __restrict__ A,
                            const float* __restrict__ B, float beta, float* C) {
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TILE + ty;
    const int col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < K; t += TILE) {
        const int a_col = t + tx, b_row = t + ty;
        As[ty][tx] = (row < M && a_col < K) ? A[row * K + a_col] : 0.0f;
        Bs[ty][tx] = (b_row < K && col < N) ? B[b_row * N + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; ++k) acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N) C[row * N + col] = alpha * acc + beta * C[row * N + col];
}

static void sgemm_reference(int M, int N, int K, float alpha, const std::vector<float>& A,
                            const std::vector<float>& B, float beta, std::vector<double>& C) {
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j) {
            double acc = 0.0;
            for (int k = 0; k < K; ++k) acc += (double)A[i * K + k] * B[k * N + j];
            C[i * N + j] = alpha * acc + beta * C[i * N + j];
        }
}

int main() {
    const int M = 120, N = 100, K = 136;
    const float alpha = 1.5f, beta = -0.5f;
    constexpr int TILE = 16;
    std::vector<float> hA(M * K), hB(K * N), hC(M * N);
    for (auto& v : hA) v = next_uniform();
    for (auto& v : hB) v = next_uniform();
    for (auto& v : hC) v = next_uniform();
    std::vector<double> ref(hC.begin(), hC.end());

    float *dA, *dB, *dC;
    CUDA_CHECK(cudaMalloc(&dA, hA.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dB, hB.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dC, hC.size() * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dA, hA.data(), hA.size() * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dB, hB.data(), hB.size() * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dC, hC.data(), hC.size() * sizeof(float), cudaMemcpyHostToDevice));

    dim3 block(TILE, TILE);
    dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
    sgemm_tiled<TILE><<<grid, block>>>(M, N, K, alpha, dA, dB, beta, dC);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(hC.data(), dC, hC.size() * sizeof(float), cudaMemcpyDeviceToHost));

    sgemm_reference(M, N, K, alpha, hA, hB, beta, ref);
    double max_err = 0.0, sum = 0.0, sum_abs = 0.0;
    for (int i = 0; i < M * N; ++i) {
        max_err = fmax(max_err, fabs(hC[i] - ref[i]) / (1.0 + fabs(ref[i])));
        sum += hC[i];
        sum_abs += fabs(hC[i]);
    }
    printf("sgemm %dx%dx%d tile %d\n", M, N, K, TILE);
    printf("checksum %.6e\n", sum);
    printf("abs_sum %.6e\n", sum_abs);
    printf("C[0][0] %.6e C[%d][%d] %.6e\n", hC[0], M - 1, N - 1, hC[M * N - 1]);
    const bool ok = max_err < 1e-4;
    printf("max_rel_err_ok %d\n", ok ? 1 : 0);
    CUDA_CHECK(cudaFree(dA));
    CUDA_CHECK(cudaFree(dB));
    CUDA_CHECK(cudaFree(dC));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
