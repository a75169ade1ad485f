// 256-bin byte histogram: per-block privatised histograms in shared memory, merged into global with atomics.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>
#include <vector>
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

constexpr int BINS = 256;

__global__ void histogram_privatized(const unsigned char* __restrict__ data, int n,
                                     unsigned int* __restrict__ hist) {
    __shared__ unsigned int local[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        if (local[b]) atomicAdd(&hist[b], local[b]);
}

int main() {
    g_seed = 424242u;
    const int n = 1 << 18;
    std::vector<unsigned char> data(n);
    for (int i = 0; i < n; ++i) {
        // Skewed distribution: sum of two bytes folded, plus a spike at 42.
        const uint32_t r = next_u32();
        data[i] = (i % 50 == 0) ? 42 : (unsigned char)(((r >> 24) + ((r >> 8) & 0xff)) / 2);
    }
    unsigned char* d_data;
    unsigned int* d_hist;
    CUDA_CHECK(cudaMalloc(&d_data, n));
    CUDA_CHECK(cudaMalloc(&d_hist, BINS * sizeof(unsigned int)));
    CUDA_CHECK(cudaMemcpy(d_data, data.data(), n, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_hist, 0, BINS * sizeof(unsigned int)));
    histogram_privatized<<<64, 256>>>(d_data, n, d_hist);
    CUDA_CHECK(cudaGetLastError());
    std::vector<unsigned int> hist(BINS);
    CUDA_CHECK(cudaMemcpy(hist.data(), d_hist, BINS * sizeof(unsigned int), cudaMemcpyDeviceToHost));

    std::vector<unsigned int> ref(BINS, 0);
    for (unsigned char v : data) ref[v]++;
    bool ok = hist == ref;
    unsigned int total = 0, mode_count = 0;
    int mode = 0;
    double mean = 0.0, var = 0.0;
    for (int b = 0; b < BINS; ++b) {
        total += hist[b];
        mean += (double)b * hist[b];
        if (hist[b] > mode_count) { mode_count = hist[b]; mode = b; }
    }
    mean /= total;
    for (int b = 0; b < BINS; ++b) var += hist[b] * (b - mean) * (b - mean);
    var /= total;
    unsigned int cum = 0;
    int median = 0;
    for (int b = 0; b < BINS; ++b) {
        cum += hist[b];
        if (cum * 2 >= total) { median = b; break; }
    }
    printf("histogram n %d bins %d total %u\n", n, BINS, total);
    printf("mode %d count %u median %d\n", mode, mode_count, median);
    printf("mean %.8e variance %.8e\n", mean, var);
    printf("bins[0] %u bins[42] %u bins[128] %u bins[255] %u\n", hist[0], hist[42], hist[128], hist[255]);
    CUDA_CHECK(cudaFree(d_data));
    CUDA_CHECK(cudaFree(d_hist));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
