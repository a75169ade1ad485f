// cuSOLVER dense LU: a batch of 6 systems of order 32, each factorised with partial pivoting
// (cusolverDnDgetrf) and solved for A x = b and A^T x = c (cusolverDnDgetrs); the right-hand
// sides are built from known solutions, so each solve is checked, and log10 |det A| comes from
// U's diagonal (independent of the pivot order). A float system is solved the same way, and a
// singular matrix reports its zero pivot through devInfo.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#define CUDA_CHECK(call)                                                          \
    do {                                                                          \
        cudaError_t err_ = (call);                                                \
        if (err_ != cudaSuccess) {                                                \
            fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_), \
                    __FILE__, __LINE__);                                          \
            exit(2);                                                              \
        }                                                                         \
    } while (0)
#define CUSOLVER_CHECK(call)                                                      \
    do {                                                                          \
        cusolverStatus_t s_ = (call);                                             \
        if (s_ != CUSOLVER_STATUS_SUCCESS) {                                      \
            fprintf(stderr, "cuSOLVER error %d at %s:%d\n", (int)s_, __FILE__,    \
                    __LINE__);                                                    \
            exit(2);                                                              \
        }                                                                         \
    } while (0)

static int failures = 0;

// Column-major n x n matrix number `s` of the batch: small integers mixed so pivoting is needed.
template <typename T>
std::vector<T> system_matrix(int n, int s) {
    std::vector<T> a(n * n);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i)
            a[i + j * n] = (T)(((i * 37 + j * 11 + s * 5) % 23) - 11) / 4 + (i == (j + s) % n ? 3 : 0);
    return a;
}

template <typename T>
std::vector<T> times(const std::vector<T>& a, const std::vector<T>& x, int n, bool trans) {
    std::vector<T> b(n, 0);
    for (int i = 0; i < n; ++i)
        for (int k = 0; k < n; ++k) b[i] += (trans ? a[k + i * n] : a[i + k * n]) * x[k];
    return b;
}

int main() {
    const int n = 32, batch = 6;
    cusolverDnHandle_t handle;
    CUSOLVER_CHECK(cusolverDnCreate(&handle));
    double *d_a, *d_b, *d_c, *d_work;
    int *d_ipiv, *d_info;
    CUDA_CHECK(cudaMalloc(&d_a, sizeof(double) * n * n));
    CUDA_CHECK(cudaMalloc(&d_b, sizeof(double) * n));
    CUDA_CHECK(cudaMalloc(&d_c, sizeof(double) * n));
    CUDA_CHECK(cudaMalloc(&d_ipiv, sizeof(int) * n));
    CUDA_CHECK(cudaMalloc(&d_info, sizeof(int)));
    int lwork = 0;
    CUSOLVER_CHECK(cusolverDnDgetrf_bufferSize(handle, n, n, d_a, n, &lwork));
    CUDA_CHECK(cudaMalloc(&d_work, sizeof(double) * lwork));
    std::vector<double> x(n), lu(n * n), got(n);
    for (int i = 0; i < n; ++i) x[i] = 0.25 * (i % 9) - 1.0;
    for (int s = 0; s < batch; ++s) {
        std::vector<double> a = system_matrix<double>(n, s);
        std::vector<double> b = times(a, x, n, false), c = times(a, x, n, true);
        CUDA_CHECK(cudaMemcpy(d_a, a.data(), sizeof(double) * n * n, cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy(d_b, b.data(), sizeof(double) * n, cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy(d_c, c.data(), sizeof(double) * n, cudaMemcpyHostToDevice));
        CUSOLVER_CHECK(cusolverDnDgetrf(handle, n, n, d_a, n, d_work, d_ipiv, d_info));
        int info = -1;
        CUDA_CHECK(cudaMemcpy(&info, d_info, sizeof(int), cudaMemcpyDeviceToHost));
        CUSOLVER_CHECK(cusolverDnDgetrs(handle, CUBLAS_OP_N, n, 1, d_a, n, d_ipiv, d_b, n, d_info));
        CUSOLVER_CHECK(cusolverDnDgetrs(handle, CUBLAS_OP_T, n, 1, d_a, n, d_ipiv, d_c, n, d_info));
        CUDA_CHECK(cudaMemcpy(lu.data(), d_a, sizeof(double) * n * n, cudaMemcpyDeviceToHost));
        double logdet = 0, err_n = 0, err_t = 0;
        for (int i = 0; i < n; ++i) logdet += log10(fabs(lu[i + i * n]));
        CUDA_CHECK(cudaMemcpy(got.data(), d_b, sizeof(double) * n, cudaMemcpyDeviceToHost));
        for (int i = 0; i < n; ++i) err_n = fmax(err_n, fabs(got[i] - x[i]));
        CUDA_CHECK(cudaMemcpy(got.data(), d_c, sizeof(double) * n, cudaMemcpyDeviceToHost));
        for (int i = 0; i < n; ++i) err_t = fmax(err_t, fabs(got[i] - x[i]));
        const bool ok = info == 0 && err_n < 1e-9 && err_t < 1e-9;
        printf("system %d devInfo %d log10|det| %.6f solves within 1e-9: %s\n", s, info, logdet,
               ok ? "yes" : "no");
        failures += !ok;
    }

    // float: the same kind of system, order 32, solved to single precision
    const int m = 32;
    std::vector<float> af = system_matrix<float>(m, 3), xf(m);
    for (int i = 0; i < m; ++i) xf[i] = 0.5f * (i % 5) - 1.0f;
    std::vector<float> bf = times(af, xf, m, false);
    float *d_af, *d_bf, *d_workf;
    int lworkf = 0;
    CUDA_CHECK(cudaMalloc(&d_af, sizeof(float) * m * m));
    CUDA_CHECK(cudaMalloc(&d_bf, sizeof(float) * m));
    CUDA_CHECK(cudaMemcpy(d_af, af.data(), sizeof(float) * m * m, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_bf, bf.data(), sizeof(float) * m, cudaMemcpyHostToDevice));
    CUSOLVER_CHECK(cusolverDnSgetrf_bufferSize(handle, m, m, d_af, m, &lworkf));
    CUDA_CHECK(cudaMalloc(&d_workf, sizeof(float) * lworkf));
    CUSOLVER_CHECK(cusolverDnSgetrf(handle, m, m, d_af, m, d_workf, d_ipiv, d_info));
    CUSOLVER_CHECK(cusolverDnSgetrs(handle, CUBLAS_OP_N, m, 1, d_af, m, d_ipiv, d_bf, m, d_info));
    std::vector<float> gotf(m);
    CUDA_CHECK(cudaMemcpy(gotf.data(), d_bf, sizeof(float) * m, cudaMemcpyDeviceToHost));
    double errf = 0;
    for (int i = 0; i < m; ++i) errf = fmax(errf, fabs(gotf[i] - xf[i]));
    printf("float system solves within 1e-3: %s\n", errf < 1e-3 ? "yes" : "no");
    failures += errf >= 1e-3;

    // singular: column 5 (1-based) is zero, so U(5, 5) is exactly zero
    std::vector<double> sing = system_matrix<double>(8, 1);
    for (int i = 0; i < 8; ++i) sing[i + 4 * 8] = 0;
    CUDA_CHECK(cudaMemcpy(d_a, sing.data(), sizeof(double) * 64, cudaMemcpyHostToDevice));
    CUSOLVER_CHECK(cusolverDnDgetrf(handle, 8, 8, d_a, 8, d_work, d_ipiv, d_info));
    int info = -1;
    CUDA_CHECK(cudaMemcpy(&info, d_info, sizeof(int), cudaMemcpyDeviceToHost));
    printf("singular system devInfo %d\n", info);
    failures += info != 5;

    CUSOLVER_CHECK(cusolverDnDestroy(handle));
    for (void* p : {(void*)d_a, (void*)d_b, (void*)d_c, (void*)d_work, (void*)d_ipiv,
                    (void*)d_info, (void*)d_af, (void*)d_bf, (void*)d_workf})
        CUDA_CHECK(cudaFree(p));
    printf(failures ? "CHECK FAIL\n" : "CHECK PASS\n");
    return failures ? 1 : 0;
}
