// Hard-decision Viterbi decoding of a rate-1/2, constraint-length-7
// convolutional code (generators 171/133 octal, as in 802.11). One thread per
// 128-bit frame: integer branch metrics (Hamming distance), add-compare-select
// over 64 states with survivor bits packed in 64-bit words, and traceback from
// state 0 (frames are zero-terminated). Channel errors are injected with a
// hash; the decoded bits and metrics are exact integers.
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

#define STATES 64
#define INFO_BITS 122
#define TAIL 6
#define FRAME_BITS (INFO_BITS + TAIL)          // 128 trellis steps
static const int kFrames = 64;
static const uint32_t kG0 = 0171, kG1 = 0133;

__host__ __device__ inline int parity(uint32_t x) {
#ifdef __CUDA_ARCH__
    return __popc(x) & 1;
#else
    return __builtin_popcount(x) & 1;
#endif
}

__host__ __device__ inline int popcount2(int x) { return (x & 1) + ((x >> 1) & 1); }

// output pair of the encoder when `bit` enters a register holding `state` (6 previous bits)
__host__ __device__ inline int encodePair(int state, int bit) {
    uint32_t reg = ((uint32_t)bit << 6) | (uint32_t)state;
    return (parity(reg & kG0) << 1) | parity(reg & kG1);
}

__host__ __device__ void viterbiFrame(const uint8_t* rx, uint8_t* decoded, int* finalMetric) {
    int metric[STATES], next[STATES];
    uint64_t survivors[FRAME_BITS];                     // bit s: which predecessor state s chose
    for (int s = 0; s < STATES; ++s) metric[s] = s == 0 ? 0 : 1 << 20;
    for (int t = 0; t < FRAME_BITS; ++t) {
        int r = (rx[2 * t] << 1) | rx[2 * t + 1];
        uint64_t choice = 0;
        for (int s = 0; s < STATES; ++s) {              // new state s = (bit << 5) | (old >> 1)
            int bit = s >> 5;
            int p0 = (s << 1) & (STATES - 1), p1 = p0 | 1;
            int m0 = metric[p0] + popcount2(encodePair(p0, bit) ^ r);
            int m1 = metric[p1] + popcount2(encodePair(p1, bit) ^ r);
            if (m1 < m0) { next[s] = m1; choice |= 1ull << s; } else next[s] = m0;
        }
        survivors[t] = choice;
        for (int s = 0; s < STATES; ++s) metric[s] = next[s];
    }
    int state = 0;                                      // zero-terminated frame
    *finalMetric = metric[0];
    for (int t = FRAME_BITS - 1; t >= 0; --t) {
        int bit = state >> 5;
        if (t < INFO_BITS) decoded[t] = (uint8_t)bit;
        int p = ((state << 1) & (STATES - 1)) | (int)((survivors[t] >> state) & 1);
        state = p;
    }
}

__global__ void decodeFrames(const uint8_t* rx, uint8_t* decoded, int* metrics, int frames) {
    int f = blockIdx.x * blockDim.x + threadIdx.x;
    if (f >= frames) return;
    viterbiFrame(rx + (size_t)f * 2 * FRAME_BITS, decoded + (size_t)f * INFO_BITS, &metrics[f]);
}

int main() {
    std::vector<uint8_t> info((size_t)kFrames * INFO_BITS), rx((size_t)kFrames * 2 * FRAME_BITS);
    uint32_t s = 0xC0DE171u;
    int injected = 0;
    for (int f = 0; f < kFrames; ++f) {
        int state = 0;
        for (int t = 0; t < FRAME_BITS; ++t) {
            s = s * 1664525u + 1013904223u;
            int bit = t < INFO_BITS ? (int)(s >> 31) : 0;
            if (t < INFO_BITS) info[(size_t)f * INFO_BITS + t] = (uint8_t)bit;
            int pair = encodePair(state, bit);
            state = (bit << 5) | (state >> 1);
            for (int k = 0; k < 2; ++k) {
                s = s * 1664525u + 1013904223u;
                int flip = (s >> 8) % 1000 < (unsigned)(f % 4 == 3 ? 60 : 25);   // 2.5% or 6% bit errors
                injected += flip;
                rx[(size_t)f * 2 * FRAME_BITS + 2 * t + k] = (uint8_t)(((pair >> (1 - k)) & 1) ^ flip);
            }
        }
    }
    uint8_t *dRx, *dDec; int* dMetric;
    CUDA_CHECK(cudaMalloc(&dRx, rx.size()));
    CUDA_CHECK(cudaMalloc(&dDec, info.size()));
    CUDA_CHECK(cudaMalloc(&dMetric, kFrames * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(dRx, rx.data(), rx.size(), cudaMemcpyHostToDevice));
    decodeFrames<<<kFrames / 64, 64>>>(dRx, dDec, dMetric, kFrames);
    CUDA_CHECK(cudaGetLastError());
    std::vector<uint8_t> dec(info.size());
    std::vector<int> metric(kFrames);
    CUDA_CHECK(cudaMemcpy(dec.data(), dDec, dec.size(), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(metric.data(), dMetric, kFrames * sizeof(int), cudaMemcpyDeviceToHost));

    int mismatches = 0, bitErrors = 0, badFrames = 0;
    long long metricSum = 0;
    std::vector<uint8_t> ref(INFO_BITS);
    for (int f = 0; f < kFrames; ++f) {
        int m = 0, frameErr = 0;
        viterbiFrame(&rx[(size_t)f * 2 * FRAME_BITS], ref.data(), &m);
        mismatches += (m != metric[f]);
        for (int t = 0; t < INFO_BITS; ++t) {
            mismatches += (ref[t] != dec[(size_t)f * INFO_BITS + t]);
            frameErr += (dec[(size_t)f * INFO_BITS + t] != info[(size_t)f * INFO_BITS + t]);
        }
        bitErrors += frameErr;
        badFrames += frameErr > 0;
        metricSum += metric[f];
    }
    printf("frames %d info bits %d channel bit flips %d\n", kFrames, INFO_BITS, injected);
    printf("residual bit errors %d frames with errors %d path metric sum %lld\n", bitErrors, badFrames, metricSum);
    printf("mismatches %d\n", mismatches);
    bool ok = mismatches == 0 && bitErrors * 20 < injected;     // the code removes most channel errors
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dRx)); CUDA_CHECK(cudaFree(dDec)); CUDA_CHECK(cudaFree(dMetric));
    return ok ? 0 : 1;
}
