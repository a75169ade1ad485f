// Bilinear resampling of an RGBA8 image (uchar4) to a smaller float4 image,
// using pixel-centre alignment like common image libraries.
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

static const int kSrcW = 256, kSrcH = 256;
static const int kDstW = 200, kDstH = 152;

struct ResizeParams {
    int srcW, srcH, dstW, dstH;
    float scaleX, scaleY;
};

__host__ __device__ inline float4 toFloat4(uchar4 p) {
    return make_float4((float)p.x, (float)p.y, (float)p.z, (float)p.w);
}

__host__ __device__ inline float4 lerp4(float4 a, float4 b, float t) {
    return make_float4(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t,
                       a.z + (b.z - a.z) * t, a.w + (b.w - a.w) * t);
}

__host__ __device__ inline float4 sampleBilinear(const uchar4* src, const ResizeParams& p, int dx, int dy) {
    float sx = (dx + 0.5f) * p.scaleX - 0.5f;
    float sy = (dy + 0.5f) * p.scaleY - 0.5f;
    sx = fminf(fmaxf(sx, 0.0f), (float)(p.srcW - 1));
    sy = fminf(fmaxf(sy, 0.0f), (float)(p.srcH - 1));
    int x0 = (int)sx, y0 = (int)sy;
    int x1 = min(x0 + 1, p.srcW - 1), y1 = min(y0 + 1, p.srcH - 1);
    float tx = sx - x0, ty = sy - y0;
    float4 top = lerp4(toFloat4(src[y0 * p.srcW + x0]), toFloat4(src[y0 * p.srcW + x1]), tx);
    float4 bot = lerp4(toFloat4(src[y1 * p.srcW + x0]), toFloat4(src[y1 * p.srcW + x1]), tx);
    return lerp4(top, bot, ty);
}

__global__ void resizeBilinear(const uchar4* src, float4* dst, ResizeParams p) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= p.dstW || y >= p.dstH) return;
    dst[y * p.dstW + x] = sampleBilinear(src, p, x, y);
}

int main() {
    std::vector<uchar4> src(kSrcW * kSrcH);
    uint32_t s = 97531u;
    for (int y = 0; y < kSrcH; ++y)
        for (int x = 0; x < kSrcW; ++x) {
            s ^= s << 13; s ^= s >> 17; s ^= s << 5;
            uchar4 p;
            p.x = (unsigned char)(x ^ y);
            p.y = (unsigned char)((x * 3 + y) & 255);
            p.z = (unsigned char)(s & 255);
            p.w = 255;
            src[y * kSrcW + x] = p;
        }
    ResizeParams p{kSrcW, kSrcH, kDstW, kDstH, (float)kSrcW / kDstW, (float)kSrcH / kDstH};
    uchar4* dSrc; float4* dDst;
    CUDA_CHECK(cudaMalloc(&dSrc, src.size() * sizeof(uchar4)));
    CUDA_CHECK(cudaMalloc(&dDst, kDstW * kDstH * sizeof(float4)));
    CUDA_CHECK(cudaMemcpy(dSrc, src.data(), src.size() * sizeof(uchar4), cudaMemcpyHostToDevice));
    dim3 block(16, 16), grid((kDstW + 15) / 16, (kDstH + 15) / 16);
    resizeBilinear<<<grid, block>>>(dSrc, dDst, p);
    CUDA_CHECK(cudaGetLastError());
    std::vector<float4> dst(kDstW * kDstH);
    CUDA_CHECK(cudaMemcpy(dst.data(), dDst, dst.size() * sizeof(float4), cudaMemcpyDeviceToHost));

    double sum[4] = {0, 0, 0, 0}, maxErr = 0.0;
    for (int y = 0; y < kDstH; ++y)
        for (int x = 0; x < kDstW; ++x) {
            float4 r = sampleBilinear(src.data(), p, x, y);
            float4 g = dst[y * kDstW + x];
            maxErr = fmax(maxErr, fabs(r.x - g.x) + fabs(r.y - g.y) + fabs(r.z - g.z) + fabs(r.w - g.w));
            sum[0] += g.x; sum[1] += g.y; sum[2] += g.z; sum[3] += g.w;
        }
    printf("resize %dx%d -> %dx%d\n", kSrcW, kSrcH, kDstW, kDstH);
    printf("channel sums %.6e %.6e %.6e %.6e\n", sum[0], sum[1], sum[2], sum[3]);
    float4 a = dst[0], b = dst[77 * kDstW + 123];
    printf("dst[0] %.6e %.6e %.6e dst[77,123] %.6e %.6e %.6e\n", a.x, a.y, a.z, b.x, b.y, b.z);
    bool ok = maxErr < 1e-2;
    printf("max abs error below 1e-2: %s\n", ok ? "yes" : "no");
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dSrc)); CUDA_CHECK(cudaFree(dDst));
    return ok ? 0 : 1;
}
