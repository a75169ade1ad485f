// Gaussian kernel density estimate on a grid: sample tiles staged in shared memory, fast-math __expf, Silverman bandwidth.
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

constexpr int TILE = 256;

__global__ void kde_eval(const float* __restrict__ samples, int n, const float* __restrict__ grid,
                         int m, float inv_h, float norm, float* __restrict__ density) {
    __shared__ float tile[TILE];
    const int g = blockIdx.x * blockDim.x + threadIdx.x;
    const float x = g < m ? grid[g] : 0.0f;
    float acc = 0.0f;
    for (int base = 0; base < n; base += TILE) {
        if (base + threadIdx.x < n) tile[threadIdx.x] = samples[base + threadIdx.x];
        __syncthreads();
        const int limit = min(TILE, n - base);
        for (int k = 0; k < limit; ++k) {
            const float u = (x - tile[k]) * inv_h;
            acc += __expf(-0.5f * u * u);
        }
        __syncthreads();
    }
    if (g < m) density[g] = acc * norm;
}

int main() {
    g_seed = 8128u;
    const int n = 4096, m = 512;
    std::vector<float> samples(n), grid(m), density(m);
    double mean = 0.0, var = 0.0;
    for (int i = 0; i < n; ++i) {
        // Mixture of two bumps built from sums of uniforms (approximately normal).
        const float z = (next_uniform() + next_uniform() + next_uniform()) * 0.8f;
        samples[i] = (i % 3 == 0) ? 4.0f + 0.5f * z : z;
        mean += samples[i];
    }
    mean /= n;
    for (float s : samples) var += (s - mean) * (s - mean);
    const double sd = sqrt(var / (n - 1));
    const float h = (float)(1.06 * sd * pow((double)n, -0.2));  // Silverman's rule
    for (int j = 0; j < m; ++j) grid[j] = -4.0f + 10.0f * j / (m - 1);
    const float norm = (float)(1.0 / (n * h * sqrt(2.0 * M_PI)));
    float *d_s, *d_g, *d_d;
    CUDA_CHECK(cudaMalloc(&d_s, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_g, m * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_d, m * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_s, samples.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_g, grid.data(), m * sizeof(float), cudaMemcpyHostToDevice));
    kde_eval<<<(m + TILE - 1) / TILE, TILE>>>(d_s, n, d_g, m, 1.0f / h, norm, d_d);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(density.data(), d_d, m * sizeof(float), cudaMemcpyDeviceToHost));

    double max_err = 0.0, integral = 0.0, peak = 0.0;
    int peak_at = 0;
    for (int j = 0; j < m; ++j) {
        double ref = 0.0;
        for (int i = 0; i < n; ++i) {
            const double u = (grid[j] - samples[i]) / (double)h;
            ref += exp(-0.5 * u * u);
        }
        ref *= norm;
        max_err = fmax(max_err, fabs(ref - density[j]));
        integral += density[j] * (10.0 / (m - 1));
        if (density[j] > peak) { peak = density[j]; peak_at = j; }
    }
    printf("kde samples %d grid %d bandwidth %.6e\n", n, m, h);
    printf("integral %.6e\n", integral);
    printf("peak %.6e at grid[%d] = %.6e\n", peak, peak_at, grid[peak_at]);
    printf("density[0] %.6e density[256] %.6e\n", density[0], density[256]);
    const bool ok = max_err < 1e-4 && fabs(integral - 1.0) < 1e-2;
    CUDA_CHECK(cudaFree(d_s));
    CUDA_CHECK(cudaFree(d_g));
    CUDA_CHECK(cudaFree(d_d));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
