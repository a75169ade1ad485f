// Jacobi iteration for a diagonally dominant system: one launch per sweep (ping-pong), residual computed on the device.
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

constexpr int N = 256;
constexpr int SWEEPS = 12;

__global__ void jacobi_sweep(const double* __restrict__ A, const double* __restrict__ b,
                             const double* __restrict__ x_old, double* __restrict__ x_new) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= N) return;
    double sigma = 0.0;
    for (int j = 0; j < N; ++j)
        if (j != i) sigma += A[i * N + j] * x_old[j];
    x_new[i] = (b[i] - sigma) / A[i * N + i];
}

__global__ void residual_norm(const double* __restrict__ A, const double* __restrict__ b,
                              const double* __restrict__ x, double* __restrict__ out) {
    __shared__ double part[N];
    const int i = threadIdx.x;  // one block of N threads
    double r = b[i];
    for (int j = 0; j < N; ++j) r -= A[i * N + j] * x[j];
    part[i] = r * r;
    __syncthreads();
    for (int s = N / 2; s > 0; s >>= 1) {
        if (i < s) part[i] += part[i + s];
        __syncthreads();
    }
    if (i == 0) *out = sqrt(part[0]);
}

int main() {
    g_seed = 31415u;
    std::vector<double> A(N * N), b(N), x(N, 0.0);
    for (int i = 0; i < N; ++i) {
        double off = 0.0;
        for (int j = 0; j < N; ++j) {
            A[i * N + j] = (i == j) ? 0.0 : 0.5 * next_uniform() / N;
            off += fabs(A[i * N + j]);
        }
        A[i * N + i] = 1.0 + off + 0.1 * (next_uniform() + 1.0);
        b[i] = 10.0 * next_uniform();
    }
    double *dA, *db, *dx[2], *dres;
    CUDA_CHECK(cudaMalloc(&dA, A.size() * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&db, N * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&dx[0], N * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&dx[1], N * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&dres, sizeof(double)));
    CUDA_CHECK(cudaMemcpy(dA, A.data(), A.size() * sizeof(double), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(db, b.data(), N * sizeof(double), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(dx[0], 0, N * sizeof(double)));
    for (int s = 0; s < SWEEPS; ++s) {
        jacobi_sweep<<<N / 64, 64>>>(dA, db, dx[s % 2], dx[(s + 1) % 2]);
        CUDA_CHECK(cudaGetLastError());
    }
    residual_norm<<<1, N>>>(dA, db, dx[SWEEPS % 2], dres);
    CUDA_CHECK(cudaGetLastError());
    double residual = 0.0;
    std::vector<double> gx(N);
    CUDA_CHECK(cudaMemcpy(gx.data(), dx[SWEEPS % 2], N * sizeof(double), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&residual, dres, sizeof(double), cudaMemcpyDeviceToHost));

    std::vector<double> xn(N);
    for (int s = 0; s < SWEEPS; ++s) {
        for (int i = 0; i < N; ++i) {
            double sigma = 0.0;
            for (int j = 0; j < N; ++j)
                if (j != i) sigma += A[i * N + j] * x[j];
            xn[i] = (b[i] - sigma) / A[i * N + i];
        }
        x.swap(xn);
    }
    double max_err = 0.0, sum = 0.0;
    for (int i = 0; i < N; ++i) {
        max_err = fmax(max_err, fabs(x[i] - gx[i]));
        sum += gx[i];
    }
    printf("jacobi n %d sweeps %d\n", N, SWEEPS);
    printf("sum_x %.10e x[0] %.10e x[%d] %.10e\n", sum, gx[0], N - 1, gx[N - 1]);
    printf("residual_below_1e-6 %d\n", residual < 1e-6 ? 1 : 0);
    const bool ok = max_err < 1e-12 && residual < 1e-6;
    CUDA_CHECK(cudaFree(dA));
    CUDA_CHECK(cudaFree(db));
    CUDA_CHECK(cudaFree(dx[0]));
    CUDA_CHECK(cudaFree(dx[1]));
    CUDA_CHECK(cudaFree(dres));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
