// RGB -> YUV 4:2:0 conversion (BT.601) with half-precision planes. Luma is
// stored as __half; chroma is computed per pixel as a __half2 (U,V) pair and
// averaged over 2x2 blocks with __half2 arithmetic.
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

static const int kWidth = 256, kHeight = 256;

__host__ __device__ inline void rgbToYuv(float r, float g, float b, float* y, float* u, float* v) {
    *y = 0.299f * r + 0.587f * g + 0.114f * b;
    *u = -0.14713f * r - 0.28886f * g + 0.436f * b;
    *v = 0.615f * r - 0.51499f * g - 0.10001f * b;
}

__global__ void convertPixels(const uchar3* rgb, __half* lumaOut, __half2* chromaFull, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    uchar3 p = rgb[y * w + x];
    float Y, U, V;
    rgbToYuv(p.x / 255.0f, p.y / 255.0f, p.z / 255.0f, &Y, &U, &V);
    lumaOut[y * w + x] = __float2half_rn(Y);
    chromaFull[y * w + x] = __floats2half2_rn(U, V);
}

__global__ void subsampleChroma(const __half2* chromaFull, __half2* chroma420, int w, int h) {
    int cx = blockIdx.x * blockDim.x + threadIdx.x;
    int cy = blockIdx.y * blockDim.y + threadIdx.y;
    if (cx >= w / 2 || cy >= h / 2) return;
    const __half2 quarter = __float2half2_rn(0.25f);
    __half2 a = chromaFull[(2 * cy) * w + 2 * cx], b = chromaFull[(2 * cy) * w + 2 * cx + 1];
    __half2 c = chromaFull[(2 * cy + 1) * w + 2 * cx], d = chromaFull[(2 * cy + 1) * w + 2 * cx + 1];
    __half2 sum = __hadd2(__hadd2(a, b), __hadd2(c, d));
    chroma420[cy * (w / 2) + cx] = __hmul2(sum, quarter);
}

int main() {
    const int n = kWidth * kHeight, nc = n / 4;
    std::vector<uchar3> rgb(n);
    uint32_t s = 55555u;
    for (int y = 0; y < kHeight; ++y)
        for (int x = 0; x < kWidth; ++x) {
            s = s * 1664525u + 1013904223u;
            rgb[y * kWidth + x] = make_uchar3((unsigned char)x, (unsigned char)(255 - y),
                                              (unsigned char)((s >> 24) ^ (x & y)));
        }
    uchar3* dRgb; __half* dLuma; __half2 *dFull, *dChroma;
    CUDA_CHECK(cudaMalloc(&dRgb, n * sizeof(uchar3)));
    CUDA_CHECK(cudaMalloc(&dLuma, n * sizeof(__half)));
    CUDA_CHECK(cudaMalloc(&dFull, n * sizeof(__half2)));
    CUDA_CHECK(cudaMalloc(&dChroma, nc * sizeof(__half2)));
    CUDA_CHECK(cudaMemcpy(dRgb, rgb.data(), n * sizeof(uchar3), cudaMemcpyHostToDevice));
    dim3 block(16, 16);
    convertPixels<<<dim3(kWidth / 16, kHeight / 16), block>>>(dRgb, dLuma, dFull, kWidth, kHeight);
    CUDA_CHECK(cudaGetLastError());
    subsampleChroma<<<dim3(kWidth / 32, kHeight / 32), block>>>(dFull, dChroma, kWidth, kHeight);
    CUDA_CHECK(cudaGetLastError());
    std::vector<__half> luma(n);
    std::vector<__half2> chroma(nc);
    CUDA_CHECK(cudaMemcpy(luma.data(), dLuma, n * sizeof(__half), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(chroma.data(), dChroma, nc * sizeof(__half2), cudaMemcpyDeviceToHost));

    double sumY = 0, sumU = 0, sumV = 0, maxErrY = 0, maxErrC = 0;
    std::vector<float> refU(n), refV(n);
    for (int i = 0; i < n; ++i) {
        float Y, U, V;
        rgbToYuv(rgb[i].x / 255.0f, rgb[i].y / 255.0f, rgb[i].z / 255.0f, &Y, &U, &V);
        refU[i] = U; refV[i] = V;
        float gy = __half2float(luma[i]);
        sumY += gy;
        maxErrY = fmax(maxErrY, fabs(gy - Y));
    }
    for (int cy = 0; cy < kHeight / 2; ++cy)
        for (int cx = 0; cx < kWidth / 2; ++cx) {
            int i0 = 2 * cy * kWidth + 2 * cx, i1 = i0 + kWidth;
            float u = 0.25f * (refU[i0] + refU[i0 + 1] + refU[i1] + refU[i1 + 1]);
            float v = 0.25f * (refV[i0] + refV[i0 + 1] + refV[i1] + refV[i1 + 1]);
            float2 g = __half22float2(chroma[cy * (kWidth / 2) + cx]);
            sumU += fabs(g.x); sumV += fabs(g.y);
            maxErrC = fmax(maxErrC, fmax(fabs(g.x - u), fabs(g.y - v)));
        }
    printf("luma sum %.4e chroma abs sums %.4e %.4e\n", sumY, sumU, sumV);
    printf("Y[0] %.3e Y[32896] %.3e UV[100] %.3e %.3e\n", __half2float(luma[0]), __half2float(luma[32896]),
           __low2float(chroma[100]), __high2float(chroma[100]));
    bool ok = maxErrY < 2e-3 && maxErrC < 4e-3;
    printf("half-precision errors within bounds: %s\n", ok ? "yes" : "no");
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dRgb)); CUDA_CHECK(cudaFree(dLuma)); CUDA_CHECK(cudaFree(dFull)); CUDA_CHECK(cudaFree(dChroma));
    return ok ? 0 : 1;
}
