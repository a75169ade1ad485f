// Conjugate gradient on a dense symmetric positive-definite system, every vector operation a
// cuBLAS call (DGEMV, DDOT, DAXPY, DSCAL, DCOPY, DNRM2); the host checks the solution.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>
#include <cublas_v2.h>

#define CUDA_CHECK(call)                                                          \
    do {                                                                          \
        cudaError_t err_ = (call);                                                \
        if (err_ != cudaSuccess) {                                                \
            fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_), \
                    __FILE__, __LINE__);                                          \
            exit(2);                                                              \
        }                                                                         \
    } while (0)
#define CUBLAS_CHECK(call)                                                        \
    do {                                                                          \
        cublasStatus_t st_ = (call);                                              \
        if (st_ != CUBLAS_STATUS_SUCCESS) {                                       \
            fprintf(stderr, "cuBLAS error %d at %s:%d\n", (int)st_, __FILE__,     \
                    __LINE__);                                                    \
            exit(2);                                                              \
        }                                                                         \
    } while (0)

static uint32_t g_seed = 4242u;
inline double next_uniform() {  // uniform in [-1, 1)
    g_seed = g_seed * 1664525u + 1013904223u;
    return (double)(g_seed >> 8) * (2.0 / 16777216.0) - 1.0;
}

int main() {
    const int n = 96, iterations = 40;
    // A = M^T M / n + 2 I: symmetric, eigenvalues in [2, ~6], CG converges fast and steadily
    std::vector<double> M(n * n), A(n * n, 0.0), x_true(n), b(n, 0.0);
    for (auto& v : M) v = next_uniform();
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            double s = 0;
            for (int l = 0; l < n; ++l) s += M[l * n + i] * M[l * n + j];
            A[j * n + i] = s / n + (i == j ? 2.0 : 0.0);
        }
    for (auto& v : x_true) v = next_uniform();
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) b[i] += A[j * n + i] * x_true[j];

    cublasHandle_t h;
    CUBLAS_CHECK(cublasCreate(&h));
    double *dA, *db, *dx, *dr, *dp, *dq;
    CUDA_CHECK(cudaMalloc(&dA, n * n * sizeof(double)));
    for (double** v : {&db, &dx, &dr, &dp, &dq}) CUDA_CHECK(cudaMalloc(v, n * sizeof(double)));
    CUBLAS_CHECK(cublasSetMatrix(n, n, sizeof(double), A.data(), n, dA, n));
    CUBLAS_CHECK(cublasSetVector(n, sizeof(double), b.data(), 1, db, 1));
    CUDA_CHECK(cudaMemset(dx, 0, n * sizeof(double)));

    const double one = 1.0, zero = 0.0;
    CUBLAS_CHECK(cublasDcopy(h, n, db, 1, dr, 1));  // r = b - A*0
    CUBLAS_CHECK(cublasDcopy(h, n, dr, 1, dp, 1));
    double rr = 0, bnorm = 0;
    CUBLAS_CHECK(cublasDdot(h, n, dr, 1, dr, 1, &rr));
    CUBLAS_CHECK(cublasDnrm2(h, n, db, 1, &bnorm));
    for (int it = 0; it < iterations && rr > 0; ++it) {
        CUBLAS_CHECK(cublasDgemv(h, CUBLAS_OP_N, n, n, &one, dA, n, dp, 1, &zero, dq, 1));
        double pq = 0;
        CUBLAS_CHECK(cublasDdot(h, n, dp, 1, dq, 1, &pq));
        const double alpha = rr / pq, minus_alpha = -alpha;
        CUBLAS_CHECK(cublasDaxpy(h, n, &alpha, dp, 1, dx, 1));
        CUBLAS_CHECK(cublasDaxpy(h, n, &minus_alpha, dq, 1, dr, 1));
        double rr_new = 0;
        CUBLAS_CHECK(cublasDdot(h, n, dr, 1, dr, 1, &rr_new));
        const double beta = rr_new / rr;
        CUBLAS_CHECK(cublasDscal(h, n, &beta, dp, 1));  // p = r + beta p
        CUBLAS_CHECK(cublasDaxpy(h, n, &one, dr, 1, dp, 1));
        rr = rr_new;
        if (it == 4) printf("iteration %d relative residual %.3e\n", it + 1, sqrt(rr) / bnorm);
    }
    std::vector<double> x(n);
    CUBLAS_CHECK(cublasGetVector(n, sizeof(double), dx, 1, x.data(), 1));
    double err = 0, norm = 0, checksum = 0;
    for (int i = 0; i < n; ++i) {
        err += (x[i] - x_true[i]) * (x[i] - x_true[i]);
        norm += x_true[i] * x_true[i];
        checksum += x[i] * (i % 5 + 1);
    }
    const double rel = sqrt(err / norm);
    printf("n %d iterations %d\n", n, iterations);
    printf("solution checksum %.9e\n", checksum);
    printf("relative error below 1e-10: %s\n", rel < 1e-10 ? "yes" : "no");
    CUBLAS_CHECK(cublasDestroy(h));
    for (double* p : {dA, db, dx, dr, dp, dq}) CUDA_CHECK(cudaFree(p));
    const bool ok = rel < 1e-10;
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
