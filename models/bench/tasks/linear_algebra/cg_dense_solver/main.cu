// Conjugate gradient on a dense SPD system inside one thread block (double precision, shared-memory reductions).
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

constexpr int N = 96;
constexpr int THREADS = 256;
constexpr int MAX_IT = 80;

__device__ double block_dot(const double* a, const double* b, double* red) {
    const int tid = threadIdx.x;
    double s = 0.0;
    for (int i = tid; i < N; i += THREADS) s += a[i] * b[i];
    red[tid] = s;
    __syncthreads();
    for (int stride = THREADS / 2; stride > 0; stride >>= 1) {
        if (tid < stride) red[tid] += red[tid + stride];
        __syncthreads();
    }
    const double r = red[0];
    __syncthreads();
    return r;
}

__global__ void __launch_bounds__(THREADS) cg_solve(const double* __restrict__ A,
                                                    const double* __restrict__ b, double* x_out,
                                                    int* iterations, double tol) {
    __shared__ double x[N], r[N], p[N], Ap[N], red[THREADS];
    const int tid = threadIdx.x;
    for (int i = tid; i < N; i += THREADS) {
        x[i] = 0.0;
        r[i] = b[i];
        p[i] = b[i];
    }
    __syncthreads();
    double rs = block_dot(r, r, red);
    int it = 0;
    while (it < MAX_IT && sqrt(rs) > tol) {
        for (int i = tid; i < N; i += THREADS) {
            double s = 0.0;
            for (int j = 0; j < N; ++j) s += A[i * N + j] * p[j];
            Ap[i] = s;
        }
        __syncthreads();
        const double alpha = rs / block_dot(p, Ap, red);
        for (int i = tid; i < N; i += THREADS) {
            x[i] += alpha * p[i];
            r[i] -= alpha * Ap[i];
        }
        __syncthreads();
        const double rs_new = block_dot(r, r, red);
        const double beta = rs_new / rs;
        for (int i = tid; i < N; i += THREADS) p[i] = r[i] + beta * p[i];
        __syncthreads();
        rs = rs_new;
        ++it;
    }
    for (int i = tid; i < N; i += THREADS) x_out[i] = x[i];
    if (tid == 0) *iterations = it;
}

// Reference: Cholesky solve on the host.
static std::vector<double> cholesky_reference(const std::vector<double>& A,
                                              const std::vector<double>& b) {
    std::vector<double> L(N * N, 0.0), y(N), x(N);
    for (int j = 0; j < N; ++j) {
        double d = A[j * N + j];
        for (int k = 0; k < j; ++k) d -= L[j * N + k] * L[j * N + k];
        L[j * N + j] = sqrt(d);
        for (int i = j + 1; i < N; ++i) {
            double s = A[i * N + j];
            for (int k = 0; k < j; ++k) s -= L[i * N + k] * L[j * N + k];
            L[i * N + j] = s / L[j * N + j];
        }
    }
    for (int i = 0; i < N; ++i) {
        double s = b[i];
        for (int k = 0; k < i; ++k) s -= L[i * N + k] * y[k];
        y[i] = s / L[i * N + i];
    }
    for (int i = N - 1; i >= 0; --i) {
        double s = y[i];
        for (int k = i + 1; k < N; ++k) s -= L[k * N + i] * x[k];
        x[i] = s / L[i * N + i];
    }
    return x;
}

int main() {
    g_seed = 2718u;
    std::vector<double> Mr(N * N), A(N * N), b(N), x(N);
    for (auto& v : Mr) v = next_uniform();
    for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j) {
            double s = (i == j) ? 1.0 : 0.0;
            for (int k = 0; k < N; ++k) s += Mr[i * N + k] * Mr[j * N + k] / N;
            A[i * N + j] = s;
        }
    for (auto& v : b) v = next_uniform();
    double *dA, *db, *dx;
    int* dit;
    CUDA_CHECK(cudaMalloc(&dA, N * N * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&db, N * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&dx, N * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&dit, sizeof(int)));
    CUDA_CHECK(cudaMemcpy(dA, A.data(), N * N * sizeof(double), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(db, b.data(), N * sizeof(double), cudaMemcpyHostToDevice));
    cg_solve<<<1, THREADS>>>(dA, db, dx, dit, 1e-11);
    CUDA_CHECK(cudaGetLastError());
    int iterations = 0;
    CUDA_CHECK(cudaMemcpy(x.data(), dx, N * sizeof(double), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&iterations, dit, sizeof(int), cudaMemcpyDeviceToHost));

    std::vector<double> ref = cholesky_reference(A, b);
    double max_err = 0.0, sum = 0.0;
    for (int i = 0; i < N; ++i) {
        max_err = fmax(max_err, fabs(ref[i] - x[i]));
        sum += x[i];
    }
    printf("cg n %d converged %d\n", N, iterations < MAX_IT ? 1 : 0);
    printf("sum_x %.9e x[0] %.9e x[%d] %.9e\n", sum, x[0], N - 1, x[N - 1]);
    const bool ok = max_err < 1e-8 && iterations < MAX_IT;
    CUDA_CHECK(cudaFree(dA));
    CUDA_CHECK(cudaFree(db));
    CUDA_CHECK(cudaFree(dx));
    CUDA_CHECK(cudaFree(dit));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
