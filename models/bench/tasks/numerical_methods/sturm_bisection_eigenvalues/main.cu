// Eigenvalues of symmetric tridiagonal matrices (diagonal d, off-diagonal e) by bisection on the Sturm
// sequence count: thread (k, m) finds the k-th smallest eigenvalue of matrix m. The Gershgorin interval
// is reduced over the warp with shuffles first (blockDim.x == 32 == warpSize).
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

constexpr int N = 64;       // matrix order (multiple of 32)
constexpr int MATS = 32;    // batch
constexpr int ITER = 54;    // bisection steps (interval shrinks by 2^-54)

// Number of eigenvalues strictly less than x (LDL^T pivots that are negative).
__host__ __device__ inline int sturm_count(const double* d, const double* e, double x) {
    int count = 0;
    double q = d[0] - x;
    if (q < 0.0) ++count;
    for (int i = 1; i < N; ++i) {
        const double qq = fabs(q) < 1e-300 ? 1e-300 : q;
        q = d[i] - x - e[i - 1] * e[i - 1] / qq;
        if (q < 0.0) ++count;
    }
    return count;
}

__host__ __device__ inline double bisect(const double* d, const double* e, int k, double lo, double hi) {
    for (int it = 0; it < ITER; ++it) {
        const double mid = 0.5 * (lo + hi);
        if (sturm_count(d, e, mid) > k) hi = mid;
        else lo = mid;
    }
    return 0.5 * (lo + hi);
}

__global__ void eigenvalues(const double* D, const double* E, double* lambda) {
    const int m = blockIdx.y;
    const double* d = D + m * N;
    const double* e = E + m * (N - 1);
    // Gershgorin bounds: lane-strided min/max then butterfly over the 32 lanes.
    double lo = 1e300, hi = -1e300;
    for (int i = threadIdx.x; i < N; i += 32) {
        const double r = (i > 0 ? fabs(e[i - 1]) : 0.0) + (i < N - 1 ? fabs(e[i]) : 0.0);
        lo = fmin(lo, d[i] - r);
        hi = fmax(hi, d[i] + r);
    }
    for (int off = 16; off > 0; off >>= 1) {
        lo = fmin(lo, __shfl_xor_sync(0xffffffffu, lo, off));
        hi = fmax(hi, __shfl_xor_sync(0xffffffffu, hi, off));
    }
    const int k = blockIdx.x * 32 + threadIdx.x;
    if (k < N) lambda[m * N + k] = bisect(d, e, k, lo, hi);
}

int main() {
    g_seed = 6174u;
    std::vector<double> D(MATS * N), E(MATS * (N - 1)), L(MATS * N);
    for (auto& v : D) v = 2.0 * next_uniform();
    for (auto& v : E) v = next_uniform();
    double *d_D, *d_E, *d_L;
    CUDA_CHECK(cudaMalloc(&d_D, D.size() * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&d_E, E.size() * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&d_L, L.size() * sizeof(double)));
    CUDA_CHECK(cudaMemcpy(d_D, D.data(), D.size() * sizeof(double), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_E, E.data(), E.size() * sizeof(double), cudaMemcpyHostToDevice));
    eigenvalues<<<dim3(N / 32, MATS), 32>>>(d_D, d_E, d_L);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(L.data(), d_L, L.size() * sizeof(double), cudaMemcpyDeviceToHost));

    bool ok = true;
    double trace_err = 0.0, sum_all = 0.0, min_all = 1e300, max_all = -1e300;
    for (int m = 0; m < MATS; ++m) {
        const double* d = &D[m * N];
        const double* e = &E[m * (N - 1)];
        double lo = 1e300, hi = -1e300, trace = 0.0, lsum = 0.0;
        for (int i = 0; i < N; ++i) {
            const double r = (i > 0 ? fabs(e[i - 1]) : 0.0) + (i < N - 1 ? fabs(e[i]) : 0.0);
            lo = fmin(lo, d[i] - r);
            hi = fmax(hi, d[i] + r);
            trace += d[i];
        }
        for (int k = 0; k < N; ++k) {
            const double ref = bisect(d, e, k, lo, hi);
            const double got = L[m * N + k];
            if (fabs(ref - got) > 1e-12 * (1.0 + fabs(ref))) ok = false;
            if (k > 0 && got < L[m * N + k - 1]) ok = false;  // ascending
            lsum += got;
            min_all = fmin(min_all, got);
            max_all = fmax(max_all, got);
        }
        trace_err = fmax(trace_err, fabs(trace - lsum));  // sum of eigenvalues equals the trace
        sum_all += lsum;
    }
    if (trace_err > 1e-9) ok = false;
    printf("matrices %d order %d\n", MATS, N);
    printf("eigenvalue_sum %.10e min %.10e max %.10e\n", sum_all, min_all, max_all);
    printf("matrix0: lambda0 %.12e lambda31 %.12e lambda63 %.12e\n", L[0], L[31], L[63]);
    printf("trace_identity_holds %d\n", trace_err <= 1e-9 ? 1 : 0);
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(d_D));
    CUDA_CHECK(cudaFree(d_E));
    CUDA_CHECK(cudaFree(d_L));
    return ok ? 0 : 1;
}
