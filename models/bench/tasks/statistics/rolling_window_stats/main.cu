// Rolling mean and standard deviation over a time series via double-precision prefix sums and a windowed difference kernel.
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

constexpr int THREADS = 256;
constexpr int WINDOW = 64;

// In-block inclusive scan of (x, x^2) pairs; returns block totals for a second level.
__global__ void block_scan_pairs(const float* __restrict__ x, int n, double2* __restrict__ prefix,
                                 double2* __restrict__ block_totals) {
    __shared__ double2 s[THREADS];
    const int i = blockIdx.x * THREADS + threadIdx.x;
    const double v = i < n ? (double)x[i] : 0.0;
    s[threadIdx.x] = make_double2(v, v * v);
    __syncthreads();
    for (int off = 1; off < THREADS; off <<= 1) {  // Hillis-Steele
        double2 add = make_double2(0.0, 0.0);
        if (threadIdx.x >= off) add = s[threadIdx.x - off];
        __syncthreads();
        s[threadIdx.x].x += add.x;
        s[threadIdx.x].y += add.y;
        __syncthreads();
    }
    if (i < n) prefix[i] = s[threadIdx.x];
    if (threadIdx.x == THREADS - 1) block_totals[blockIdx.x] = s[THREADS - 1];
}

__global__ void add_block_prefix(double2* __restrict__ prefix, const double2* __restrict__ totals, int n) {
    const int i = blockIdx.x * THREADS + threadIdx.x;
    if (i >= n || blockIdx.x == 0) return;
    double2 off = make_double2(0.0, 0.0);
    for (int b = 0; b < (int)blockIdx.x; ++b) {  // few blocks: a short serial sum is fine
        off.x += totals[b].x;
        off.y += totals[b].y;
    }
    prefix[i].x += off.x;
    prefix[i].y += off.y;
}

__global__ void window_stats(const double2* __restrict__ prefix, int n, float* __restrict__ mean,
                             float* __restrict__ stdev) {
    const int i = blockIdx.x * THREADS + threadIdx.x;  // window ends at i (inclusive)
    if (i < WINDOW - 1 || i >= n) return;
    const double2 hi = prefix[i];
    const double2 lo = i >= WINDOW ? prefix[i - WINDOW] : make_double2(0.0, 0.0);
    const double m = (hi.x - lo.x) / WINDOW;
    const double var = fmax((hi.y - lo.y) / WINDOW - m * m, 0.0);
    mean[i - (WINDOW - 1)] = (float)m;
    stdev[i - (WINDOW - 1)] = (float)sqrt(var);
}

int main() {
    g_seed = 11235u;
    const int n = 16384, outputs = n - WINDOW + 1, blocks = (n + THREADS - 1) / THREADS;
    std::vector<float> x(n), mean(outputs), sd(outputs);
    float level = 100.0f;
    for (int i = 0; i < n; ++i) {  // random walk with volatility regimes
        level += ((i / 2048) % 2 ? 0.8f : 0.2f) * next_uniform();
        x[i] = level;
    }
    float *d_x, *d_mean, *d_sd;
    double2 *d_prefix, *d_totals;
    CUDA_CHECK(cudaMalloc(&d_x, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_mean, outputs * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_sd, outputs * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_prefix, n * sizeof(double2)));
    CUDA_CHECK(cudaMalloc(&d_totals, blocks * sizeof(double2)));
    CUDA_CHECK(cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    block_scan_pairs<<<blocks, THREADS>>>(d_x, n, d_prefix, d_totals);
    add_block_prefix<<<blocks, THREADS>>>(d_prefix, d_totals, n);
    window_stats<<<blocks, THREADS>>>(d_prefix, n, d_mean, d_sd);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(mean.data(), d_mean, outputs * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(sd.data(), d_sd, outputs * sizeof(float), cudaMemcpyDeviceToHost));

    double max_mean_err = 0.0, max_sd_err = 0.0, sd_sum = 0.0, mean_sum = 0.0;
    for (int o = 0; o < outputs; ++o) {
        double m = 0.0, v = 0.0;
        for (int k = 0; k < WINDOW; ++k) m += x[o + k];
        m /= WINDOW;
        for (int k = 0; k < WINDOW; ++k) v += (x[o + k] - m) * (x[o + k] - m);
        const double s = sqrt(v / WINDOW);
        max_mean_err = fmax(max_mean_err, fabs(m - mean[o]) / fabs(m));
        max_sd_err = fmax(max_sd_err, fabs(s - sd[o]));
        sd_sum += sd[o];
        mean_sum += mean[o];
    }
    printf("rolling window %d over %d points\n", WINDOW, n);
    printf("mean_sum %.6e sd_sum %.5e\n", mean_sum, sd_sum);
    printf("first mean %.6e sd %.4e last mean %.6e sd %.4e\n", mean[0], sd[0], mean[outputs - 1], sd[outputs - 1]);
    const bool ok = max_mean_err < 1e-6 && max_sd_err < 1e-3;
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(d_x));
    CUDA_CHECK(cudaFree(d_mean));
    CUDA_CHECK(cudaFree(d_sd));
    CUDA_CHECK(cudaFree(d_prefix));
    CUDA_CHECK(cudaFree(d_totals));
    return ok ? 0 : 1;
}
