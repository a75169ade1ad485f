// Romberg integration of two integrands, each on its own stream: level k of the trapezoid rule adds the
// 2^(k-1) new midpoints (a warp-shuffle reduction per warp, then a double atomicAdd); the host builds the
// Richardson tableau. The streams are joined with events before the results are read.
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

constexpr int LEVELS = 7;     // trapezoid levels 0..LEVELS-1 (finest: 2^(LEVELS-1) * BASE intervals)
constexpr int BASE = 512;     // intervals at level 0

__host__ __device__ inline double integrand(int which, double x) {
    return which == 0 ? 4.0 / (1.0 + x * x)             // integral over [0,1] = pi
                      : x * exp(-x) * sin(3.0 * x);     // smooth oscillatory
}

// Sum of f at the points a + (2j+1) h for j < count (count midpoints of the previous level).
__global__ void midpoint_sum(int which, double a, double h, long long count, double* out) {
    double s = 0.0;
    for (long long j = blockIdx.x * (long long)blockDim.x + threadIdx.x; j < count; j += (long long)gridDim.x * blockDim.x)
        s += integrand(which, a + (2 * j + 1) * h);
    for (int off = 16; off > 0; off >>= 1) s += __shfl_down_sync(0xffffffffu, s, off);
    if ((threadIdx.x & 31) == 0) atomicAdd(out, s);
}

// Level 0: all BASE+1 points with trapezoid end weights.
__global__ void endpoint_sum(int which, double a, double h, double* out) {
    double s = 0.0;
    for (int j = threadIdx.x; j <= BASE; j += blockDim.x) {
        const double w = (j == 0 || j == BASE) ? 0.5 : 1.0;
        s += w * integrand(which, a + j * h);
    }
    for (int off = 16; off > 0; off >>= 1) s += __shfl_down_sync(0xffffffffu, s, off);
    if ((threadIdx.x & 31) == 0) atomicAdd(out, s);
}

static double romberg(const double* sums, double a, double b, double* trapezoid) {
    double R[LEVELS][LEVELS];
    double total = sums[0];
    for (int k = 0; k < LEVELS; ++k) {
        if (k > 0) total += sums[k];
        const double h = (b - a) / ((double)BASE * (1 << k));
        R[k][0] = h * total;
        trapezoid[k] = R[k][0];
        for (int m = 1; m <= k; ++m) R[k][m] = R[k][m - 1] + (R[k][m - 1] - R[k - 1][m - 1]) / (pow(4.0, m) - 1.0);
    }
    return R[LEVELS - 1][LEVELS - 1];
}

int main() {
    const double a[2] = {0.0, 0.0}, b[2] = {1.0, 6.0};
    cudaStream_t st[2];
    cudaEvent_t ev[2];
    double* d_sums;
    CUDA_CHECK(cudaMalloc(&d_sums, 2 * LEVELS * sizeof(double)));
    CUDA_CHECK(cudaMemset(d_sums, 0, 2 * LEVELS * sizeof(double)));
    CUDA_CHECK(cudaDeviceSynchronize());  // non-blocking streams do not wait for the legacy stream
    for (int f = 0; f < 2; ++f) {
        CUDA_CHECK(cudaStreamCreateWithFlags(&st[f], cudaStreamNonBlocking));
        CUDA_CHECK(cudaEventCreate(&ev[f]));
        const double h0 = (b[f] - a[f]) / BASE;
        endpoint_sum<<<1, 256, 0, st[f]>>>(f, a[f], h0, d_sums + f * LEVELS);
        CUDA_CHECK(cudaGetLastError());
        for (int k = 1; k < LEVELS; ++k) {
            const long long count = (long long)BASE << (k - 1);
            const double h = (b[f] - a[f]) / ((double)BASE * (1 << k));
            const int blocks = (int)((count + 255) / 256 < 64 ? (count + 255) / 256 : 64);
            midpoint_sum<<<blocks, 256, 0, st[f]>>>(f, a[f], h, count, d_sums + f * LEVELS + k);
            CUDA_CHECK(cudaGetLastError());
        }
        CUDA_CHECK(cudaEventRecord(ev[f], st[f]));
    }
    for (int f = 0; f < 2; ++f) CUDA_CHECK(cudaEventSynchronize(ev[f]));
    double sums[2 * LEVELS];
    CUDA_CHECK(cudaMemcpy(sums, d_sums, sizeof(sums), cudaMemcpyDeviceToHost));

    bool ok = true;
    for (int f = 0; f < 2; ++f) {
        double ref_sums[LEVELS];
        const double h0 = (b[f] - a[f]) / BASE;
        ref_sums[0] = 0.0;
        for (int j = 0; j <= BASE; ++j) ref_sums[0] += ((j == 0 || j == BASE) ? 0.5 : 1.0) * integrand(f, a[f] + j * h0);
        for (int k = 1; k < LEVELS; ++k) {
            const double h = (b[f] - a[f]) / ((double)BASE * (1 << k));
            ref_sums[k] = 0.0;
            for (long long j = 0; j < ((long long)BASE << (k - 1)); ++j) ref_sums[k] += integrand(f, a[f] + (2 * j + 1) * h);
        }
        for (int k = 0; k < LEVELS; ++k)
            if (fabs(ref_sums[k] - sums[f * LEVELS + k]) > 1e-11 * fabs(ref_sums[k])) ok = false;
        double trap[LEVELS], rtrap[LEVELS];
        const double value = romberg(sums + f * LEVELS, a[f], b[f], trap);
        const double ref_value = romberg(ref_sums, a[f], b[f], rtrap);
        if (fabs(value - ref_value) > 1e-12) ok = false;
        printf("integrand %d romberg %.14e trapezoid_finest %.14e trapezoid_coarsest %.14e\n", f, value,
               trap[LEVELS - 1], trap[0]);
    }
    double scratch[LEVELS];
    printf("pi_error_below_1e-12 %d\n", fabs(romberg(sums, 0.0, 1.0, scratch) - M_PI) < 1e-12 ? 1 : 0);
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    for (int f = 0; f < 2; ++f) {
        CUDA_CHECK(cudaEventDestroy(ev[f]));
        CUDA_CHECK(cudaStreamDestroy(st[f]));
    }
    CUDA_CHECK(cudaFree(d_sums));
    return ok ? 0 : 1;
}
