// Ordinary least squares for y = a + b*x: warp-reduced sufficient statistics accumulated with double atomicAdd, then residuals.
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

struct Sums {
    double n, sx, sy, sxx, sxy;
};

__inline__ __device__ double warp_reduce(double v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}

__global__ void sufficient_stats(const float* __restrict__ x, const float* __restrict__ y, int n,
                                 Sums* __restrict__ out) {
    double sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0, cnt = 0.0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        const double xi = x[i], yi = y[i];
        sx += xi;
        sy += yi;
        sxx += xi * xi;
        sxy += xi * yi;
        cnt += 1.0;
    }
    sx = warp_reduce(sx);
    sy = warp_reduce(sy);
    sxx = warp_reduce(sxx);
    sxy = warp_reduce(sxy);
    cnt = warp_reduce(cnt);
    if ((threadIdx.x & 31) == 0) {  // double atomics: order varies, values agree to rounding
        atomicAdd(&out->n, cnt);
        atomicAdd(&out->sx, sx);
        atomicAdd(&out->sy, sy);
        atomicAdd(&out->sxx, sxx);
        atomicAdd(&out->sxy, sxy);
    }
}

__global__ void residual_sum_squares(const float* __restrict__ x, const float* __restrict__ y, int n,
                                     double a, double b, double* __restrict__ rss,
                                     unsigned int* __restrict__ outliers) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    double r2 = 0.0;
    if (i < n) {
        const double r = y[i] - (a + b * x[i]);
        r2 = r * r;
        if (fabs(r) > 3.0) atomicAdd(outliers, 1u);
    }
    r2 = warp_reduce(r2);
    if ((threadIdx.x & 31) == 0) atomicAdd(rss, r2);
}

int main() {
    g_seed = 2718281u;
    const int n = 40000;
    std::vector<float> x(n), y(n);
    for (int i = 0; i < n; ++i) {
        x[i] = 10.0f * next_uniform();
        const float noise = next_uniform() + next_uniform();
        y[i] = 1.5f + 0.75f * x[i] + noise + ((i % 1000 == 0) ? 25.0f : 0.0f);  // a few outliers
    }
    float *dx, *dy;
    Sums* ds;
    double* drss;
    unsigned int* dout;
    CUDA_CHECK(cudaMalloc(&dx, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dy, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&ds, sizeof(Sums)));
    CUDA_CHECK(cudaMalloc(&drss, sizeof(double)));
    CUDA_CHECK(cudaMalloc(&dout, sizeof(unsigned int)));
    CUDA_CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(ds, 0, sizeof(Sums)));
    CUDA_CHECK(cudaMemset(drss, 0, sizeof(double)));
    CUDA_CHECK(cudaMemset(dout, 0, sizeof(unsigned int)));
    sufficient_stats<<<40, 256>>>(dx, dy, n, ds);
    CUDA_CHECK(cudaGetLastError());
    Sums s;
    CUDA_CHECK(cudaMemcpy(&s, ds, sizeof(Sums), cudaMemcpyDeviceToHost));
    const double b = (s.n * s.sxy - s.sx * s.sy) / (s.n * s.sxx - s.sx * s.sx);
    const double a = (s.sy - b * s.sx) / s.n;
    residual_sum_squares<<<(n + 255) / 256, 256>>>(dx, dy, n, a, b, drss, dout);
    CUDA_CHECK(cudaGetLastError());
    double rss = 0.0;
    unsigned int outliers = 0;
    CUDA_CHECK(cudaMemcpy(&rss, drss, sizeof(double), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&outliers, dout, sizeof(unsigned int), cudaMemcpyDeviceToHost));

    double rx = 0, ry = 0, rxx = 0, rxy = 0;
    for (int i = 0; i < n; ++i) {
        rx += x[i];
        ry += y[i];
        rxx += (double)x[i] * x[i];
        rxy += (double)x[i] * y[i];
    }
    const double rb = (n * rxy - rx * ry) / (n * rxx - rx * rx), ra = (ry - rb * rx) / n;
    double rrss = 0.0;
    unsigned int routl = 0;
    for (int i = 0; i < n; ++i) {
        const double r = y[i] - (ra + rb * x[i]);
        rrss += r * r;
        routl += fabs(r) > 3.0 ? 1u : 0u;
    }
    printf("ols n %.0f\n", s.n);
    printf("intercept %.9e slope %.9e\n", a, b);
    printf("residual_std %.7e outliers %u\n", sqrt(rss / (n - 2)), outliers);
    const bool ok = s.n == n && fabs(a - ra) < 1e-9 && fabs(b - rb) < 1e-10 &&
                    fabs(rss - rrss) < 1e-8 * rrss && outliers == routl;
    CUDA_CHECK(cudaFree(dx));
    CUDA_CHECK(cudaFree(dy));
    CUDA_CHECK(cudaFree(ds));
    CUDA_CHECK(cudaFree(drss));
    CUDA_CHECK(cudaFree(dout));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
