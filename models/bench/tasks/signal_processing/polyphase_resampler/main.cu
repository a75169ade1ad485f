// Rational sample-rate conversion by UP/DOWN (here 3/2, e.g. 32 kHz -> 48 kHz)
// with a polyphase FIR bank: output sample m uses phase (m*DOWN) % UP of a
// windowed-sinc prototype stored in constant memory. UP, DOWN and the taps
// per phase are template parameters.
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

#define UP 3
#define DOWN 2
#define TAPS_PER_PHASE 12
static const int kInput = 32768;
static const int kOutput = kInput * UP / DOWN;
static const double kPi = 3.14159265358979323846;
__constant__ float cBank[UP * TAPS_PER_PHASE];    // cBank[phase * TAPS + k] = h[k * UP + phase]

template <int U, int D, int T>
__host__ __device__ inline float resampleOne(const float* x, int n, int m, const float* bank) {
    int pos = m * D;                 // position on the upsampled grid
    int phase = pos % U, base = pos / U;
    float acc = 0.0f;
#pragma unroll
    for (int k = 0; k < T; ++k) {
        int idx = base - k;
        if (idx >= 0 && idx < n) acc += bank[phase * T + k] * x[idx];
    }
    return acc;                      // the bank already carries the gain U lost by zero stuffing
}

template <int U, int D, int T>
__global__ void resample(const float* x, int n, float* y, int outCount) {
    int m = blockIdx.x * blockDim.x + threadIdx.x;
    if (m < outCount) y[m] = resampleOne<U, D, T>(x, n, m, cBank);
}

int main() {
    const int protoLen = UP * TAPS_PER_PHASE;
    std::vector<double> proto(protoLen);
    double cutoff = 0.5 / UP, sum = 0.0;             // relative to the upsampled rate
    for (int i = 0; i < protoLen; ++i) {
        double t = i - (protoLen - 1) / 2.0;
        double sinc = t == 0.0 ? 2 * cutoff : sin(2 * kPi * cutoff * t) / (kPi * t);
        double window = 0.42 - 0.5 * cos(2 * kPi * i / (protoLen - 1)) + 0.08 * cos(4 * kPi * i / (protoLen - 1));
        proto[i] = sinc * window;
        sum += proto[i];
    }
    float bank[UP * TAPS_PER_PHASE];
    for (int p = 0; p < UP; ++p)
        for (int k = 0; k < TAPS_PER_PHASE; ++k) bank[p * TAPS_PER_PHASE + k] = (float)(proto[k * UP + p] * UP / sum);
    CUDA_CHECK(cudaMemcpyToSymbol(cBank, bank, sizeof(bank)));
    std::vector<float> x(kInput);
    uint32_t s = 32000u;
    for (int i = 0; i < kInput; ++i) {
        s ^= s << 13; s ^= s >> 17; s ^= s << 5;
        x[i] = (float)(0.7 * sin(2 * kPi * 1000.0 * i / 32000.0) + 0.2 * sin(2 * kPi * 5000.0 * i / 32000.0)) +
               ((int)(s & 255) - 128) / 4096.0f;
    }
    float *dX, *dY;
    CUDA_CHECK(cudaMalloc(&dX, kInput * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dY, kOutput * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dX, x.data(), kInput * sizeof(float), cudaMemcpyHostToDevice));
    resample<UP, DOWN, TAPS_PER_PHASE><<<(kOutput + 255) / 256, 256>>>(dX, kInput, dY, kOutput);
    CUDA_CHECK(cudaGetLastError());
    std::vector<float> y(kOutput);
    CUDA_CHECK(cudaMemcpy(y.data(), dY, kOutput * sizeof(float), cudaMemcpyDeviceToHost));

    double maxErr = 0.0, energyIn = 0.0, energyOut = 0.0, toneErr = 0.0;
    for (int m = 0; m < kOutput; ++m) {
        float r = resampleOne<UP, DOWN, TAPS_PER_PHASE>(x.data(), kInput, m, bank);
        maxErr = fmax(maxErr, fabs((double)y[m] - r));
        energyOut += (double)y[m] * y[m];
        if (m > 100) {   // compare with the ideal 48 kHz signal (filter delay compensated)
            double t = (m - (protoLen - 1) / 2.0 / DOWN) / 48000.0;
            double ideal = 0.7 * sin(2 * kPi * 1000.0 * t) + 0.2 * sin(2 * kPi * 5000.0 * t);
            toneErr += (y[m] - ideal) * (y[m] - ideal);
        }
    }
    for (int i = 0; i < kInput; ++i) energyIn += (double)x[i] * x[i];
    double rmsErr = sqrt(toneErr / (kOutput - 101));
    printf("resample %d -> %d samples (x%d/%d), %d taps per phase\n", kInput, kOutput, UP, DOWN, TAPS_PER_PHASE);
    printf("mean power in %.5e out %.5e\n", energyIn / kInput, energyOut / kOutput);
    printf("rms deviation from the ideal 48 kHz tones %.4e\n", rmsErr);
    printf("y[1000] %.5e y[40000] %.5e\n", y[1000], y[40000]);
    bool ok = maxErr < 1e-5 && rmsErr < 0.05;
    printf("matches reference: %s\n", maxErr < 1e-5 ? "yes" : "no");
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dX)); CUDA_CHECK(cudaFree(dY));
    return ok ? 0 : 1;
}
