// Median filters of radius 1 and 2 on an 8-bit image with salt-and-pepper
// noise. The window size is a template parameter; the window is sorted in
// registers with an insertion sort.
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

static const int kWidth = 128;
static const int kHeight = 128;

template <int R>
__host__ __device__ unsigned char medianAt(const unsigned char* img, int x, int y, int w, int h) {
    const int N = (2 * R + 1) * (2 * R + 1);
    unsigned char win[N];
    int count = 0;
    for (int dy = -R; dy <= R; ++dy)
        for (int dx = -R; dx <= R; ++dx) {
            int xx = x + dx, yy = y + dy;
            xx = xx < 0 ? -xx : (xx >= w ? 2 * w - 2 - xx : xx);   // mirror border
            yy = yy < 0 ? -yy : (yy >= h ? 2 * h - 2 - yy : yy);
            unsigned char v = img[yy * w + xx];
            int j = count++;
            while (j > 0 && win[j - 1] > v) { win[j] = win[j - 1]; --j; }
            win[j] = v;
        }
    return win[N / 2];
}

template <int R>
__global__ void medianFilter(const unsigned char* in, unsigned char* out, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) out[y * w + x] = medianAt<R>(in, x, y, w, h);
}

template <int R>
static int verify(const std::vector<unsigned char>& in, const std::vector<unsigned char>& out,
                  unsigned long long* checksum) {
    int bad = 0;
    *checksum = 0;
    for (int y = 0; y < kHeight; ++y)
        for (int x = 0; x < kWidth; ++x) {
            unsigned char m = medianAt<R>(in.data(), x, y, kWidth, kHeight);
            bad += (m != out[y * kWidth + x]);
            *checksum += (unsigned long long)out[y * kWidth + x] * (unsigned)((x ^ y) + 1);
        }
    return bad;
}

int main() {
    const int n = kWidth * kHeight;
    std::vector<unsigned char> img(n);
    uint32_t s = 2718281u;
    int noisy = 0;
    for (int y = 0; y < kHeight; ++y)
        for (int x = 0; x < kWidth; ++x) {
            s = s * 1103515245u + 12345u;
            uint32_t r = (s >> 16) & 0x7fff;
            int v = (x + 2 * y) / 3;   // smooth gradient
            if (r % 100 < 8) { v = (r & 1) ? 255 : 0; ++noisy; }
            img[y * kWidth + x] = (unsigned char)v;
        }
    unsigned char *dIn, *dOut3, *dOut5;
    CUDA_CHECK(cudaMalloc(&dIn, n));
    CUDA_CHECK(cudaMalloc(&dOut3, n));
    CUDA_CHECK(cudaMalloc(&dOut5, n));
    CUDA_CHECK(cudaMemcpy(dIn, img.data(), n, cudaMemcpyHostToDevice));
    dim3 block(32, 8), grid(kWidth / 32, kHeight / 8);
    medianFilter<1><<<grid, block>>>(dIn, dOut3, kWidth, kHeight);
    CUDA_CHECK(cudaGetLastError());
    medianFilter<2><<<grid, block>>>(dIn, dOut5, kWidth, kHeight);
    CUDA_CHECK(cudaGetLastError());
    std::vector<unsigned char> out3(n), out5(n);
    CUDA_CHECK(cudaMemcpy(out3.data(), dOut3, n, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(out5.data(), dOut5, n, cudaMemcpyDeviceToHost));

    unsigned long long sum3 = 0, sum5 = 0;
    int bad = verify<1>(img, out3, &sum3) + verify<2>(img, out5, &sum5);
    int extremes3 = 0, extremes5 = 0;
    for (int i = 0; i < n; ++i) {
        extremes3 += (out3[i] == 0 || out3[i] == 255);
        extremes5 += (out5[i] == 0 || out5[i] == 255);
    }
    printf("noisy pixels in %d, extreme pixels after 3x3 %d after 5x5 %d\n", noisy, extremes3, extremes5);
    printf("checksum 3x3 %llu 5x5 %llu\n", sum3, sum5);
    printf("out3[1000]=%d out5[1000]=%d out5[last]=%d\n", out3[1000], out5[1000], out5[n - 1]);
    printf("mismatches %d\n", bad);
    bool ok = bad == 0;
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dIn)); CUDA_CHECK(cudaFree(dOut3)); CUDA_CHECK(cudaFree(dOut5));
    return ok ? 0 : 1;
}
