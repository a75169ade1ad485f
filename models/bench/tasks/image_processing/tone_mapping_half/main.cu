// Global Reinhard tone mapping of an HDR image stored in half precision
// (__half RGB planes). Kernel 1 reduces the log-average luminance per block
// in shared memory; the host combines the block sums; kernel 2 maps every
// pixel, L_d = L (1 + L / L_white^2) / (1 + L) with L = key * L_w / L_avg, and
// stores the result as __half. Results are compared with tolerances.
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

#define THREADS 256
static const int kSize = 256;
static const int kPixels = kSize * kSize;
static const float kKey = 0.18f, kWhite = 4.0f, kDelta = 1e-4f;

struct HdrImage { const __half* r; const __half* g; const __half* b; };

__host__ __device__ inline float luminance(float r, float g, float b) { return 0.2126f * r + 0.7152f * g + 0.0722f * b; }

__global__ void logLuminanceSums(HdrImage img, float* blockSums) {
    __shared__ float part[THREADS];
    int i = blockIdx.x * THREADS + threadIdx.x;
    float l = luminance(__half2float(img.r[i]), __half2float(img.g[i]), __half2float(img.b[i]));
    part[threadIdx.x] = logf(kDelta + l);
    __syncthreads();
    for (int stride = THREADS / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride) part[threadIdx.x] += part[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) blockSums[blockIdx.x] = part[0];
}

__host__ __device__ inline float reinhardScale(float lw, float avg) {
    float l = kKey * lw / avg;
    float ld = l * (1.0f + l / (kWhite * kWhite)) / (1.0f + l);
    return lw > 0.0f ? ld / lw : 0.0f;
}

__global__ void toneMap(HdrImage img, float avg, __half* outR, __half* outG, __half* outB) {
    int i = blockIdx.x * THREADS + threadIdx.x;
    float r = __half2float(img.r[i]), g = __half2float(img.g[i]), b = __half2float(img.b[i]);
    float sc = reinhardScale(luminance(r, g, b), avg);
    outR[i] = __float2half_rn(fminf(r * sc, 1.0f));
    outG[i] = __float2half_rn(fminf(g * sc, 1.0f));
    outB[i] = __float2half_rn(fminf(b * sc, 1.0f));
}

int main() {
    std::vector<__half> hr(kPixels), hg(kPixels), hb(kPixels);
    uint32_t s = 65504u;
    for (int y = 0; y < kSize; ++y)
        for (int x = 0; x < kSize; ++x) {
            s ^= s << 13; s ^= s >> 17; s ^= s << 5;
            float sky = (y < 80) ? 40.0f + 0.5f * x / 8 : 0.6f;                          // bright sky, dim ground
            float sun = ((x - 200) * (x - 200) + (y - 30) * (y - 30) < 100) ? 2000.0f : 0.0f;
            float tex = 0.8f + ((s >> 24) & 63) / 160.0f;
            int i = y * kSize + x;
            hr[i] = __float2half_rn((sky + sun) * tex);
            hg[i] = __float2half_rn((sky * 0.9f + sun) * tex);
            hb[i] = __float2half_rn((sky * (y < 80 ? 1.3f : 0.7f) + sun * 0.8f) * tex);
        }
    __half *dR, *dG, *dB, *oR, *oG, *oB; float* dSums;
    size_t bytes = kPixels * sizeof(__half);
    CUDA_CHECK(cudaMalloc(&dR, bytes)); CUDA_CHECK(cudaMalloc(&dG, bytes)); CUDA_CHECK(cudaMalloc(&dB, bytes));
    CUDA_CHECK(cudaMalloc(&oR, bytes)); CUDA_CHECK(cudaMalloc(&oG, bytes)); CUDA_CHECK(cudaMalloc(&oB, bytes));
    CUDA_CHECK(cudaMalloc(&dSums, (kPixels / THREADS) * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dR, hr.data(), bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dG, hg.data(), bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dB, hb.data(), bytes, cudaMemcpyHostToDevice));
    HdrImage img{dR, dG, dB};
    logLuminanceSums<<<kPixels / THREADS, THREADS>>>(img, dSums);
    CUDA_CHECK(cudaGetLastError());
    std::vector<float> sums(kPixels / THREADS);
    CUDA_CHECK(cudaMemcpy(sums.data(), dSums, sums.size() * sizeof(float), cudaMemcpyDeviceToHost));
    double logSum = 0.0;
    for (float v : sums) logSum += v;
    float avg = (float)exp(logSum / kPixels);
    toneMap<<<kPixels / THREADS, THREADS>>>(img, avg, oR, oG, oB);
    CUDA_CHECK(cudaGetLastError());
    std::vector<__half> outR(kPixels), outG(kPixels), outB(kPixels);
    CUDA_CHECK(cudaMemcpy(outR.data(), oR, bytes, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(outG.data(), oG, bytes, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(outB.data(), oB, bytes, cudaMemcpyDeviceToHost));

    double refLog = 0.0;
    for (int i = 0; i < kPixels; ++i)
        refLog += log(kDelta + (double)luminance(__half2float(hr[i]), __half2float(hg[i]), __half2float(hb[i])));
    double refAvg = exp(refLog / kPixels);
    double maxErr = 0.0, mean[3] = {0, 0, 0};
    int saturated = 0;
    for (int i = 0; i < kPixels; ++i) {
        float r = __half2float(hr[i]), g = __half2float(hg[i]), b = __half2float(hb[i]);
        float sc = reinhardScale(luminance(r, g, b), (float)refAvg);
        float ref[3] = {fminf(r * sc, 1.0f), fminf(g * sc, 1.0f), fminf(b * sc, 1.0f)};
        float got[3] = {__half2float(outR[i]), __half2float(outG[i]), __half2float(outB[i])};
        for (int c = 0; c < 3; ++c) { maxErr = fmax(maxErr, fabs(got[c] - ref[c])); mean[c] += got[c]; }
        saturated += got[0] >= 1.0f;
    }
    printf("image %dx%d key %.2f white %.1f\n", kSize, kSize, kKey, kWhite);
    printf("log-average luminance %.4e (host %.4e)\n", avg, refAvg);
    printf("mean output rgb %.4e %.4e %.4e saturated red pixels %d\n", mean[0] / kPixels, mean[1] / kPixels, mean[2] / kPixels, saturated);
    bool ok = fabs(avg - refAvg) < 1e-4 * refAvg && maxErr < 2e-3;
    printf("within half-precision tolerance: %s\n", ok ? "yes" : "no");
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dR)); CUDA_CHECK(cudaFree(dG)); CUDA_CHECK(cudaFree(dB));
    CUDA_CHECK(cudaFree(oR)); CUDA_CHECK(cudaFree(oG)); CUDA_CHECK(cudaFree(oB)); CUDA_CHECK(cudaFree(dSums));
    return ok ? 0 : 1;
}
