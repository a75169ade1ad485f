// Pitch detection of 32 voiced frames by integer autocorrelation. One block
// per frame stages the 16-bit samples in shared memory; each thread scores
// one candidate lag, and the best (score, lag) pair is found with warp
// shuffles (warp size 32) and a final pass over the per-warp winners.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>
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

#define FRAME 512
#define MIN_LAG 32
#define LAGS 256                 // candidate lags MIN_LAG .. MIN_LAG + LAGS - 1
#define WARP 32
static const int kFrames = 32;
static const double kPi = 3.14159265358979323846;

__host__ __device__ inline long long lagScore(const short* x, int lag) {
    long long acc = 0;
    for (int n = 0; n + lag < FRAME; ++n) acc += (int)x[n] * (int)x[n + lag];
    return acc * FRAME / (FRAME - lag);          // unbiased normalisation, exact integer division
}

// larger score wins; on a tie the smaller lag wins
__device__ inline void better(long long& score, int& lag, long long otherScore, int otherLag) {
    if (otherScore > score || (otherScore == score && otherLag < lag)) { score = otherScore; lag = otherLag; }
}

__global__ void detectPitch(const short* frames, int* pitchLag, long long* pitchScore) {
    __shared__ short x[FRAME];
    __shared__ long long warpScore[LAGS / WARP];
    __shared__ int warpLag[LAGS / WARP];
    const short* src = frames + blockIdx.x * FRAME;
    for (int i = threadIdx.x; i < FRAME; i += blockDim.x) x[i] = src[i];
    __syncthreads();
    int lag = MIN_LAG + threadIdx.x;
    long long score = lagScore(x, lag);
    for (int offset = WARP / 2; offset > 0; offset /= 2) {
        long long s = __shfl_down_sync(0xFFFFFFFFu, score, offset);
        int l = __shfl_down_sync(0xFFFFFFFFu, lag, offset);
        better(score, lag, s, l);
    }
    if (threadIdx.x % WARP == 0) { warpScore[threadIdx.x / WARP] = score; warpLag[threadIdx.x / WARP] = lag; }
    __syncthreads();
    if (threadIdx.x == 0) {
        long long bs = warpScore[0]; int bl = warpLag[0];
        for (int w = 1; w < LAGS / WARP; ++w) better(bs, bl, warpScore[w], warpLag[w]);
        pitchLag[blockIdx.x] = bl;
        pitchScore[blockIdx.x] = bs;
    }
}

int main() {
    std::vector<short> frames(kFrames * FRAME);
    std::vector<int> truePeriod(kFrames);
    uint32_t s = 16000u;
    for (int f = 0; f < kFrames; ++f) {
        int period = 40 + (f * 37) % 200;                         // 40..239 samples
        truePeriod[f] = period;
        for (int n = 0; n < FRAME; ++n) {
            s = s * 1664525u + 1013904223u;
            double phase = 2 * kPi * n / period;
            double v = 6000 * sin(phase) + 2500 * sin(2 * phase + 0.7) + 1200 * sin(3 * phase + 1.3);
            frames[f * FRAME + n] = (short)(v + (int)((s >> 20) % 801) - 400);
        }
    }
    short* dFrames; int* dLag; long long* dScore;
    CUDA_CHECK(cudaMalloc(&dFrames, frames.size() * sizeof(short)));
    CUDA_CHECK(cudaMalloc(&dLag, kFrames * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dScore, kFrames * sizeof(long long)));
    CUDA_CHECK(cudaMemcpy(dFrames, frames.data(), frames.size() * sizeof(short), cudaMemcpyHostToDevice));
    detectPitch<<<kFrames, LAGS>>>(dFrames, dLag, dScore);
    CUDA_CHECK(cudaGetLastError());
    std::vector<int> lag(kFrames);
    std::vector<long long> score(kFrames);
    CUDA_CHECK(cudaMemcpy(lag.data(), dLag, kFrames * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(score.data(), dScore, kFrames * sizeof(long long), cudaMemcpyDeviceToHost));

    int mismatches = 0, correct = 0;
    long long lagSum = 0;
    for (int f = 0; f < kFrames; ++f) {
        long long bs = 0; int bl = -1;
        for (int l = MIN_LAG; l < MIN_LAG + LAGS; ++l) {
            long long sc = lagScore(&frames[f * FRAME], l);
            if (bl < 0 || sc > bs) { bs = sc; bl = l; }
        }
        mismatches += (bl != lag[f]) + (bs != score[f]);
        // the peak may sit on a multiple of the period and, on a sampled grid, a few samples off it
        int k = (lag[f] + truePeriod[f] / 2) / truePeriod[f];
        correct += (k >= 1 && abs(lag[f] - k * truePeriod[f]) <= 3);
        lagSum += lag[f];
    }
    printf("frames %d frame length %d lags %d..%d\n", kFrames, FRAME, MIN_LAG, MIN_LAG + LAGS - 1);
    printf("detected lags: %d %d %d %d ... lag sum %lld\n", lag[0], lag[1], lag[2], lag[3], lagSum);
    printf("lags within 3 samples of a multiple of the true period: %d of %d\n", correct, kFrames);
    printf("score[0] %lld mismatches %d\n", score[0], mismatches);
    bool ok = mismatches == 0 && correct == kFrames;
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dFrames)); CUDA_CHECK(cudaFree(dLag)); CUDA_CHECK(cudaFree(dScore));
    return ok ? 0 : 1;
}
