// Sobel edge detection on an 8-bit image with a 2D grid. Each block builds a
// 16-bin magnitude histogram in shared memory and merges it into global memory;
// edge pixels above a threshold are counted with a global atomic.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
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

static const int kWidth = 256;
static const int kHeight = 256;
static const int kBins = 16;
static const int kThreshold = 96;

__host__ __device__ inline int pixelAt(const unsigned char* img, int x, int y, int w, int h) {
    x = x < 0 ? 0 : (x >= w ? w - 1 : x);
    y = y < 0 ? 0 : (y >= h ? h - 1 : y);
    return img[y * w + x];
}

__host__ __device__ inline int sobelMagnitude(const unsigned char* img, int x, int y, int w, int h) {
    int gx = -pixelAt(img, x - 1, y - 1, w, h) - 2 * pixelAt(img, x - 1, y, w, h) - pixelAt(img, x - 1, y + 1, w, h)
             + pixelAt(img, x + 1, y - 1, w, h) + 2 * pixelAt(img, x + 1, y, w, h) + pixelAt(img, x + 1, y + 1, w, h);
    int gy = -pixelAt(img, x - 1, y - 1, w, h) - 2 * pixelAt(img, x, y - 1, w, h) - pixelAt(img, x + 1, y - 1, w, h)
             + pixelAt(img, x - 1, y + 1, w, h) + 2 * pixelAt(img, x, y + 1, w, h) + pixelAt(img, x + 1, y + 1, w, h);
    int mag = abs(gx) + abs(gy);
    return mag > 255 ? 255 : mag;
}

__global__ void sobel(const unsigned char* img, unsigned char* edges, int w, int h,
                      unsigned int* histogram, unsigned int* edgeCount) {
    __shared__ unsigned int localHist[kBins];
    int tid = threadIdx.y * blockDim.x + threadIdx.x;
    if (tid < kBins) localHist[tid] = 0;
    __syncthreads();
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        int mag = sobelMagnitude(img, x, y, w, h);
        edges[y * w + x] = (unsigned char)mag;
        atomicAdd(&localHist[mag / kBins], 1u);
        if (mag > kThreshold) atomicAdd(edgeCount, 1u);
    }
    __syncthreads();
    if (tid < kBins && localHist[tid] > 0) atomicAdd(&histogram[tid], localHist[tid]);
}

int main() {
    const int n = kWidth * kHeight;
    std::vector<unsigned char> img(n);
    uint32_t s = 13579u;
    for (int y = 0; y < kHeight; ++y)
        for (int x = 0; x < kWidth; ++x) {
            s = s * 1664525u + 1013904223u;
            int dx = x - 128, dy = y - 100;
            int v = (dx * dx + dy * dy < 70 * 70) ? 180 : 60;    // a disc
            if (x > 190 && y > 30 && y < 220) v = 120 + (y % 32);  // a ramped bar
            v += (int)((s >> 24) % 17) - 8;
            img[y * kWidth + x] = (unsigned char)(v < 0 ? 0 : (v > 255 ? 255 : v));
        }
    unsigned char *dImg, *dEdges;
    unsigned int *dHist, *dCount;
    CUDA_CHECK(cudaMalloc(&dImg, n));
    CUDA_CHECK(cudaMalloc(&dEdges, n));
    CUDA_CHECK(cudaMalloc(&dHist, kBins * sizeof(unsigned int)));
    CUDA_CHECK(cudaMalloc(&dCount, sizeof(unsigned int)));
    CUDA_CHECK(cudaMemcpy(dImg, img.data(), n, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(dHist, 0, kBins * sizeof(unsigned int)));
    CUDA_CHECK(cudaMemset(dCount, 0, sizeof(unsigned int)));
    dim3 block(16, 16), grid(kWidth / 16, kHeight / 16);
    sobel<<<grid, block>>>(dImg, dEdges, kWidth, kHeight, dHist, dCount);
    CUDA_CHECK(cudaGetLastError());
    std::vector<unsigned char> edges(n);
    unsigned int hist[kBins], count = 0;
    CUDA_CHECK(cudaMemcpy(edges.data(), dEdges, n, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(hist, dHist, sizeof(hist), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&count, dCount, sizeof(unsigned int), cudaMemcpyDeviceToHost));

    unsigned int refHist[kBins] = {0}, refCount = 0;
    int mismatches = 0;
    unsigned long long checksum = 0;
    for (int y = 0; y < kHeight; ++y)
        for (int x = 0; x < kWidth; ++x) {
            int mag = sobelMagnitude(img.data(), x, y, kWidth, kHeight);
            refHist[mag / kBins]++;
            if (mag > kThreshold) refCount++;
            if (edges[y * kWidth + x] != mag) ++mismatches;
            checksum += (unsigned long long)edges[y * kWidth + x] * (unsigned)(x + 3 * y + 1);
        }
    for (int b = 0; b < kBins; ++b) mismatches += (hist[b] != refHist[b]);
    mismatches += (count != refCount);
    printf("image %dx%d edge pixels %u\n", kWidth, kHeight, count);
    printf("histogram:");
    for (int b = 0; b < kBins; ++b) printf(" %u", hist[b]);
    printf("\nedge checksum %llu\n", checksum);
    printf("mismatches %d\n", mismatches);
    bool ok = mismatches == 0;
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dImg)); CUDA_CHECK(cudaFree(dEdges)); CUDA_CHECK(cudaFree(dHist)); CUDA_CHECK(cudaFree(dCount));
    return ok ? 0 : 1;
}
