// Multi-level 1D Haar wavelet denoising: forward transform (one launch per
// level), soft thresholding of the detail coefficients, inverse transform.
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

static const int kLen = 65536;
static const int kLevels = 4;
static const float kThreshold = 0.35f;
static const float kInvSqrt2 = 0.70710678118654752f;

// forward step on the first `len` entries: approximations to [0, len/2), details to [len/2, len)
__global__ void haarForward(const float* in, float* out, int len) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= len / 2) return;
    float a = in[2 * i], b = in[2 * i + 1];
    out[i] = (a + b) * kInvSqrt2;
    out[len / 2 + i] = (a - b) * kInvSqrt2;
}

__global__ void haarInverse(const float* in, float* out, int len) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= len / 2) return;
    float s = in[i], d = in[len / 2 + i];
    out[2 * i] = (s + d) * kInvSqrt2;
    out[2 * i + 1] = (s - d) * kInvSqrt2;
}

__global__ void copyTail(const float* in, float* out, int from, int to) {
    int i = from + blockIdx.x * blockDim.x + threadIdx.x;
    if (i < to) out[i] = in[i];
}

__global__ void softThreshold(float* coeff, int from, int to, float t) {
    int i = from + blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= to) return;
    float c = coeff[i];
    coeff[i] = copysignf(fmaxf(fabsf(c) - t, 0.0f), c);
}

static void cpuPipeline(std::vector<float>& v) {
    std::vector<float> tmp(v.size());
    for (int level = 0, len = kLen; level < kLevels; ++level, len /= 2) {
        tmp = v;
        for (int i = 0; i < len / 2; ++i) {
            tmp[i] = (v[2 * i] + v[2 * i + 1]) * kInvSqrt2;
            tmp[len / 2 + i] = (v[2 * i] - v[2 * i + 1]) * kInvSqrt2;
        }
        v = tmp;
    }
    for (int i = kLen >> kLevels; i < kLen; ++i) v[i] = copysignf(fmaxf(fabsf(v[i]) - kThreshold, 0.0f), v[i]);
    for (int len = kLen >> (kLevels - 1); len <= kLen; len *= 2) {
        tmp = v;
        for (int i = 0; i < len / 2; ++i) {
            tmp[2 * i] = (v[i] + v[len / 2 + i]) * kInvSqrt2;
            tmp[2 * i + 1] = (v[i] - v[len / 2 + i]) * kInvSqrt2;
        }
        v = tmp;
    }
}

int main() {
    std::vector<float> clean(kLen), noisy(kLen);
    uint32_t s = 481516234u;
    for (int n = 0; n < kLen; ++n) {
        s ^= s << 13; s ^= s >> 17; s ^= s << 5;
        float noise = ((int)(s % 2001) - 1000) / 2000.0f;
        clean[n] = ((n / 1024) % 2 ? 2.0f : -1.0f) + (float)sin(n * 0.001);   // piecewise plus slow wave
        noisy[n] = clean[n] + 0.4f * noise;
    }
    float *dA, *dB;
    size_t bytes = kLen * sizeof(float);
    CUDA_CHECK(cudaMalloc(&dA, bytes));
    CUDA_CHECK(cudaMalloc(&dB, bytes));
    CUDA_CHECK(cudaMemcpy(dA, noisy.data(), bytes, cudaMemcpyHostToDevice));
    const int threads = 256;
    float *cur = dA, *nxt = dB;
    for (int level = 0, len = kLen; level < kLevels; ++level, len /= 2) {
        haarForward<<<(len / 2 + threads - 1) / threads, threads>>>(cur, nxt, len);
        CUDA_CHECK(cudaGetLastError());
        if (len < kLen) {
            copyTail<<<(kLen - len + threads - 1) / threads, threads>>>(cur, nxt, len, kLen);
            CUDA_CHECK(cudaGetLastError());
        }
        float* t = cur; cur = nxt; nxt = t;
    }
    int coarse = kLen >> kLevels;
    softThreshold<<<(kLen - coarse + threads - 1) / threads, threads>>>(cur, coarse, kLen, kThreshold);
    CUDA_CHECK(cudaGetLastError());
    for (int len = kLen >> (kLevels - 1); len <= kLen; len *= 2) {
        haarInverse<<<(len / 2 + threads - 1) / threads, threads>>>(cur, nxt, len);
        CUDA_CHECK(cudaGetLastError());
        if (len < kLen) {
            copyTail<<<(kLen - len + threads - 1) / threads, threads>>>(cur, nxt, len, kLen);
            CUDA_CHECK(cudaGetLastError());
        }
        float* t = cur; cur = nxt; nxt = t;
    }
    std::vector<float> out(kLen);
    CUDA_CHECK(cudaMemcpy(out.data(), cur, bytes, cudaMemcpyDeviceToHost));

    std::vector<float> ref(noisy);
    cpuPipeline(ref);
    double maxErr = 0.0, errNoisy = 0.0, errOut = 0.0, sum = 0.0;
    for (int n = 0; n < kLen; ++n) {
        maxErr = fmax(maxErr, fabs((double)out[n] - ref[n]));
        errNoisy += (noisy[n] - clean[n]) * (double)(noisy[n] - clean[n]);
        errOut += (out[n] - clean[n]) * (double)(out[n] - clean[n]);
        sum += out[n];
    }
    printf("length %d levels %d threshold %.2f\n", kLen, kLevels, kThreshold);
    printf("squared error noisy %.5e denoised %.5e\n", errNoisy, errOut);
    printf("output sum %.5e out[0] %.5e out[40000] %.5e\n", sum, out[0], out[40000]);
    bool ok = maxErr < 1e-4 && errOut < errNoisy;
    printf("matches reference: %s, noise reduced: %s\n", maxErr < 1e-4 ? "yes" : "no", errOut < errNoisy ? "yes" : "no");
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dA)); CUDA_CHECK(cudaFree(dB));
    return ok ? 0 : 1;
}
