// Pitched 2D allocations: cudaMallocPitch, cudaMemset2D, cudaMemcpy2D of a sub-rectangle, a kernel walking rows by pitch.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                          \
    do {                                                                          \
        cudaError_t err_ = (call);                                                \
        if (err_ != cudaSuccess) {                                                \
            fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_), \
                    __FILE__, __LINE__);                                          \
            exit(2);                                                              \
        }                                                                         \
    } while (0)

// Deterministic input generator (LCG); never rand() or the clock.
static uint32_t g_seed = 12345u;
inline uint32_t next_u32() {
    g_seed = g_seed * 1664525u + 1013904223u;
    return g_seed;
}
inline float next_uniform() {  // uniform in [-1, 1)
    return (float)(next_u32() >> 8) * (2.0f / 16777216.0f) - 1.0f;
}

__global__ void add_border_gradient(unsigned short* base, size_t pitch, int width, int height) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    unsigned short* row = reinterpret_cast<unsigned short*>(reinterpret_cast<char*>(base) + y * pitch);
    const int d = min(min(x, width - 1 - x), min(y, height - 1 - y));  // distance to the border
    row[x] = (unsigned short)(row[x] + (d < 8 ? 100 * (8 - d) : 0));
}

int main() {
    g_seed = 999u;
    const int width = 300, height = 150;          // image
    const int sub_x = 40, sub_y = 25, sub_w = 128, sub_h = 64;  // uploaded patch
    std::vector<unsigned short> patch(sub_w * sub_h), img(width * height);
    for (auto& v : patch) v = (unsigned short)(next_u32() % 5000u);
    unsigned short* d_img;
    size_t pitch = 0;
    CUDA_CHECK(cudaMallocPitch(&d_img, &pitch, width * sizeof(unsigned short), height));
    CUDA_CHECK(cudaMemset2D(d_img, pitch, 0x01, width * sizeof(unsigned short), height));  // 0x0101
    // Upload the patch into the middle of the pitched image.
    char* dst = reinterpret_cast<char*>(d_img) + sub_y * pitch + sub_x * sizeof(unsigned short);
    CUDA_CHECK(cudaMemcpy2D(dst, pitch, patch.data(), sub_w * sizeof(unsigned short),
                            sub_w * sizeof(unsigned short), sub_h, cudaMemcpyHostToDevice));
    dim3 block(32, 8), grid((width + 31) / 32, (height + 7) / 8);
    add_border_gradient<<<grid, block>>>(d_img, pitch, width, height);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy2D(img.data(), width * sizeof(unsigned short), d_img, pitch,
                            width * sizeof(unsigned short), height, cudaMemcpyDeviceToHost));

    // Download only the patch region again, as a tightly packed buffer.
    std::vector<unsigned short> back(sub_w * sub_h);
    CUDA_CHECK(cudaMemcpy2D(back.data(), sub_w * sizeof(unsigned short), dst, pitch,
                            sub_w * sizeof(unsigned short), sub_h, cudaMemcpyDeviceToHost));
    bool ok = pitch >= width * sizeof(unsigned short);
    for (int y = 0; y < sub_h; ++y)
        for (int x = 0; x < sub_w; ++x)
            if (back[y * sub_w + x] != img[(y + sub_y) * width + x + sub_x]) ok = false;
    unsigned long long sum = 0, weighted = 0;
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            const bool inside = x >= sub_x && x < sub_x + sub_w && y >= sub_y && y < sub_y + sub_h;
            int v = inside ? patch[(y - sub_y) * sub_w + (x - sub_x)] : 0x0101;
            int d = std::min(std::min(x, width - 1 - x), std::min(y, height - 1 - y));
            v += d < 8 ? 100 * (8 - d) : 0;
            if (img[y * width + x] != (unsigned short)v) ok = false;
            sum += img[y * width + x];
            weighted += (unsigned long long)img[y * width + x] * (unsigned long long)(x + 3 * y);
        }
    printf("pitched image %dx%d patch %dx%d at (%d,%d)\n", width, height, sub_w, sub_h, sub_x, sub_y);
    printf("sum %llu weighted %llu\n", sum, weighted);
    printf("corner %u patch_origin %u center %u\n", img[0], img[sub_y * width + sub_x],
           img[(height / 2) * width + width / 2]);
    CUDA_CHECK(cudaFree(d_img));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
