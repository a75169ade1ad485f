// Bootstrap confidence interval for a mean: each thread draws one resample with its own xorshift stream (data in shared memory).
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

constexpr int N = 512;  // sample size, also the resample size

__host__ __device__ inline uint32_t xorshift32(uint32_t& s) {
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    return s;
}

__host__ __device__ inline uint32_t stream_seed(int replicate) {
    uint32_t s = 0x9e3779b9u ^ (uint32_t)(replicate * 2654435761u);
    return s ? s : 1u;
}

__global__ void bootstrap_means(const float* __restrict__ data, int replicates, double* __restrict__ means) {
    __shared__ float sample[N];
    for (int i = threadIdx.x; i < N; i += blockDim.x) sample[i] = data[i];
    __syncthreads();
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= replicates) return;
    uint32_t state = stream_seed(r);
    double s = 0.0;
    for (int k = 0; k < N; ++k) s += sample[xorshift32(state) % N];
    means[r] = s / N;
    if (r == 0) printf("device: replicate 0 mean %.9e\n", s / N);
}

int main() {
    g_seed = 60606u;
    const int replicates = 1024;
    std::vector<float> data(N);
    for (auto& v : data) {
        const float u = 0.5f * (next_uniform() + 1.0f);
        v = 10.0f * u * u;  // skewed data
    }
    float* d_data;
    double* d_means;
    CUDA_CHECK(cudaMalloc(&d_data, N * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_means, replicates * sizeof(double)));
    CUDA_CHECK(cudaMemcpy(d_data, data.data(), N * sizeof(float), cudaMemcpyHostToDevice));
    bootstrap_means<<<replicates / 128, 128>>>(d_data, replicates, d_means);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<double> means(replicates);
    CUDA_CHECK(cudaMemcpy(means.data(), d_means, replicates * sizeof(double), cudaMemcpyDeviceToHost));

    bool ok = true;
    for (int r = 0; r < replicates; ++r) {
        uint32_t state = stream_seed(r);
        double s = 0.0;
        for (int k = 0; k < N; ++k) s += data[xorshift32(state) % N];
        if (fabs(s / N - means[r]) > 1e-12 * fabs(s / N)) ok = false;
    }
    double sample_mean = 0.0;
    for (float v : data) sample_mean += v;
    sample_mean /= N;
    std::vector<double> sorted = means;
    std::sort(sorted.begin(), sorted.end());
    const double lo = sorted[(int)(0.025 * replicates)], hi = sorted[(int)(0.975 * replicates)];
    double se = 0.0, mm = 0.0;
    for (double m : means) mm += m;
    mm /= replicates;
    for (double m : means) se += (m - mm) * (m - mm);
    se = sqrt(se / (replicates - 1));
    printf("bootstrap n %d replicates %d\n", N, replicates);
    printf("sample_mean %.9e bootstrap_se %.6e\n", sample_mean, se);
    printf("ci95 [%.9e, %.9e]\n", lo, hi);
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(d_data));
    CUDA_CHECK(cudaFree(d_means));
    return ok ? 0 : 1;
}
