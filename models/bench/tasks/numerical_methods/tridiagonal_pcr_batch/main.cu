// Parallel cyclic reduction (PCR) for a batch of diagonally dominant tridiagonal systems: one block per
// system, one thread per equation, the four coefficient arrays in dynamic shared memory; log2(n) steps.
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

constexpr int N = 256;        // equations per system (power of two)
constexpr int SYSTEMS = 128;

struct Tridiag {
    float* a;  // sub-diagonal (a[0] = 0)
    float* b;  // diagonal
    float* c;  // super-diagonal (c[n-1] = 0)
    float* d;  // right-hand side
};

__global__ void pcr_solve(const float* A, const float* B, const float* C, const float* D, float* X) {
    extern __shared__ float smem[];
    Tridiag s{smem, smem + N, smem + 2 * N, smem + 3 * N};
    const int i = threadIdx.x, base = blockIdx.x * N;
    s.a[i] = A[base + i];
    s.b[i] = B[base + i];
    s.c[i] = C[base + i];
    s.d[i] = D[base + i];
    __syncthreads();
    for (int stride = 1; stride < N; stride <<= 1) {
        // Out-of-range neighbours are clamped to i itself and weighted by zero (a[i] or c[i] is then 0).
        const bool has_lo = i - stride >= 0, has_hi = i + stride < N;
        const int lo = has_lo ? i - stride : i, hi = has_hi ? i + stride : i;
        const float k1 = has_lo ? s.a[i] / s.b[lo] : 0.0f;
        const float k2 = has_hi ? s.c[i] / s.b[hi] : 0.0f;
        const float a = -s.a[lo] * k1;
        const float c = -s.c[hi] * k2;
        const float b = s.b[i] - s.c[lo] * k1 - s.a[hi] * k2;
        const float d = s.d[i] - s.d[lo] * k1 - s.d[hi] * k2;
        __syncthreads();
        s.a[i] = a;
        s.b[i] = b;
        s.c[i] = c;
        s.d[i] = d;
        __syncthreads();
    }
    X[base + i] = s.d[i] / s.b[i];
}

static void thomas(int n, const float* a, const float* b, const float* c, const float* d, double* x) {
    std::vector<double> cp(n), dp(n);
    cp[0] = c[0] / (double)b[0];
    dp[0] = d[0] / (double)b[0];
    for (int i = 1; i < n; ++i) {
        const double m = b[i] - a[i] * cp[i - 1];
        cp[i] = c[i] / m;
        dp[i] = (d[i] - a[i] * dp[i - 1]) / m;
    }
    x[n - 1] = dp[n - 1];
    for (int i = n - 2; i >= 0; --i) x[i] = dp[i] - cp[i] * x[i + 1];
}

int main() {
    g_seed = 2718u;
    const size_t total = (size_t)N * SYSTEMS;
    std::vector<float> A(total), B(total), C(total), D(total), X(total);
    for (size_t k = 0; k < total; ++k) {
        const int i = (int)(k % N);
        A[k] = i == 0 ? 0.0f : -0.5f + 0.25f * next_uniform();
        C[k] = i == N - 1 ? 0.0f : -0.5f + 0.25f * next_uniform();
        B[k] = 2.0f + 0.5f * next_uniform();
        D[k] = next_uniform();
    }
    float *dA, *dB, *dC, *dD, *dX;
    CUDA_CHECK(cudaMalloc(&dA, total * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dB, total * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dC, total * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dD, total * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dX, total * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dA, A.data(), total * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dB, B.data(), total * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dC, C.data(), total * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dD, D.data(), total * sizeof(float), cudaMemcpyHostToDevice));
    pcr_solve<<<SYSTEMS, N, 4 * N * sizeof(float)>>>(dA, dB, dC, dD, dX);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(X.data(), dX, total * sizeof(float), cudaMemcpyDeviceToHost));

    bool ok = true;
    double max_err = 0.0, checksum = 0.0, max_resid = 0.0;
    std::vector<double> ref(N);
    for (int sys = 0; sys < SYSTEMS; ++sys) {
        const size_t o = (size_t)sys * N;
        thomas(N, &A[o], &B[o], &C[o], &D[o], ref.data());
        for (int i = 0; i < N; ++i) {
            max_err = fmax(max_err, fabs(ref[i] - X[o + i]));
            double r = (double)B[o + i] * X[o + i] - D[o + i];
            if (i > 0) r += (double)A[o + i] * X[o + i - 1];
            if (i < N - 1) r += (double)C[o + i] * X[o + i + 1];
            max_resid = fmax(max_resid, fabs(r));
            checksum += X[o + i] * (double)(1 + (i & 7));
        }
    }
    if (max_err > 1e-4 || max_resid > 1e-4) ok = false;
    printf("systems %d size %d\n", SYSTEMS, N);
    printf("checksum %.6e x[0] %.6e x[%d] %.6e\n", checksum, X[0], (int)total - 1, X[total - 1]);
    printf("accurate_to_1e-4 %d\n", ok ? 1 : 0);
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dA));
    CUDA_CHECK(cudaFree(dB));
    CUDA_CHECK(cudaFree(dC));
    CUDA_CHECK(cudaFree(dD));
    CUDA_CHECK(cudaFree(dX));
    return ok ? 0 : 1;
}
