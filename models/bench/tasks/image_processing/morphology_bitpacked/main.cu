// Binary morphology on a bit-packed image (32 pixels per word). Erosion and
// dilation share one kernel; the combining operator is chosen through a table
// of device function pointers. Opening and closing are four launches.
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

static const int kWidth = 256, kHeight = 256;
static const int kWords = kWidth / 32;   // words per row
enum MorphOp { kErode = 0, kDilate = 1 };

typedef uint32_t (*CombineFn)(uint32_t, uint32_t);
__device__ uint32_t combineAnd(uint32_t a, uint32_t b) { return a & b; }
__device__ uint32_t combineOr(uint32_t a, uint32_t b) { return a | b; }
__device__ CombineFn dCombine[2] = {combineAnd, combineOr};

// 3-wide horizontal neighbourhood of one word; pixels outside the image are 0
__device__ uint32_t horizontal(const uint32_t* row, int wx, CombineFn f) {
    uint32_t cur = row[wx];
    uint32_t left = wx > 0 ? row[wx - 1] : 0u;
    uint32_t right = wx < kWords - 1 ? row[wx + 1] : 0u;
    uint32_t west = (cur << 1) | (left >> 31);    // pixel x-1 moved to bit x
    uint32_t east = (cur >> 1) | (right << 31);   // pixel x+1 moved to bit x
    return f(f(cur, west), east);
}

__global__ void morph3x3(const uint32_t* in, uint32_t* out, int op) {
    int wx = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (wx >= kWords || y >= kHeight) return;
    CombineFn f = dCombine[op];
    uint32_t mid = horizontal(in + y * kWords, wx, f);
    uint32_t up = y > 0 ? horizontal(in + (y - 1) * kWords, wx, f) : 0u;
    uint32_t down = y < kHeight - 1 ? horizontal(in + (y + 1) * kWords, wx, f) : 0u;
    out[y * kWords + wx] = f(f(mid, up), down);
}

static int getPixel(const std::vector<uint8_t>& img, int x, int y) {
    if (x < 0 || y < 0 || x >= kWidth || y >= kHeight) return 0;
    return img[y * kWidth + x];
}

static std::vector<uint8_t> cpuMorph(const std::vector<uint8_t>& img, int op) {
    std::vector<uint8_t> out(img.size());
    for (int y = 0; y < kHeight; ++y)
        for (int x = 0; x < kWidth; ++x) {
            int acc = (op == kErode) ? 1 : 0;
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) {
                    int p = getPixel(img, x + dx, y + dy);
                    acc = (op == kErode) ? (acc & p) : (acc | p);
                }
            out[y * kWidth + x] = (uint8_t)acc;
        }
    return out;
}

static std::vector<uint32_t> pack(const std::vector<uint8_t>& img) {
    std::vector<uint32_t> words(kHeight * kWords, 0u);
    for (int y = 0; y < kHeight; ++y)
        for (int x = 0; x < kWidth; ++x)
            if (img[y * kWidth + x]) words[y * kWords + x / 32] |= 1u << (x % 32);
    return words;
}

static int popcount(const std::vector<uint32_t>& words) {
    int c = 0;
    for (uint32_t w : words) c += __builtin_popcount(w);
    return c;
}

int main() {
    std::vector<uint8_t> img(kWidth * kHeight);
    uint32_t s = 1234567u;
    for (int y = 0; y < kHeight; ++y)
        for (int x = 0; x < kWidth; ++x) {
            s ^= s << 13; s ^= s >> 17; s ^= s << 5;
            int blob = ((x / 24) + (y / 20)) % 3 == 0;      // blocky shapes
            int noise = (s % 100) < 6;                      // speckles flip pixels
            img[y * kWidth + x] = (uint8_t)(blob ^ noise);
        }
    std::vector<uint32_t> packed = pack(img);
    size_t bytes = packed.size() * sizeof(uint32_t);
    uint32_t *dA, *dB, *dOpen, *dClose;
    CUDA_CHECK(cudaMalloc(&dA, bytes)); CUDA_CHECK(cudaMalloc(&dB, bytes));
    CUDA_CHECK(cudaMalloc(&dOpen, bytes)); CUDA_CHECK(cudaMalloc(&dClose, bytes));
    CUDA_CHECK(cudaMemcpy(dA, packed.data(), bytes, cudaMemcpyHostToDevice));
    dim3 block(kWords, 32), grid(1, kHeight / 32);
    morph3x3<<<grid, block>>>(dA, dB, kErode);     // opening = erode then dilate
    CUDA_CHECK(cudaGetLastError());
    morph3x3<<<grid, block>>>(dB, dOpen, kDilate);
    CUDA_CHECK(cudaGetLastError());
    morph3x3<<<grid, block>>>(dA, dB, kDilate);    // closing = dilate then erode
    CUDA_CHECK(cudaGetLastError());
    morph3x3<<<grid, block>>>(dB, dClose, kErode);
    CUDA_CHECK(cudaGetLastError());
    std::vector<uint32_t> opened(packed.size()), closed(packed.size());
    CUDA_CHECK(cudaMemcpy(opened.data(), dOpen, bytes, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(closed.data(), dClose, bytes, cudaMemcpyDeviceToHost));

    std::vector<uint32_t> refOpen = pack(cpuMorph(cpuMorph(img, kErode), kDilate));
    std::vector<uint32_t> refClose = pack(cpuMorph(cpuMorph(img, kDilate), kErode));
    int mismatches = 0;
    uint32_t hashOpen = 2166136261u, hashClose = 2166136261u;
    for (size_t i = 0; i < packed.size(); ++i) {
        mismatches += (opened[i] != refOpen[i]) + (closed[i] != refClose[i]);
        hashOpen = (hashOpen ^ opened[i]) * 16777619u;
        hashClose = (hashClose ^ closed[i]) * 16777619u;
    }
    printf("foreground pixels: input %d opened %d closed %d\n", popcount(packed), popcount(opened), popcount(closed));
    printf("fnv hash opened %08x closed %08x\n", hashOpen, hashClose);
    printf("mismatching words %d\n", mismatches);
    bool ok = mismatches == 0;
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dA)); CUDA_CHECK(cudaFree(dB)); CUDA_CHECK(cudaFree(dOpen)); CUDA_CHECK(cudaFree(dClose));
    return ok ? 0 : 1;
}
