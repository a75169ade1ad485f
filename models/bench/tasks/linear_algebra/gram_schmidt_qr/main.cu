// Modified Gram-Schmidt QR of a tall 96x16 matrix in one block: shared-memory column reductions in double.
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

constexpr int ROWS = 96, COLS = 16, THREADS = 128;

__device__ double block_sum(double v, double* red) {
    red[threadIdx.x] = v;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) red[threadIdx.x] += red[threadIdx.x + s];
        __syncthreads();
    }
    const double total = red[0];
    __syncthreads();
    return total;
}

// A (ROWS x COLS, column-major) is overwritten by Q; R (COLS x COLS, row-major) is upper triangular.
__global__ void mgs_qr(double* A, double* R) {
    __shared__ double red[THREADS];
    const int i = threadIdx.x;  // one row per thread (ROWS <= THREADS)
    for (int k = 0; k < COLS; ++k) {
        const double a = i < ROWS ? A[k * ROWS + i] : 0.0;
        const double norm = sqrt(block_sum(a * a, red));
        if (i < ROWS) A[k * ROWS + i] = a / norm;
        if (i == 0) R[k * COLS + k] = norm;
        __syncthreads();
        const double q = i < ROWS ? A[k * ROWS + i] : 0.0;
        for (int j = k + 1; j < COLS; ++j) {
            const double aj = i < ROWS ? A[j * ROWS + i] : 0.0;
            const double r = block_sum(q * aj, red);
            if (i < ROWS) A[j * ROWS + i] = aj - r * q;
            if (i == 0) R[k * COLS + j] = r;
        }
        __syncthreads();
    }
}

int main() {
    g_seed = 1729u;
    std::vector<double> A(ROWS * COLS), Q(ROWS * COLS), R(COLS * COLS, 0.0);
    for (int j = 0; j < COLS; ++j)
        for (int i = 0; i < ROWS; ++i) A[j * ROWS + i] = next_uniform() + (i == j ? 2.0 : 0.0);
    double *dA, *dR;
    CUDA_CHECK(cudaMalloc(&dA, A.size() * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&dR, R.size() * sizeof(double)));
    CUDA_CHECK(cudaMemcpy(dA, A.data(), A.size() * sizeof(double), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(dR, 0, R.size() * sizeof(double)));
    mgs_qr<<<1, THREADS>>>(dA, dR);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(Q.data(), dA, Q.size() * sizeof(double), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(R.data(), dR, R.size() * sizeof(double), cudaMemcpyDeviceToHost));

    // Checks: Q^T Q = I, Q R = A, R upper triangular with a positive diagonal.
    double orth = 0.0, recon = 0.0, log_det = 0.0, trace = 0.0;
    for (int a = 0; a < COLS; ++a)
        for (int b = 0; b < COLS; ++b) {
            double dot = 0.0;
            for (int i = 0; i < ROWS; ++i) dot += Q[a * ROWS + i] * Q[b * ROWS + i];
            orth = fmax(orth, fabs(dot - (a == b ? 1.0 : 0.0)));
        }
    for (int j = 0; j < COLS; ++j)
        for (int i = 0; i < ROWS; ++i) {
            double s = 0.0;
            for (int k = 0; k <= j; ++k) s += Q[k * ROWS + i] * R[k * COLS + j];
            recon = fmax(recon, fabs(s - A[j * ROWS + i]));
        }
    bool upper = true;
    for (int a = 0; a < COLS; ++a) {
        for (int b = 0; b < a; ++b) upper = upper && R[a * COLS + b] == 0.0;
        upper = upper && R[a * COLS + a] > 0.0;
        log_det += log(R[a * COLS + a]);
        trace += R[a * COLS + a];
    }
    printf("mgs qr %dx%d\n", ROWS, COLS);
    printf("log_det_R %.10e trace_R %.10e\n", log_det, trace);
    printf("R[0][1] %.10e R[15][15] %.10e\n", R[1], R[COLS * COLS - 1]);
    const bool ok = orth < 1e-10 && recon < 1e-10 && upper;
    CUDA_CHECK(cudaFree(dA));
    CUDA_CHECK(cudaFree(dR));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
