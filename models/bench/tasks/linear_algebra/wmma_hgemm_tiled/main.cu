// Tiled half-precision GEMM on tensor cores (nvcuda::wmma, 16x16x16 fragments): C = alpha*A*B +
// beta*C with float accumulation (A row-major, B column-major, staged through shared memory, four
// warps per 32x32 block), and a second pass with half accumulators (D = A*B, row-major B).
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

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

constexpr int WM = 16, BLOCK = 32, WARPS = 4;

// One block computes a 32x32 tile of C; warp w owns the 16x16 sub-tile (w / 2, w % 2).
__global__ void wmma_gemm_f32(int M, int N, int K, float alpha, const __half* __restrict__ A,
                              const __half* __restrict__ B, float beta, float* C) {
    __shared__ __half As[BLOCK][WM];      // A rows of this block, one k-step (row-major)
    __shared__ __half Bs[BLOCK][WM];      // B columns of this block, one k-step (column-major)
    __shared__ float Cs[WARPS][WM * WM];  // each warp's accumulator, for the epilogue
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int row0 = blockIdx.y * BLOCK, col0 = blockIdx.x * BLOCK;
    const int wr = (warp / 2) * WM, wc = (warp % 2) * WM;
    wmma::fragment<wmma::matrix_a, WM, WM, WM, __half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, WM, WM, WM, __half, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, WM, WM, WM, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k0 = 0; k0 < K; k0 += WM) {
        for (int i = threadIdx.x; i < BLOCK * WM; i += blockDim.x) {
            const int r = i / WM, k = i % WM;
            As[r][k] = A[(row0 + r) * K + k0 + k];
            Bs[r][k] = B[(col0 + r) * K + k0 + k];  // column col0 + r of B
        }
        __syncthreads();
        wmma::load_matrix_sync(a, &As[wr][0], WM);
        wmma::load_matrix_sync(b, &Bs[wc][0], WM);
        wmma::mma_sync(acc, a, b, acc);
        __syncthreads();
    }
    wmma::store_matrix_sync(Cs[warp], acc, WM, wmma::mem_row_major);
    __syncwarp();
    for (int i = lane; i < WM * WM; i += 32) {
        const int r = row0 + wr + i / WM, c = col0 + wc + i % WM;
        C[r * N + c] = alpha * Cs[warp][i] + beta * C[r * N + c];
    }
}

// Half accumulators straight from global memory: D (row-major) = A * B, B row-major (K x N).
__global__ void wmma_gemm_f16(int N, int K, const __half* A, const __half* B, __half* D) {
    const int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    const int tiles_n = N / WM, tr = (warp / tiles_n) * WM, tc = (warp % tiles_n) * WM;
    wmma::fragment<wmma::matrix_a, WM, WM, WM, __half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, WM, WM, WM, __half, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, WM, WM, WM, __half> acc;
    wmma::fill_fragment(acc, __float2half(0.0f));
    for (int k0 = 0; k0 < K; k0 += WM) {
        wmma::load_matrix_sync(a, A + tr * K + k0, K);
        wmma::load_matrix_sync(b, B + k0 * N + tc, N);
        wmma::mma_sync(acc, a, b, acc);
    }
    wmma::store_matrix_sync(D + tr * N + tc, acc, N, wmma::mem_row_major);
}

static std::vector<__half> halves(int n, float scale, std::vector<float>& exact) {
    std::vector<__half> h(n);
    exact.resize(n);
    for (int i = 0; i < n; ++i) {
        h[i] = __float2half(scale * next_uniform());
        exact[i] = __half2float(h[i]);
    }
    return h;
}

int main() {
    g_seed = 2207u;
    const int M = 96, N = 64, K = 128;  // all multiples of the 32x32 block and 16 k-step
    const float alpha = 1.5f, beta = -0.5f;
    std::vector<float> fA, fB, fC(M * N), fB2;
    std::vector<__half> hA = halves(M * K, 1.0f, fA), hB = halves(N * K, 1.0f, fB);  // B: col-major
    std::vector<__half> hB2 = halves(K * N, 0.5f, fB2);                           // B2: row-major
    for (int i = 0; i < M * N; ++i) fC[i] = next_uniform();
    std::vector<float> hC(M * N);
    std::vector<__half> hD(M * N);
    __half *dA, *dB, *dB2, *dD;
    float* dC;
    CUDA_CHECK(cudaMalloc(&dA, M * K * sizeof(__half)));
    CUDA_CHECK(cudaMalloc(&dB, N * K * sizeof(__half)));
    CUDA_CHECK(cudaMalloc(&dB2, K * N * sizeof(__half)));
    CUDA_CHECK(cudaMalloc(&dD, M * N * sizeof(__half)));
    CUDA_CHECK(cudaMalloc(&dC, M * N * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dA, hA.data(), M * K * sizeof(__half), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dB, hB.data(), N * K * sizeof(__half), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dB2, hB2.data(), K * N * sizeof(__half), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dC, fC.data(), M * N * sizeof(float), cudaMemcpyHostToDevice));

    wmma_gemm_f32<<<dim3(N / BLOCK, M / BLOCK), 32 * WARPS>>>(M, N, K, alpha, dA, dB, beta, dC);
    CUDA_CHECK(cudaGetLastError());
    wmma_gemm_f16<<<(M / WM) * (N / WM) / 2, 64>>>(N, K, dA, dB2, dD);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(hC.data(), dC, M * N * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(hD.data(), dD, M * N * sizeof(__half), cudaMemcpyDeviceToHost));

    double err32 = 0.0, err16 = 0.0, sum32 = 0.0, mean16 = 0.0, mean_abs16 = 0.0;
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j) {
            double ab = 0.0, ab2 = 0.0;
            for (int k = 0; k < K; ++k) {
                ab += (double)fA[i * K + k] * fB[j * K + k];
                ab2 += (double)fA[i * K + k] * fB2[k * N + j];
            }
            const double ref = alpha * ab + beta * fC[i * N + j];
            err32 = fmax(err32, fabs(hC[i * N + j] - ref) / (1.0 + fabs(ref)));
            err16 = fmax(err16, fabs(__half2float(hD[i * N + j]) - ab2) / (1.0 + fabs(ab2)));
            sum32 += hC[i * N + j];
            mean16 += __half2float(hD[i * N + j]) / (M * N);  // means: rounding averages out
            mean_abs16 += fabs(__half2float(hD[i * N + j])) / (M * N);
        }
    printf("wmma gemm %dx%dx%d, alpha %.2f beta %.2f\n", M, N, K, alpha, beta);
    printf("f32 accumulate: sum %.5e C[0][0] %.5e C[%d][%d] %.5e C[37][41] %.5e\n", sum32, hC[0],
           M - 1, N - 1, hC[M * N - 1], hC[37 * N + 41]);
    printf("f16 accumulate: mean %.4e mean_abs %.4e D[0][0] %.3e D[%d][%d] %.3e D[50][9] %.3e\n",
           mean16, mean_abs16,
           __half2float(hD[0]), M - 1, N - 1, __half2float(hD[M * N - 1]),
           __half2float(hD[50 * N + 9]));
    const bool ok = err32 < 1e-4 && err16 < 2e-2;
    CUDA_CHECK(cudaFree(dA));
    CUDA_CHECK(cudaFree(dB));
    CUDA_CHECK(cudaFree(dB2));
    CUDA_CHECK(cudaFree(dD));
    CUDA_CHECK(cudaFree(dC));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
