// Cascaded integrator-comb (CIC) decimator, 3 stages, decimation 8, for 512
// independent 16-bit channels (one thread per channel, time-major layout).
// Integrators run in wrapping 32-bit unsigned arithmetic - the overflow is
// part of the algorithm and cancels in the combs - and the gain R^N = 512 is
// removed with an arithmetic shift. Stage count and rate are template
// parameters; results are exact integers.
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

static const int kChannels = 512;
static const int kInput = 2048;
static const double kPi = 3.14159265358979323846;

template <int STAGES, int RATE>
__host__ __device__ inline void cicChannel(const short* x, int* y, int channels, int c, int inputLen) {
    uint32_t integ[STAGES] = {0};
    uint32_t combDelay[STAGES] = {0};
    const int shift = STAGES * (RATE == 8 ? 3 : RATE == 4 ? 2 : 1);   // log2(RATE^STAGES)
    for (int t = 0; t < inputLen; ++t) {
        uint32_t v = (uint32_t)(int32_t)x[(size_t)t * channels + c];
        for (int s = 0; s < STAGES; ++s) { integ[s] += v; v = integ[s]; }
        if ((t + 1) % RATE == 0) {
            for (int s = 0; s < STAGES; ++s) { uint32_t prev = combDelay[s]; combDelay[s] = v; v -= prev; }
            y[(size_t)((t + 1) / RATE - 1) * channels + c] = (int32_t)v >> shift;
        }
    }
}

template <int STAGES, int RATE>
__global__ void cicDecimate(const short* x, int* y, int channels, int inputLen) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c < channels) cicChannel<STAGES, RATE>(x, y, channels, c, inputLen);
}

int main() {
    const int outLen = kInput / 8;
    std::vector<short> x((size_t)kInput * kChannels);
    uint32_t s = 48000u;
    for (int t = 0; t < kInput; ++t)
        for (int c = 0; c < kChannels; ++c) {
            s = s * 1664525u + 1013904223u;
            double f = 0.002 + 0.0001 * (c % 40);                          // low tones pass the CIC
            double v = 20000.0 * sin(2 * kPi * f * t) + 8000.0 * sin(2 * kPi * 0.37 * t);   // plus a tone it rejects
            x[(size_t)t * kChannels + c] = (short)(v + (int)((s >> 22) % 513) - 256);
        }
    short* dX; int* dY;
    CUDA_CHECK(cudaMalloc(&dX, x.size() * sizeof(short)));
    CUDA_CHECK(cudaMalloc(&dY, (size_t)outLen * kChannels * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(dX, x.data(), x.size() * sizeof(short), cudaMemcpyHostToDevice));
    cicDecimate<3, 8><<<kChannels / 128, 128>>>(dX, dY, kChannels, kInput);
    CUDA_CHECK(cudaGetLastError());
    std::vector<int> y((size_t)outLen * kChannels), ref(y.size());
    CUDA_CHECK(cudaMemcpy(y.data(), dY, y.size() * sizeof(int), cudaMemcpyDeviceToHost));

    for (int c = 0; c < kChannels; ++c) cicChannel<3, 8>(x.data(), ref.data(), kChannels, c, kInput);
    int mismatches = 0, peak = 0;
    long long checksum = 0;
    double energy = 0.0;
    for (size_t i = 0; i < y.size(); ++i) {
        mismatches += (y[i] != ref[i]);
        checksum += (long long)y[i] * (long long)(i % 101 + 1);
        peak = abs(y[i]) > peak ? abs(y[i]) : peak;
        if (i >= (size_t)4 * kChannels) energy += (double)y[i] * y[i];   // skip the start-up transient
    }
    printf("channels %d input %d output %d (3 stages, R = 8)\n", kChannels, kInput, outLen);
    printf("peak output %d rms %.6e checksum %lld\n", peak, sqrt(energy / (y.size() - 4 * kChannels)), checksum);
    printf("y[100][7] %d y[200][300] %d\n", y[100 * kChannels + 7], y[200 * kChannels + 300]);
    printf("mismatches %d\n", mismatches);
    bool ok = mismatches == 0;
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dX)); CUDA_CHECK(cudaFree(dY));
    return ok ? 0 : 1;
}
