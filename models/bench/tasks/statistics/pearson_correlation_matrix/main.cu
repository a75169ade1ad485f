// Pearson correlation matrix of 12 variables: column means, then one block per (i, j) pair on a 2D grid (double).
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

constexpr int VARS = 12;
constexpr int THREADS = 256;

__global__ void column_means(const double* __restrict__ x, int samples, double* __restrict__ mean) {
    __shared__ double part[THREADS];
    double s = 0.0;
    for (int r = threadIdx.x; r < samples; r += THREADS) s += x[(size_t)r * VARS + blockIdx.x];
    part[threadIdx.x] = s;
    __syncthreads();
    for (int st = THREADS / 2; st > 0; st >>= 1) {
        if (threadIdx.x < st) part[threadIdx.x] += part[threadIdx.x + st];
        __syncthreads();
    }
    if (threadIdx.x == 0) mean[blockIdx.x] = part[0] / samples;
}

__global__ void covariance_pairs(const double* __restrict__ x, int samples,
                                 const double* __restrict__ mean, double* __restrict__ cov) {
    const int i = blockIdx.y, j = blockIdx.x;
    if (j < i) return;  // symmetric: compute the upper triangle, mirror below
    __shared__ double part[THREADS];
    double s = 0.0;
    for (int r = threadIdx.x; r < samples; r += THREADS)
        s += (x[(size_t)r * VARS + i] - mean[i]) * (x[(size_t)r * VARS + j] - mean[j]);
    part[threadIdx.x] = s;
    __syncthreads();
    for (int st = THREADS / 2; st > 0; st >>= 1) {
        if (threadIdx.x < st) part[threadIdx.x] += part[threadIdx.x + st];
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        cov[i * VARS + j] = part[0] / (samples - 1);
        cov[j * VARS + i] = part[0] / (samples - 1);
    }
}

int main() {
    g_seed = 1618u;
    const int samples = 4096;
    std::vector<double> x((size_t)samples * VARS);
    for (int r = 0; r < samples; ++r) {
        const double f1 = next_uniform(), f2 = next_uniform();  // two latent factors
        for (int v = 0; v < VARS; ++v)
            x[(size_t)r * VARS + v] = (v % 3) * f1 + (v % 4 == 0 ? -f2 : 0.5 * f2) + 0.7 * next_uniform() + v;
    }
    double *dx, *dmean, *dcov;
    CUDA_CHECK(cudaMalloc(&dx, x.size() * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&dmean, VARS * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&dcov, VARS * VARS * sizeof(double)));
    CUDA_CHECK(cudaMemcpy(dx, x.data(), x.size() * sizeof(double), cudaMemcpyHostToDevice));
    column_means<<<VARS, THREADS>>>(dx, samples, dmean);
    covariance_pairs<<<dim3(VARS, VARS), THREADS>>>(dx, samples, dmean, dcov);
    CUDA_CHECK(cudaGetLastError());
    std::vector<double> cov(VARS * VARS);
    CUDA_CHECK(cudaMemcpy(cov.data(), dcov, cov.size() * sizeof(double), cudaMemcpyDeviceToHost));

    std::vector<double> mean(VARS, 0.0);
    for (int r = 0; r < samples; ++r)
        for (int v = 0; v < VARS; ++v) mean[v] += x[(size_t)r * VARS + v];
    for (auto& m : mean) m /= samples;
    bool ok = true;
    double corr_sum = 0.0, strongest = 0.0;
    int si = 0, sj = 0;
    for (int i = 0; i < VARS; ++i)
        for (int j = 0; j < VARS; ++j) {
            double c = 0.0;
            for (int r = 0; r < samples; ++r)
                c += (x[(size_t)r * VARS + i] - mean[i]) * (x[(size_t)r * VARS + j] - mean[j]);
            c /= samples - 1;
            if (fabs(c - cov[i * VARS + j]) > 1e-10 * (1.0 + fabs(c))) ok = false;
            const double rho = cov[i * VARS + j] / sqrt(cov[i * VARS + i] * cov[j * VARS + j]);
            corr_sum += rho;
            if (i < j && fabs(rho) > strongest) { strongest = fabs(rho); si = i; sj = j; }
        }
    printf("correlation vars %d samples %d\n", VARS, samples);
    printf("var[0] %.10e var[11] %.10e\n", cov[0], cov[VARS * VARS - 1]);
    printf("sum_of_correlations %.8e\n", corr_sum);
    printf("strongest pair (%d,%d) |rho| %.8e\n", si, sj, strongest);
    CUDA_CHECK(cudaFree(dx));
    CUDA_CHECK(cudaFree(dmean));
    CUDA_CHECK(cudaFree(dcov));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
