// Time-delay estimation by integer cross-correlation of two 8-bit signals.
// One thread per lag accumulates the correlation from shared-memory tiles;
// the best lag is found with a 64-bit atomicMax over (score, lag) keys so the
// winner is independent of thread order (ties go to the smallest lag).
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                        \
    do {                                                                        \
        cudaError_t err_ = (call);                                              \
        if (err_ != cudaSuccess) {                                              \
            fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_), \
                    __FILE__, __LINE__);                                        \
            exit(2);                                                            \
        }                                                                       \
    } while (0)

static const int kLen = 2048;
static const int kMaxLag = 256;          // lags in [-kMaxLag, kMaxLag)
static const int kNumLags = 2 * kMaxLag;
static const int kTrueDelay = 137;
#define TILE 256

__host__ __device__ inline unsigned long long packKey(int score, int lagIndex) {
    uint32_t biased = (uint32_t)score ^ 0x80000000u;           // order-preserving for signed ints
    return ((unsigned long long)biased << 32) | (uint32_t)(kNumLags - 1 - lagIndex);
}

// corr[lag] = sum_n x[n] * y[n + lag]
__global__ void correlate(const signed char* x, const signed char* y, int* corr, unsigned long long* best) {
    __shared__ signed char xs[TILE];
    int lagIndex = blockIdx.x * blockDim.x + threadIdx.x;
    int lag = lagIndex - kMaxLag;
    int acc = 0;
    for (int tile = 0; tile < kLen; tile += TILE) {
        xs[threadIdx.x] = x[tile + threadIdx.x];
        __syncthreads();
        for (int k = 0; k < TILE; ++k) {
            int m = tile + k + lag;
            if (m >= 0 && m < kLen) acc += (int)xs[k] * (int)y[m];
        }
        __syncthreads();
    }
    corr[lagIndex] = acc;
    atomicMax(best, packKey(acc, lagIndex));
}

int main() {
    std::vector<signed char> x(kLen), y(kLen);
    uint32_t s = 20240601u;
    auto next = [&s]() { s = s * 1664525u + 1013904223u; return s >> 8; };
    for (int n = 0; n < kLen; ++n) x[n] = (signed char)((int)(next() % 201) - 100);
    for (int n = 0; n < kLen; ++n) {
        int src = n - kTrueDelay;
        int v = (src >= 0 ? x[src] : 0) / 2 + (int)(next() % 61) - 30;   // delayed, attenuated, noisy
        y[n] = (signed char)v;
    }
    signed char *dX, *dY; int* dCorr; unsigned long long* dBest;
    CUDA_CHECK(cudaMalloc(&dX, kLen)); CUDA_CHECK(cudaMalloc(&dY, kLen));
    CUDA_CHECK(cudaMalloc(&dCorr, kNumLags * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dBest, sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemcpy(dX, x.data(), kLen, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dY, y.data(), kLen, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(dBest, 0, sizeof(unsigned long long)));
    correlate<<<kNumLags / TILE, TILE>>>(dX, dY, dCorr, dBest);
    CUDA_CHECK(cudaGetLastError());
    std::vector<int> corr(kNumLags);
    unsigned long long best = 0;
    CUDA_CHECK(cudaMemcpy(corr.data(), dCorr, kNumLags * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&best, dBest, sizeof(best), cudaMemcpyDeviceToHost));

    int mismatches = 0;
    unsigned long long refBest = 0;
    long long corrSum = 0;
    for (int li = 0; li < kNumLags; ++li) {
        int lag = li - kMaxLag, acc = 0;
        for (int n = 0; n < kLen; ++n) {
            int m = n + lag;
            if (m >= 0 && m < kLen) acc += x[n] * y[m];
        }
        mismatches += (acc != corr[li]);
        unsigned long long key = packKey(acc, li);
        if (key > refBest) refBest = key;
        corrSum += corr[li];
    }
    int bestLag = (kNumLags - 1 - (int)(best & 0xffffffffu)) - kMaxLag;
    int bestScore = (int)((uint32_t)(best >> 32) ^ 0x80000000u);
    printf("length %d lags [%d, %d)\n", kLen, -kMaxLag, kMaxLag);
    printf("estimated delay %d score %d (true delay %d)\n", bestLag, bestScore, kTrueDelay);
    printf("corr sum %lld corr[lag=0] %d corr[lag=-100] %d\n", corrSum, corr[kMaxLag], corr[kMaxLag - 100]);
    printf("mismatches %d\n", mismatches);
    bool ok = mismatches == 0 && best == refBest && bestLag == kTrueDelay;
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dX)); CUDA_CHECK(cudaFree(dY)); CUDA_CHECK(cudaFree(dCorr)); CUDA_CHECK(cudaFree(dBest));
    return ok ? 0 : 1;
}
