// CUB device-wide primitives: inclusive prefix sum, sum and max reductions with temporary-storage queries.
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

#include <cub/cub.cuh>

int main() {
    g_seed = 90210u;
    const int n = 100000;
    std::vector<int> h(n), scan(n);
    for (auto& v : h) v = (int)(next_u32() % 1000u) - 400;
    int *d_in, *d_scan, *d_sum, *d_max;
    CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_scan, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_sum, sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_max, sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));

    // Query the temporary storage each algorithm needs, then allocate the largest once.
    size_t scan_bytes = 0, sum_bytes = 0, max_bytes = 0;
    CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, scan_bytes, d_in, d_scan, n));
    CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, sum_bytes, d_in, d_sum, n));
    CUDA_CHECK(cub::DeviceReduce::Max(nullptr, max_bytes, d_in, d_max, n));
    size_t temp_bytes = scan_bytes;
    if (sum_bytes > temp_bytes) temp_bytes = sum_bytes;
    if (max_bytes > temp_bytes) temp_bytes = max_bytes;
    void* d_temp = nullptr;
    CUDA_CHECK(cudaMalloc(&d_temp, temp_bytes));
    CUDA_CHECK(cub::DeviceScan::InclusiveSum(d_temp, scan_bytes, d_in, d_scan, n));
    CUDA_CHECK(cub::DeviceReduce::Sum(d_temp, sum_bytes, d_in, d_sum, n));
    CUDA_CHECK(cub::DeviceReduce::Max(d_temp, max_bytes, d_in, d_max, n));
    CUDA_CHECK(cudaDeviceSynchronize());

    int sum = 0, mx = 0;
    CUDA_CHECK(cudaMemcpy(scan.data(), d_scan, n * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&sum, d_sum, sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&mx, d_max, sizeof(int), cudaMemcpyDeviceToHost));

    bool ok = true;
    int running = 0, rmax = h[0], min_prefix = 0, argmin_prefix = 0;
    for (int i = 0; i < n; ++i) {
        running += h[i];
        rmax = h[i] > rmax ? h[i] : rmax;
        if (scan[i] != running) ok = false;
        if (scan[i] < min_prefix) {
            min_prefix = scan[i];
            argmin_prefix = i;
        }
    }
    ok = ok && sum == running && mx == rmax;
    printf("cub n %d\n", n);
    printf("sum %d max %d\n", sum, mx);
    printf("scan[99] %d scan[50000] %d scan[%d] %d\n", scan[99], scan[50000], n - 1, scan[n - 1]);
    printf("lowest prefix %d at %d\n", min_prefix, argmin_prefix);
    CUDA_CHECK(cudaFree(d_temp));
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_scan));
    CUDA_CHECK(cudaFree(d_sum));
    CUDA_CHECK(cudaFree(d_max));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
