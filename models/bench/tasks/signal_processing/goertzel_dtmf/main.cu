// DTMF tone decoding with the Goertzel algorithm. A 2D grid assigns one
// thread per (frame, tone frequency); per-frame energy normalisation uses fast
// intrinsics. The host picks the strongest row and column tone per frame.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>
#include <vector>
#include <string>
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

static const int kFrames = 128;
static const int kFrameLen = 205;
static const int kTones = 8;
static const double kRate = 8000.0;
static const double kPi = 3.14159265358979323846;
static const double kToneHz[kTones] = {697, 770, 852, 941, 1209, 1336, 1477, 1633};
static const char kKeys[4][4] = {{'1', '2', '3', 'A'}, {'4', '5', '6', 'B'}, {'7', '8', '9', 'C'}, {'*', '0', '#', 'D'}};

__constant__ float cCoeff[kTones];

__global__ void goertzel(const float* frames, float* power) {
    int tone = threadIdx.x;                            // blockDim.x == kTones
    int frame = blockIdx.x * blockDim.y + threadIdx.y; // 2D: frames along y
    if (frame >= kFrames) return;
    const float* x = frames + frame * kFrameLen;
    float coeff = cCoeff[tone];
    float s1 = 0.0f, s2 = 0.0f, energy = 0.0f;
    for (int n = 0; n < kFrameLen; ++n) {
        float s0 = x[n] + coeff * s1 - s2;
        s2 = s1; s1 = s0;
        energy = __fmaf_rn(x[n], x[n], energy);
    }
    float p = s1 * s1 + s2 * s2 - coeff * s1 * s2;
    power[frame * kTones + tone] = __fdividef(p, energy * kFrameLen);
}

static float goertzelCpu(const float* x, float coeff) {
    float s1 = 0.0f, s2 = 0.0f, energy = 0.0f;
    for (int n = 0; n < kFrameLen; ++n) {
        float s0 = x[n] + coeff * s1 - s2;
        s2 = s1; s1 = s0;
        energy += x[n] * x[n];
    }
    return (s1 * s1 + s2 * s2 - coeff * s1 * s2) / (energy * kFrameLen);
}

static char decode(const float* p) {
    int r = 0, c = 4;
    for (int k = 1; k < 4; ++k) if (p[k] > p[r]) r = k;
    for (int k = 5; k < 8; ++k) if (p[k] > p[c]) c = k;
    return kKeys[r][c - 4];
}

int main() {
    std::vector<float> frames(kFrames * kFrameLen);
    std::vector<char> truth(kFrames);
    uint32_t s = 8008135u;
    for (int f = 0; f < kFrames; ++f) {
        s = s * 1664525u + 1013904223u;
        int row = (s >> 24) & 3, col = (s >> 26) & 3;
        truth[f] = kKeys[row][col];
        for (int n = 0; n < kFrameLen; ++n) {
            s = s * 1664525u + 1013904223u;
            double noise = ((int)(s >> 16) - 32768) / 65536.0;
            double t = n / kRate;
            frames[f * kFrameLen + n] = (float)(0.5 * sin(2 * kPi * kToneHz[row] * t) +
                                                0.4 * sin(2 * kPi * kToneHz[4 + col] * t) + 0.3 * noise);
        }
    }
    float coeff[kTones];
    for (int k = 0; k < kTones; ++k) {
        int bin = (int)(0.5 + kFrameLen * kToneHz[k] / kRate);
        coeff[k] = (float)(2.0 * cos(2.0 * kPi * bin / kFrameLen));
    }
    CUDA_CHECK(cudaMemcpyToSymbol(cCoeff, coeff, sizeof(coeff)));
    float *dFrames, *dPower;
    CUDA_CHECK(cudaMalloc(&dFrames, frames.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dPower, kFrames * kTones * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dFrames, frames.data(), frames.size() * sizeof(float), cudaMemcpyHostToDevice));
    dim3 block(kTones, 16), grid(kFrames / 16);
    goertzel<<<grid, block>>>(dFrames, dPower);
    CUDA_CHECK(cudaGetLastError());
    std::vector<float> power(kFrames * kTones);
    CUDA_CHECK(cudaMemcpy(power.data(), dPower, power.size() * sizeof(float), cudaMemcpyDeviceToHost));

    std::string digits;
    int wrong = 0;
    double maxRel = 0.0, totalPower = 0.0;
    for (int f = 0; f < kFrames; ++f) {
        char d = decode(&power[f * kTones]);
        digits.push_back(d);
        wrong += (d != truth[f]);
        for (int k = 0; k < kTones; ++k) {
            float ref = goertzelCpu(&frames[f * kFrameLen], coeff[k]);
            float g = power[f * kTones + k];
            totalPower += g;
            maxRel = fmax(maxRel, fabs(g - ref) / (fabs(ref) + 1e-3));
        }
    }
    printf("frames %d decoded: %s\n", kFrames, digits.c_str());
    printf("normalised power total %.4e frame0 row tones %.4e %.4e %.4e %.4e\n", totalPower,
           power[0], power[1], power[2], power[3]);
    printf("decode errors %d\n", wrong);
    bool ok = wrong == 0 && maxRel < 1e-3;
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dFrames)); CUDA_CHECK(cudaFree(dPower));
    return ok ? 0 : 1;
}
