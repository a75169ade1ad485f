// Quadtree segmentation of an 8-bit image: every 16x16 tile is split
// recursively (a recursive device function) until a block is uniform enough
// (integer variance test) or 2x2; each leaf is painted with its mean.
// Leaf counts per block size are gathered with atomics.
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

static const int kSize = 256;
static const int kTile = 16;
static const long long kMaxVariance = 40;   // per-pixel variance allowed in a leaf

struct Image { const unsigned char* in; unsigned char* out; int width; };

// size is 16, 8, 4 or 2: level index 0..3
__host__ __device__ inline int levelOf(int size) { return size == 16 ? 0 : size == 8 ? 1 : size == 4 ? 2 : 3; }

__host__ __device__ int splitBlock(Image img, int x0, int y0, int size, unsigned int* leavesPerLevel) {
    long long sum = 0, sumSq = 0, n = (long long)size * size;
    for (int y = y0; y < y0 + size; ++y)
        for (int x = x0; x < x0 + size; ++x) {
            int v = img.in[y * img.width + x];
            sum += v; sumSq += v * v;
        }
    // variance <= kMaxVariance  <=>  n*sumSq - sum^2 <= kMaxVariance * n^2 (exact in integers)
    if (size == 2 || n * sumSq - sum * sum <= kMaxVariance * n * n) {
        unsigned char mean = (unsigned char)((sum + n / 2) / n);
        for (int y = y0; y < y0 + size; ++y)
            for (int x = x0; x < x0 + size; ++x) img.out[y * img.width + x] = mean;
#ifdef __CUDA_ARCH__
        atomicAdd(&leavesPerLevel[levelOf(size)], 1u);
#else
        leavesPerLevel[levelOf(size)]++;
#endif
        return 1;
    }
    int h = size / 2;
    return splitBlock(img, x0, y0, h, leavesPerLevel) + splitBlock(img, x0 + h, y0, h, leavesPerLevel) +
           splitBlock(img, x0, y0 + h, h, leavesPerLevel) + splitBlock(img, x0 + h, y0 + h, h, leavesPerLevel);
}

__global__ void segmentTiles(Image img, int* leavesPerTile, unsigned int* leavesPerLevel) {
    int tx = blockIdx.x * blockDim.x + threadIdx.x;
    int ty = blockIdx.y * blockDim.y + threadIdx.y;
    int tilesPerRow = img.width / kTile;
    if (tx >= tilesPerRow || ty >= tilesPerRow) return;
    leavesPerTile[ty * tilesPerRow + tx] = splitBlock(img, tx * kTile, ty * kTile, kTile, leavesPerLevel);
}

int main() {
    const int n = kSize * kSize, tiles = (kSize / kTile) * (kSize / kTile);
    std::vector<unsigned char> img(n);
    uint32_t s = 4096u;
    for (int y = 0; y < kSize; ++y)
        for (int x = 0; x < kSize; ++x) {
            s = s * 1664525u + 1013904223u;
            int v = 50;
            if ((x - 90) * (x - 90) + (y - 120) * (y - 120) < 60 * 60) v = 170;   // disc
            if (x > 170 && y > 40 && y < 200) v = 110 + (x - 170);                // ramp
            if (y > 220) v += (int)((s >> 24) % 40);                              // textured band
            v += (int)((s >> 28) & 3);                                            // mild noise
            img[y * kSize + x] = (unsigned char)(v > 255 ? 255 : v);
        }
    unsigned char *dIn, *dOut; int* dTileLeaves; unsigned int* dLevels;
    CUDA_CHECK(cudaMalloc(&dIn, n)); CUDA_CHECK(cudaMalloc(&dOut, n));
    CUDA_CHECK(cudaMalloc(&dTileLeaves, tiles * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dLevels, 4 * sizeof(unsigned int)));
    CUDA_CHECK(cudaMemcpy(dIn, img.data(), n, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(dLevels, 0, 4 * sizeof(unsigned int)));
    Image dImg{dIn, dOut, kSize};
    dim3 block(8, 8), grid(kSize / kTile / 8, kSize / kTile / 8);
    segmentTiles<<<grid, block>>>(dImg, dTileLeaves, dLevels);
    CUDA_CHECK(cudaGetLastError());
    std::vector<unsigned char> out(n);
    std::vector<int> tileLeaves(tiles);
    unsigned int levels[4];
    CUDA_CHECK(cudaMemcpy(out.data(), dOut, n, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(tileLeaves.data(), dTileLeaves, tiles * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(levels, dLevels, sizeof(levels), cudaMemcpyDeviceToHost));

    std::vector<unsigned char> ref(n);
    unsigned int refLevels[4] = {0, 0, 0, 0};
    Image hImg{img.data(), ref.data(), kSize};
    int mismatches = 0, totalLeaves = 0;
    for (int ty = 0; ty < kSize / kTile; ++ty)
        for (int tx = 0; tx < kSize / kTile; ++tx) {
            int leaves = splitBlock(hImg, tx * kTile, ty * kTile, kTile, refLevels);
            mismatches += (leaves != tileLeaves[ty * (kSize / kTile) + tx]);
            totalLeaves += tileLeaves[ty * (kSize / kTile) + tx];
        }
    unsigned long long checksum = 0, sqErr = 0;
    for (int i = 0; i < n; ++i) {
        mismatches += (out[i] != ref[i]);
        checksum += (unsigned long long)out[i] * (unsigned)(i % 61 + 1);
        int d = (int)out[i] - (int)img[i];
        sqErr += (unsigned long long)(d * d);
    }
    for (int l = 0; l < 4; ++l) mismatches += (levels[l] != refLevels[l]);
    printf("image %dx%d tiles %d leaves %d\n", kSize, kSize, tiles, totalLeaves);
    printf("leaves of size 16/8/4/2: %u %u %u %u\n", levels[0], levels[1], levels[2], levels[3]);
    printf("painted checksum %llu squared error %llu\n", checksum, sqErr);
    printf("mismatches %d\n", mismatches);
    bool ok = mismatches == 0;
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dIn)); CUDA_CHECK(cudaFree(dOut)); CUDA_CHECK(cudaFree(dTileLeaves)); CUDA_CHECK(cudaFree(dLevels));
    return ok ? 0 : 1;
}
