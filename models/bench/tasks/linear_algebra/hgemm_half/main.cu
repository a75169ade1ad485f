// Half-precision GEMM with float accumulation and a half bias epilogue (__hadd).
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

#include <cuda_fp16.h>

constexpr int TILE = 16;

__global__ void hgemm_bias(int M, int N, int K, const __half* __restrict__ A,
                           const __half* __restrict__ B, const __half* __restrict__ bias,
                           __half* __restrict__ C) {
    __shared__ __half As[TILE][TILE];
    __shared__ __half Bs[TILE][TILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < K; t += TILE) {
        As[ty][tx] = (row < M && t + tx < K) ? A[row * K + t + tx] : __float2half(0.0f);
        Bs[ty][tx] = (t + ty < K && col < N) ? B[(t + ty) * N + col] : __float2half(0.0f);
        __syncthreads();
        for (int k = 0; k < TILE; ++k) acc += __half2float(As[ty][k]) * __half2float(Bs[k][tx]);
        __syncthreads();
    }
    if (row < M && col < N) C[row * N + col] = __hadd(__float2half_rn(acc), bias[col]);
}

int main() {
    g_seed = 1601u;
    const int M = 96, N = 64, K = 80;
    std::vector<__half> hA(M * K), hB(K * N), hbias(N), hC(M * N);
    std::vector<float> fA(M * K), fB(K * N), fbias(N);
    for (int i = 0; i < M * K; ++i) {
        hA[i] = __float2half(next_uniform());
        fA[i] = __half2float(hA[i]);
    }
    for (int i = 0; i < K * N; ++i) {
        hB[i] = __float2half(next_uniform());
        fB[i] = __half2float(hB[i]);
    }
    for (int i = 0; i < N; ++i) {
        hbias[i] = __float2half(0.25f * next_uniform());
        fbias[i] = __half2float(hbias[i]);
    }
    __half *dA, *dB, *dbias, *dC;
    CUDA_CHECK(cudaMalloc(&dA, M * K * sizeof(__half)));
    CUDA_CHECK(cudaMalloc(&dB, K * N * sizeof(__half)));
    CUDA_CHECK(cudaMalloc(&dbias, N * sizeof(__half)));
    CUDA_CHECK(cudaMalloc(&dC, M * N * sizeof(__half)));
    CUDA_CHECK(cudaMemcpy(dA, hA.data(), M * K * sizeof(__half), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dB, hB.data(), K * N * sizeof(__half), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dbias, hbias.data(), N * sizeof(__half), cudaMemcpyHostToDevice));
    dim3 block(TILE, TILE), grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
    hgemm_bias<<<grid, block>>>(M, N, K, dA, dB, dbias, dC);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(hC.data(), dC, M * N * sizeof(__half), cudaMemcpyDeviceToHost));

    double max_err = 0.0, sum = 0.0, sum_abs = 0.0;
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j) {
            double ref = fbias[j];
            for (int k = 0; k < K; ++k) ref += (double)fA[i * K + k] * fB[k * N + j];
            const double got = __half2float(hC[i * N + j]);
            max_err = fmax(max_err, fabs(got - ref) / (1.0 + fabs(ref)));
            sum += got;
            sum_abs += fabs(got);
        }
    printf("hgemm %dx%dx%d\n", M, N, K);
    printf("sum %.4e abs_sum %.4e\n", sum, sum_abs);
    printf("C[0][0] %.4e C[%d][%d] %.4e\n", __half2float(hC[0]), M - 1, N - 1,
           __half2float(hC[M * N - 1]));
    const bool ok = max_err < 5e-3;
    CUDA_CHECK(cudaFree(dA));
    CUDA_CHECK(cudaFree(dB));
    CUDA_CHECK(cudaFree(dbias));
    CUDA_CHECK(cudaFree(dC));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
