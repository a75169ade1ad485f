// Welch power spectral density: 50%-overlapping Hann-windowed segments of 128
// samples, a direct 128-point DFT per segment (one block per segment, the
// windowed segment in dynamic shared memory), and periodograms accumulated
// into the PSD with float atomicAdd. Atomic order varies, so the check and the
// printed values use tolerances.
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

static const int kSeg = 128;
static const int kHop = kSeg / 2;
static const int kSignal = 8192;
static const int kSegments = (kSignal - kSeg) / kHop + 1;
static const int kBins = kSeg / 2 + 1;
static const double kPi = 3.14159265358979323846;
__constant__ float cCos[kSeg];
__constant__ float cSin[kSeg];

__global__ void welchSegments(const float* x, const float* window, float* psd, float scale) {
    extern __shared__ float seg[];                    // kSeg windowed samples
    const float* src = x + blockIdx.x * kHop;
    for (int n = threadIdx.x; n < kSeg; n += blockDim.x) seg[n] = src[n] * window[n];
    __syncthreads();
    int k = threadIdx.x;                              // one frequency bin per thread
    if (k >= kBins) return;
    float re = 0.0f, im = 0.0f;
    for (int n = 0; n < kSeg; ++n) {
        int t = (k * n) & (kSeg - 1);                 // twiddle index modulo the segment length
        re += seg[n] * cCos[t];
        im -= seg[n] * cSin[t];
    }
    float power = (re * re + im * im) * scale;
    if (k != 0 && k != kSeg / 2) power *= 2.0f;       // one-sided spectrum
    atomicAdd(&psd[k], power);
}

int main() {
    float cosT[kSeg], sinT[kSeg], window[kSeg];
    double winPower = 0.0;
    for (int n = 0; n < kSeg; ++n) {
        cosT[n] = (float)cos(2 * kPi * n / kSeg);
        sinT[n] = (float)sin(2 * kPi * n / kSeg);
        window[n] = (float)(0.5 - 0.5 * cos(2 * kPi * n / kSeg));
        winPower += (double)window[n] * window[n];
    }
    CUDA_CHECK(cudaMemcpyToSymbol(cCos, cosT, sizeof(cosT)));
    CUDA_CHECK(cudaMemcpyToSymbol(cSin, sinT, sizeof(sinT)));
    std::vector<float> x(kSignal);
    uint32_t s = 19937u;
    for (int i = 0; i < kSignal; ++i) {
        s ^= s << 13; s ^= s >> 17; s ^= s << 5;
        float noise = ((int)(s & 4095) - 2048) / 2048.0f;
        x[i] = (float)(sin(2 * kPi * 16.0 * i / kSeg) + 0.5 * sin(2 * kPi * 40.5 * i / kSeg)) + 0.3f * noise;
    }
    float scale = (float)(1.0 / (winPower * kSegments));
    float *dX, *dWin, *dPsd;
    CUDA_CHECK(cudaMalloc(&dX, kSignal * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dWin, kSeg * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dPsd, kBins * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dX, x.data(), kSignal * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dWin, window, sizeof(window), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(dPsd, 0, kBins * sizeof(float)));
    welchSegments<<<kSegments, 96, kSeg * sizeof(float)>>>(dX, dWin, dPsd, scale);
    CUDA_CHECK(cudaGetLastError());
    std::vector<float> psd(kBins);
    CUDA_CHECK(cudaMemcpy(psd.data(), dPsd, kBins * sizeof(float), cudaMemcpyDeviceToHost));

    std::vector<double> ref(kBins, 0.0);
    for (int sgm = 0; sgm < kSegments; ++sgm)
        for (int k = 0; k < kBins; ++k) {
            double re = 0.0, im = 0.0;
            for (int n = 0; n < kSeg; ++n) {
                double v = (double)x[sgm * kHop + n] * window[n];
                re += v * cos(2 * kPi * k * n / kSeg);
                im -= v * sin(2 * kPi * k * n / kSeg);
            }
            double p = (re * re + im * im) / (winPower * kSegments);
            ref[k] += (k != 0 && k != kSeg / 2) ? 2 * p : p;
        }
    double maxRel = 0.0, total = 0.0, peakPower = 0.0;
    int peak = 0;
    for (int k = 0; k < kBins; ++k) {
        maxRel = fmax(maxRel, fabs(psd[k] - ref[k]) / (ref[k] + 1e-3));
        total += psd[k];
        if (psd[k] > peakPower) { peakPower = psd[k]; peak = k; }
    }
    printf("signal %d segments %d of %d samples, %d bins\n", kSignal, kSegments, kSeg, kBins);
    printf("peak bin %d power %.4e total power %.4e\n", peak, peakPower, total);
    printf("psd[40] %.4e psd[41] %.4e psd[60] %.4e\n", psd[40], psd[41], psd[60]);
    bool ok = maxRel < 1e-3 && peak == 16;
    printf("matches double-precision reference within 1e-3: %s\n", maxRel < 1e-3 ? "yes" : "no");
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dX)); CUDA_CHECK(cudaFree(dWin)); CUDA_CHECK(cudaFree(dPsd));
    return ok ? 0 : 1;
}
