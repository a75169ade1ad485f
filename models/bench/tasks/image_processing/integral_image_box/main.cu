// Summed-area table of an 8-bit image followed by a 9x9 box filter.
// Rows are scanned by one 256-thread block each: warp-level inclusive scans
// with __shfl_up_sync (warp size 32) plus a pass over the eight warp totals.
// Columns are scanned by one thread per column; the box filter reads four
// corners of the table per pixel.
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

#define WARP 32
static const int kWidth = 256, kHeight = 256;
static const int kBoxRadius = 4;

__device__ inline uint32_t warpInclusiveScan(uint32_t v) {
    int lane = threadIdx.x & (WARP - 1);
#pragma unroll
    for (int offset = 1; offset < WARP; offset <<= 1) {
        uint32_t up = __shfl_up_sync(0xffffffffu, v, offset);
        if (lane >= offset) v += up;
    }
    return v;
}

__global__ void scanRows(const unsigned char* img, uint32_t* table, int w) {
    __shared__ uint32_t warpTotals[WARP];
    int row = blockIdx.x, x = threadIdx.x;
    uint32_t v = warpInclusiveScan(img[row * w + x]);
    int warp = x / WARP, lane = x % WARP;
    if (lane == WARP - 1) warpTotals[warp] = v;
    __syncthreads();
    if (warp == 0) {
        uint32_t t = lane < blockDim.x / WARP ? warpTotals[lane] : 0u;
        t = warpInclusiveScan(t);
        warpTotals[lane] = t;
    }
    __syncthreads();
    if (warp > 0) v += warpTotals[warp - 1];
    table[row * w + x] = v;
}

__global__ void scanColumns(uint32_t* table, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= w) return;
    uint32_t run = 0;
    for (int y = 0; y < h; ++y) {
        run += table[y * w + x];
        table[y * w + x] = run;
    }
}

__host__ __device__ inline uint32_t boxSum(const uint32_t* t, int w, int h, int x, int y, int r) {
    int x0 = x - r - 1, y0 = y - r - 1;
    int x1 = x + r < w - 1 ? x + r : w - 1;
    int y1 = y + r < h - 1 ? y + r : h - 1;
    uint32_t a = t[y1 * w + x1];
    uint32_t b = (y0 >= 0) ? t[y0 * w + x1] : 0u;
    uint32_t c = (x0 >= 0) ? t[y1 * w + x0] : 0u;
    uint32_t d = (x0 >= 0 && y0 >= 0) ? t[y0 * w + x0] : 0u;
    return a - b - c + d;
}

__global__ void boxFilter(const uint32_t* table, uint32_t* out, int w, int h, int r) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) out[y * w + x] = boxSum(table, w, h, x, y, r);
}

int main() {
    const int n = kWidth * kHeight;
    std::vector<unsigned char> img(n);
    uint32_t s = 777777u;
    for (int i = 0; i < n; ++i) { s = s * 1664525u + 1013904223u; img[i] = (unsigned char)(s >> 24); }
    unsigned char* dImg; uint32_t *dTable, *dBox;
    CUDA_CHECK(cudaMalloc(&dImg, n));
    CUDA_CHECK(cudaMalloc(&dTable, n * sizeof(uint32_t)));
    CUDA_CHECK(cudaMalloc(&dBox, n * sizeof(uint32_t)));
    CUDA_CHECK(cudaMemcpy(dImg, img.data(), n, cudaMemcpyHostToDevice));
    scanRows<<<kHeight, kWidth>>>(dImg, dTable, kWidth);
    CUDA_CHECK(cudaGetLastError());
    scanColumns<<<kWidth / 128, 128>>>(dTable, kWidth, kHeight);
    CUDA_CHECK(cudaGetLastError());
    boxFilter<<<dim3(kWidth / 16, kHeight / 16), dim3(16, 16)>>>(dTable, dBox, kWidth, kHeight, kBoxRadius);
    CUDA_CHECK(cudaGetLastError());
    std::vector<uint32_t> table(n), box(n);
    CUDA_CHECK(cudaMemcpy(table.data(), dTable, n * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(box.data(), dBox, n * sizeof(uint32_t), cudaMemcpyDeviceToHost));

    std::vector<uint32_t> ref(n);
    for (int y = 0; y < kHeight; ++y) {
        uint32_t rowRun = 0;
        for (int x = 0; x < kWidth; ++x) {
            rowRun += img[y * kWidth + x];
            ref[y * kWidth + x] = rowRun + (y > 0 ? ref[(y - 1) * kWidth + x] : 0u);
        }
    }
    int mismatches = 0;
    unsigned long long boxChecksum = 0;
    for (int i = 0; i < n; ++i) mismatches += (table[i] != ref[i]);
    for (int y = 0; y < kHeight; ++y)
        for (int x = 0; x < kWidth; ++x) {
            uint32_t direct = 0;
            for (int dy = -kBoxRadius; dy <= kBoxRadius; ++dy)
                for (int dx = -kBoxRadius; dx <= kBoxRadius; ++dx) {
                    int xx = x + dx, yy = y + dy;
                    if (xx >= 0 && yy >= 0 && xx < kWidth && yy < kHeight) direct += img[yy * kWidth + xx];
                }
            mismatches += (direct != box[y * kWidth + x]);
            boxChecksum += (unsigned long long)box[y * kWidth + x] * (unsigned)(y % 7 + 1);
        }
    printf("table total %u table[128,128] %u\n", table[n - 1], table[128 * kWidth + 128]);
    printf("box sums: [0,0] %u [100,37] %u checksum %llu\n", box[0], box[100 * kWidth + 37], boxChecksum);
    printf("mismatches %d\n", mismatches);
    bool ok = mismatches == 0;
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dImg)); CUDA_CHECK(cudaFree(dTable)); CUDA_CHECK(cudaFree(dBox));
    return ok ? 0 : 1;
}
