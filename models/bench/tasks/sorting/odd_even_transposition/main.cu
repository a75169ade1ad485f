// Odd-even transposition sort of many short float arrays, one block per array, in shared memory.
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

#include <algorithm>

constexpr int LEN = 200;  // not a power of two
constexpr int THREADS = 128;

__global__ void odd_even_sort_rows(float* data) {
    __shared__ float s[LEN];
    float* row = data + blockIdx.x * LEN;
    for (int i = threadIdx.x; i < LEN; i += THREADS) s[i] = row[i];
    __syncthreads();
    for (int phase = 0; phase < LEN; ++phase) {
        const int start = phase & 1;
        for (int p = threadIdx.x; 2 * p + start + 1 < LEN; p += THREADS) {
            const int a = 2 * p + start;
            const float x = s[a], y = s[a + 1];
            if (x > y) {
                s[a] = y;
                s[a + 1] = x;
            }
        }
        __syncthreads();
    }
    for (int i = threadIdx.x; i < LEN; i += THREADS) row[i] = s[i];
}

int main() {
    g_seed = 1999u;
    const int rows = 256, n = rows * LEN;
    std::vector<float> h(n), out(n);
    for (auto& v : h) v = next_uniform() * 100.0f;
    float* d;
    CUDA_CHECK(cudaMalloc(&d, n * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    odd_even_sort_rows<<<rows, THREADS>>>(d);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(out.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));

    bool ok = true;
    double median_sum = 0.0, spread = 0.0;
    for (int r = 0; r < rows; ++r) {
        std::vector<float> ref(h.begin() + r * LEN, h.begin() + (r + 1) * LEN);
        std::sort(ref.begin(), ref.end());
        for (int i = 0; i < LEN; ++i)
            if (ref[i] != out[r * LEN + i]) ok = false;
        median_sum += out[r * LEN + LEN / 2];
        spread += out[r * LEN + LEN - 1] - out[r * LEN];
    }
    printf("odd-even rows %d len %d\n", rows, LEN);
    printf("row0 min %.6e max %.6e\n", out[0], out[LEN - 1]);
    printf("sum_of_medians %.6e sum_of_ranges %.6e\n", median_sum, spread);
    CUDA_CHECK(cudaFree(d));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
