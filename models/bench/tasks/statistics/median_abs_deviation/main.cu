// Robust statistics per group: median and median absolute deviation from two in-block bitonic sorts in shared memory.
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

constexpr int GROUP = 512;  // samples per group = shared-memory sort size
constexpr int GROUPS = 64;

__device__ void bitonic_sort_shared(float* s) {
    const int t = threadIdx.x;  // GROUP / 2 threads
    for (int size = 2; size <= GROUP; size <<= 1)
        for (int stride = size >> 1; stride > 0; stride >>= 1) {
            const int i = 2 * t - (t & (stride - 1));
            const bool up = (i & size) == 0;
            const float a = s[i], b = s[i + stride];
            if ((a > b) == up) {
                s[i] = b;
                s[i + stride] = a;
            }
            __syncthreads();
        }
}

__global__ void median_mad(const float* __restrict__ x, float* __restrict__ median, float* __restrict__ mad) {
    __shared__ float s[GROUP];
    __shared__ float med;
    const float* g = x + blockIdx.x * GROUP;
    const int t = threadIdx.x;
    s[t] = g[t];
    s[t + GROUP / 2] = g[t + GROUP / 2];
    __syncthreads();
    bitonic_sort_shared(s);
    if (t == 0) med = 0.5f * (s[GROUP / 2 - 1] + s[GROUP / 2]);  // even count: mean of the middle two
    __syncthreads();
    const float m = med;
    s[t] = fabsf(g[t] - m);
    s[t + GROUP / 2] = fabsf(g[t + GROUP / 2] - m);
    __syncthreads();
    bitonic_sort_shared(s);
    if (t == 0) {
        median[blockIdx.x] = m;
        mad[blockIdx.x] = 0.5f * (s[GROUP / 2 - 1] + s[GROUP / 2]);
    }
}

static float host_median(std::vector<float> v) {
    std::sort(v.begin(), v.end());
    return 0.5f * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

int main() {
    g_seed = 60221u;
    std::vector<float> x(GROUPS * GROUP), med(GROUPS), mad(GROUPS);
    for (int g = 0; g < GROUPS; ++g)
        for (int i = 0; i < GROUP; ++i) {
            const float u = next_uniform();
            // Heavy-tailed groups: a few outliers that the median and MAD should ignore.
            x[g * GROUP + i] = (i % 61 == 0) ? 1000.0f * u : (float)g + u * (1.0f + 0.05f * g);
        }
    float *dx, *dmed, *dmad;
    CUDA_CHECK(cudaMalloc(&dx, x.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dmed, GROUPS * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dmad, GROUPS * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dx, x.data(), x.size() * sizeof(float), cudaMemcpyHostToDevice));
    median_mad<<<GROUPS, GROUP / 2>>>(dx, dmed, dmad);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(med.data(), dmed, GROUPS * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(mad.data(), dmad, GROUPS * sizeof(float), cudaMemcpyDeviceToHost));

    bool ok = true;
    double med_sum = 0.0, mad_sum = 0.0;
    for (int g = 0; g < GROUPS; ++g) {
        std::vector<float> v(x.begin() + g * GROUP, x.begin() + (g + 1) * GROUP);
        const float m = host_median(v);
        for (auto& e : v) e = fabsf(e - m);
        const float d = host_median(v);
        if (m != med[g] || d != mad[g]) ok = false;
        med_sum += med[g];
        mad_sum += mad[g];
    }
    printf("median/MAD groups %d size %d\n", GROUPS, GROUP);
    printf("median[0] %.7e mad[0] %.7e median[63] %.7e mad[63] %.7e\n", med[0], mad[0], med[63], mad[63]);
    printf("sum_median %.7e sum_mad %.7e\n", med_sum, mad_sum);
    CUDA_CHECK(cudaFree(dx));
    CUDA_CHECK(cudaFree(dmed));
    CUDA_CHECK(cudaFree(dmad));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
