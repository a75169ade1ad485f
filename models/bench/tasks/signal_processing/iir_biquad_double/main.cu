// Cascaded biquad IIR filters (direct form II transposed) in double precision.
// One thread per channel runs the recursion over time; samples are stored
// time-major so neighbouring threads read neighbouring addresses.
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

static const int kChannels = 2048;
static const int kSamples = 192;
static const int kSections = 2;
static const double kPi = 3.14159265358979323846;

struct Biquad { double b0, b1, b2, a1, a2; };
__constant__ Biquad cSections[kSections];

__host__ __device__ inline double runSection(const Biquad& q, double x, double& z1, double& z2) {
    double y = q.b0 * x + z1;
    z1 = q.b1 * x - q.a1 * y + z2;
    z2 = q.b2 * x - q.a2 * y;
    return y;
}

__global__ void biquadCascade(const double* x, double* y, int channels, int samples) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= channels) return;
    double z[kSections][2] = {};
    for (int t = 0; t < samples; ++t) {
        double v = x[(size_t)t * channels + c];
#pragma unroll
        for (int s = 0; s < kSections; ++s) v = runSection(cSections[s], v, z[s][0], z[s][1]);
        y[(size_t)t * channels + c] = v;
    }
}

static Biquad lowpass(double f0, double q) {   // RBJ audio-EQ cookbook low-pass
    double w0 = 2 * kPi * f0, alpha = sin(w0) / (2 * q), cw = cos(w0), a0 = 1 + alpha;
    return Biquad{(1 - cw) / 2 / a0, (1 - cw) / a0, (1 - cw) / 2 / a0, -2 * cw / a0, (1 - alpha) / a0};
}

int main() {
    Biquad sections[kSections] = {lowpass(0.05, 0.54), lowpass(0.05, 1.31)};
    CUDA_CHECK(cudaMemcpyToSymbol(cSections, sections, sizeof(sections)));
    size_t count = (size_t)kChannels * kSamples;
    std::vector<double> x(count), y(count);
    uint64_t s = 0x9E3779B97F4A7C15ull;
    for (int t = 0; t < kSamples; ++t)
        for (int c = 0; c < kChannels; ++c) {
            s ^= s >> 12; s ^= s << 25; s ^= s >> 27;
            uint64_t r = s * 2685821657736338717ull;
            double noise = (double)(r >> 11) / 9007199254740992.0 - 0.5;
            double step = (t >= 16 + (c % 64)) ? 1.0 : 0.0;   // a step at a channel-dependent time
            x[(size_t)t * kChannels + c] = step + 0.2 * noise;
        }
    double *dX, *dY;
    CUDA_CHECK(cudaMalloc(&dX, count * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&dY, count * sizeof(double)));
    CUDA_CHECK(cudaMemcpy(dX, x.data(), count * sizeof(double), cudaMemcpyHostToDevice));
    biquadCascade<<<kChannels / 128, 128>>>(dX, dY, kChannels, kSamples);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(y.data(), dY, count * sizeof(double), cudaMemcpyDeviceToHost));

    double maxErr = 0.0, energy = 0.0, finalMean = 0.0;
    for (int c = 0; c < kChannels; ++c) {
        double z[kSections][2] = {};
        for (int t = 0; t < kSamples; ++t) {
            double v = x[(size_t)t * kChannels + c];
            for (int q = 0; q < kSections; ++q) v = runSection(sections[q], v, z[q][0], z[q][1]);
            double g = y[(size_t)t * kChannels + c];
            maxErr = fmax(maxErr, fabs(g - v));
            energy += g * g;
        }
        finalMean += y[(size_t)(kSamples - 1) * kChannels + c];
    }
    finalMean /= kChannels;
    printf("channels %d samples %d sections %d\n", kChannels, kSamples, kSections);
    printf("output energy %.9e final mean %.9e\n", energy, finalMean);
    printf("y[t=40,c=0] %.9e y[t=150,c=777] %.9e\n", y[40 * kChannels], y[150 * kChannels + 777]);
    bool ok = maxErr < 1e-10;
    printf("max abs error below 1e-10: %s\n", ok ? "yes" : "no");
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dX)); CUDA_CHECK(cudaFree(dY));
    return ok ? 0 : 1;
}
