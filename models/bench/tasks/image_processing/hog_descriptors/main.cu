// Histogram-of-oriented-gradients cell descriptors: one 8x8 thread block per
// 8x8 pixel cell computes central-difference gradients, picks one of 9
// unsigned orientation bins by exact integer cross-product tests against
// precomputed bin boundaries (constant memory), and accumulates |gx|+|gy|
// into a shared-memory histogram with integer atomics. 2x2-cell blocks are
// then L1-normalised on the host. Integer histograms are exact.
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

#define CELL 8
#define BINS 9
static const int kSize = 128;
static const int kCellsPerSide = kSize / CELL;
static const double kPi = 3.14159265358979323846;
__constant__ int cBoundary[BINS][2];   // direction vectors (x, y) * 4096 of the bin edges k * 20 degrees

__host__ __device__ inline int orientationBin(int gx, int gy, const int (*edge)[2]) {
    if (gy < 0 || (gy == 0 && gx < 0)) { gx = -gx; gy = -gy; }   // unsigned orientation: fold to [0, 180)
    int bin = 0;
    for (int k = 1; k < BINS; ++k) {                            // count edges the gradient is past (counter-clockwise)
        long long cross = (long long)edge[k][0] * gy - (long long)edge[k][1] * gx;
        if (cross >= 0) bin = k;
    }
    return bin;
}

__host__ __device__ inline void gradientAt(const unsigned char* img, int x, int y, int* gx, int* gy) {
    int xl = x > 0 ? x - 1 : x, xr = x < kSize - 1 ? x + 1 : x;
    int yu = y > 0 ? y - 1 : y, yd = y < kSize - 1 ? y + 1 : y;
    *gx = (int)img[y * kSize + xr] - (int)img[y * kSize + xl];
    *gy = (int)img[yd * kSize + x] - (int)img[yu * kSize + x];
}

__global__ void cellHistograms(const unsigned char* img, unsigned int* hist) {
    __shared__ unsigned int local[BINS];
    int tid = threadIdx.y * CELL + threadIdx.x;
    if (tid < BINS) local[tid] = 0;
    __syncthreads();
    int x = blockIdx.x * CELL + threadIdx.x, y = blockIdx.y * CELL + threadIdx.y;
    int gx, gy;
    gradientAt(img, x, y, &gx, &gy);
    int mag = abs(gx) + abs(gy);
    if (mag) atomicAdd(&local[orientationBin(gx, gy, cBoundary)], (unsigned int)mag);
    __syncthreads();
    if (tid < BINS) hist[(blockIdx.y * kCellsPerSide + blockIdx.x) * BINS + tid] = local[tid];
}

int main() {
    int edges[BINS][2];
    for (int k = 0; k < BINS; ++k) {
        double a = k * kPi / BINS;
        edges[k][0] = (int)lround(4096 * cos(a));
        edges[k][1] = (int)lround(4096 * sin(a));
    }
    CUDA_CHECK(cudaMemcpyToSymbol(cBoundary, edges, sizeof(edges)));
    std::vector<unsigned char> img(kSize * kSize);
    uint32_t s = 9090u;
    for (int y = 0; y < kSize; ++y)
        for (int x = 0; x < kSize; ++x) {
            s = s * 1664525u + 1013904223u;
            double v = 128 + 60 * sin(x * 0.15 + y * 0.05) + 40 * ((x / 16 + y / 24) % 2);
            img[y * kSize + x] = (unsigned char)(v + ((s >> 27) & 7));
        }
    const int cells = kCellsPerSide * kCellsPerSide;
    unsigned char* dImg; unsigned int* dHist;
    CUDA_CHECK(cudaMalloc(&dImg, img.size()));
    CUDA_CHECK(cudaMalloc(&dHist, cells * BINS * sizeof(unsigned int)));
    CUDA_CHECK(cudaMemcpy(dImg, img.data(), img.size(), cudaMemcpyHostToDevice));
    cellHistograms<<<dim3(kCellsPerSide, kCellsPerSide), dim3(CELL, CELL)>>>(dImg, dHist);
    CUDA_CHECK(cudaGetLastError());
    std::vector<unsigned int> hist(cells * BINS);
    CUDA_CHECK(cudaMemcpy(hist.data(), dHist, hist.size() * sizeof(unsigned int), cudaMemcpyDeviceToHost));

    std::vector<unsigned int> ref(cells * BINS, 0u);
    for (int y = 0; y < kSize; ++y)
        for (int x = 0; x < kSize; ++x) {
            int gx, gy;
            gradientAt(img.data(), x, y, &gx, &gy);
            int mag = abs(gx) + abs(gy);
            if (mag) ref[((y / CELL) * kCellsPerSide + x / CELL) * BINS + orientationBin(gx, gy, edges)] += mag;
        }
    int mismatches = 0;
    unsigned long long total = 0, binTotals[BINS] = {0};
    for (size_t i = 0; i < hist.size(); ++i) {
        mismatches += (hist[i] != ref[i]);
        total += hist[i];
        binTotals[i % BINS] += hist[i];
    }
    // block descriptors: 2x2 cells, L1 normalised, summarised by their mean dominant-bin share
    double dominantShare = 0.0;
    int blocks = 0;
    for (int by = 0; by + 1 < kCellsPerSide; ++by)
        for (int bx = 0; bx + 1 < kCellsPerSide; ++bx) {
            double v[BINS] = {0}, sum = 0;
            for (int c = 0; c < 4; ++c) {
                int cell = (by + c / 2) * kCellsPerSide + bx + c % 2;
                for (int b = 0; b < BINS; ++b) { v[b] += hist[cell * BINS + b]; sum += hist[cell * BINS + b]; }
            }
            double best = 0;
            for (int b = 0; b < BINS; ++b) best = fmax(best, v[b]);
            dominantShare += sum > 0 ? best / sum : 0.0;
            ++blocks;
        }
    printf("image %dx%d cells %d bins %d\n", kSize, kSize, cells, BINS);
    printf("gradient mass %llu per bin:", total);
    for (int b = 0; b < BINS; ++b) printf(" %llu", binTotals[b]);
    printf("\nmean dominant-bin share over %d blocks %.6f\n", blocks, dominantShare / blocks);
    printf("mismatches %d\n", mismatches);
    bool ok = mismatches == 0;
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dImg)); CUDA_CHECK(cudaFree(dHist));
    return ok ? 0 : 1;
}
