// Stereo FIR equaliser in half precision: samples are __half2 (left, right)
// pairs, taps are __half2 in constant memory, and each output accumulates
// with __hfma2 in a fixed order. The host reference accumulates in float;
// the check allows the error that half-precision accumulation brings.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#define CUDA_CHECK(call)                                                        \
    do {                                                                        \
        cudaError_t err_ = (call);                                              \
        if (err_ != cudaSuccess) {                                              \
            fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_), \
                    __FILE__, __LINE__);                                        \
            exit(2);                                                            \
        }                                                                       \
    } while (0)

#define TAPS 16
static const int kFrames = 32768;
static const double kPi = 3.14159265358979323846;
__constant__ __half2 cTaps[TAPS];

__global__ void firStereo(const __half2* in, __half2* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __half2 acc = __float2half2_rn(0.0f);
#pragma unroll
    for (int k = 0; k < TAPS; ++k) {
        __half2 x = (i - k >= 0) ? in[i - k] : __float2half2_rn(0.0f);
        acc = __hfma2(cTaps[k], x, acc);
    }
    out[i] = acc;
}

int main() {
    // left: gentle low-pass, right: low-pass with a slight presence boost; both sum to about 1
    float tapsL[TAPS], tapsR[TAPS];
    double sumL = 0, sumR = 0;
    for (int k = 0; k < TAPS; ++k) {
        double w = 0.5 - 0.5 * cos(2 * kPi * (k + 0.5) / TAPS);
        tapsL[k] = (float)w;
        tapsR[k] = (float)(w * (1.0 + 0.3 * cos(2 * kPi * k / 4.0)));
        sumL += tapsL[k]; sumR += tapsR[k];
    }
    __half2 taps[TAPS];
    for (int k = 0; k < TAPS; ++k) {
        tapsL[k] = (float)(tapsL[k] / sumL); tapsR[k] = (float)(tapsR[k] / sumR);
        taps[k] = __floats2half2_rn(tapsL[k], tapsR[k]);
        tapsL[k] = __low2float(taps[k]); tapsR[k] = __high2float(taps[k]);   // reference uses the rounded taps
    }
    CUDA_CHECK(cudaMemcpyToSymbol(cTaps, taps, sizeof(taps)));
    std::vector<__half2> in(kFrames);
    std::vector<float> inL(kFrames), inR(kFrames);
    uint32_t s = 44100u;
    for (int i = 0; i < kFrames; ++i) {
        s ^= s << 13; s ^= s >> 17; s ^= s << 5;
        float noise = ((int)(s & 1023) - 512) / 4096.0f;
        float l = (float)(0.6 * sin(2 * kPi * 440.0 * i / 44100.0)) + noise;
        float r = (float)(0.5 * sin(2 * kPi * 660.0 * i / 44100.0 + 0.3)) - noise;
        in[i] = __floats2half2_rn(l, r);
        inL[i] = __low2float(in[i]); inR[i] = __high2float(in[i]);
    }
    __half2 *dIn, *dOut;
    CUDA_CHECK(cudaMalloc(&dIn, kFrames * sizeof(__half2)));
    CUDA_CHECK(cudaMalloc(&dOut, kFrames * sizeof(__half2)));
    CUDA_CHECK(cudaMemcpy(dIn, in.data(), kFrames * sizeof(__half2), cudaMemcpyHostToDevice));
    firStereo<<<kFrames / 256, 256>>>(dIn, dOut, kFrames);
    CUDA_CHECK(cudaGetLastError());
    std::vector<__half2> out(kFrames);
    CUDA_CHECK(cudaMemcpy(out.data(), dOut, kFrames * sizeof(__half2), cudaMemcpyDeviceToHost));

    double maxErr = 0.0, energyL = 0.0, energyR = 0.0;
    for (int i = 0; i < kFrames; ++i) {
        float rl = 0.0f, rr = 0.0f;
        for (int k = 0; k < TAPS; ++k) {
            if (i - k < 0) continue;
            rl += tapsL[k] * inL[i - k];
            rr += tapsR[k] * inR[i - k];
        }
        float gl = __low2float(out[i]), gr = __high2float(out[i]);
        maxErr = fmax(maxErr, fmax(fabs(gl - rl), fabs(gr - rr)));
        energyL += (double)gl * gl; energyR += (double)gr * gr;
    }
    printf("frames %d taps %d\n", kFrames, TAPS);
    printf("output energy left %.4e right %.4e\n", energyL, energyR);
    printf("out[1000] %.4e %.4e out[30000] %.4e %.4e\n", __low2float(out[1000]), __high2float(out[1000]),
           __low2float(out[30000]), __high2float(out[30000]));
    bool ok = maxErr < 5e-3;
    printf("max abs error vs float accumulation below 5e-3: %s\n", ok ? "yes" : "no");
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dIn)); CUDA_CHECK(cudaFree(dOut));
    return ok ? 0 : 1;
}
