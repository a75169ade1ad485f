// cuSOLVER dense factorisations with known answers:
// 1) Cholesky (cusolverDnDpotrf/potrs, lower; cusolverDnSpotrf/potrs, upper) of G^T G + n I,
//    solved for right-hand sides built from known solutions; an indefinite matrix's devInfo;
// 2) least squares by QR (geqrf, ormqr with Q^T, back substitution on the host): a cubic fitted to
//    40 samples; orgqr's Q has orthonormal columns;
// 3) syevd: the eigenvalues of the 1-D Laplacian tridiag(-1, 2, -1) are 2 - 2 cos(k pi / (n + 1)),
//    and each eigenvector satisfies A v = lambda v.
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
static const double kPi = 3.14159265358979323846;

template <typename T>
T* to_device(const std::vector<T>& h) {
    T* d;
    CUDA_CHECK(cudaMalloc(&d, sizeof(T) * h.size()));
    CUDA_CHECK(cudaMemcpy(d, h.data(), sizeof(T) * h.size(), cudaMemcpyHostToDevice));
    return d;
}

template <typename T>
std::vector<T> to_host(const T* d, size_t n) {
    std::vector<T> h(n);
    CUDA_CHECK(cudaMemcpy(h.data(), d, sizeof(T) * n, cudaMemcpyDeviceToHost));
    return h;
}

int device_info(const int* d_info) { return to_host(d_info, 1)[0]; }

// G^T G + n I for G(i, j) = ((5i + 3j) % 11 - 5) / 4, column-major
template <typename T>
std::vector<T> spd(int n) {
    std::vector<T> a(n * n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            double s = i == j ? n : 0;
            for (int k = 0; k < n; ++k) s += (((5 * k + 3 * i) % 11) - 5) / 4.0 * ((((5 * k + 3 * j) % 11) - 5) / 4.0);
            a[i + j * n] = (T)s;
        }
    return a;
}

void cholesky(cusolverDnHandle_t h, int* d_info) {
    const int n = 24, nrhs = 2;
    std::vector<double> a = spd<double>(n), x(n * nrhs), b(n * nrhs, 0);
    for (int i = 0; i < n * nrhs; ++i) x[i] = 0.125 * (i % 13) - 0.75;
    for (int c = 0; c < nrhs; ++c)
        for (int i = 0; i < n; ++i)
            for (int k = 0; k < n; ++k) b[i + c * n] += a[i + k * n] * x[k + c * n];
    double *d_a = to_device(a), *d_b = to_device(b), *d_work;
    int lwork = 0;
    CUSOLVER_CHECK(cusolverDnDpotrf_bufferSize(h, CUBLAS_FILL_MODE_LOWER, n, d_a, n, &lwork));
    CUDA_CHECK(cudaMalloc(&d_work, sizeof(double) * lwork));
    CUSOLVER_CHECK(cusolverDnDpotrf(h, CUBLAS_FILL_MODE_LOWER, n, d_a, n, d_work, lwork, d_info));
    const int info = device_info(d_info);
    CUSOLVER_CHECK(cusolverDnDpotrs(h, CUBLAS_FILL_MODE_LOWER, n, nrhs, d_a, n, d_b, n, d_info));
    std::vector<double> l = to_host(d_a, n * n), got = to_host(d_b, n * nrhs);
    double logdet = 0, err = 0;
    for (int i = 0; i < n; ++i) logdet += 2 * log10(l[i + i * n]);
    for (int i = 0; i < n * nrhs; ++i) err = fmax(err, fabs(got[i] - x[i]));
    printf("cholesky double devInfo %d log10 det %.6f L(0,0) %.6f solves within 1e-12: %s\n", info,
           logdet, l[0], err < 1e-12 ? "yes" : "no");
    failures += info != 0 || err >= 1e-12;

    // float, upper triangle: A = U^T U
    const int m = 16;
    std::vector<float> af = spd<float>(m), xf(m), bf(m, 0);
    for (int i = 0; i < m; ++i) xf[i] = 0.5f * (i % 7) - 1.5f;
    for (int i = 0; i < m; ++i)
        for (int k = 0; k < m; ++k) bf[i] += af[i + k * m] * xf[k];
    float *d_af = to_device(af), *d_bf = to_device(bf), *d_workf;
    int lworkf = 0;
    CUSOLVER_CHECK(cusolverDnSpotrf_bufferSize(h, CUBLAS_FILL_MODE_UPPER, m, d_af, m, &lworkf));
    CUDA_CHECK(cudaMalloc(&d_workf, sizeof(float) * lworkf));
    CUSOLVER_CHECK(cusolverDnSpotrf(h, CUBLAS_FILL_MODE_UPPER, m, d_af, m, d_workf, lworkf, d_info));
    CUSOLVER_CHECK(cusolverDnSpotrs(h, CUBLAS_FILL_MODE_UPPER, m, 1, d_af, m, d_bf, m, d_info));
    std::vector<float> gotf = to_host(d_bf, m);
    double errf = 0;
    for (int i = 0; i < m; ++i) errf = fmax(errf, fabs(gotf[i] - xf[i]));
    printf("cholesky float upper solves within 1e-4: %s\n", errf < 1e-4 ? "yes" : "no");
    failures += errf >= 1e-4;

    // indefinite: the identity with A(3, 3) = -1 fails at the minor of order 3
    std::vector<double> ind(36, 0.0);
    for (int i = 0; i < 6; ++i) ind[i + i * 6] = i == 2 ? -1.0 : 1.0;
    CUDA_CHECK(cudaMemcpy(d_a, ind.data(), sizeof(double) * 36, cudaMemcpyHostToDevice));
    CUSOLVER_CHECK(cusolverDnDpotrf(h, CUBLAS_FILL_MODE_LOWER, 6, d_a, 6, d_work, lwork, d_info));
    printf("indefinite devInfo %d\n", device_info(d_info));
    failures += device_info(d_info) != 3;
    for (void* p : {(void*)d_a, (void*)d_b, (void*)d_work, (void*)d_af, (void*)d_bf, (void*)d_workf})
        CUDA_CHECK(cudaFree(p));
}

void least_squares(cusolverDnHandle_t h, int* d_info) {
    const int m = 40, n = 4;
    const double coef[n] = {1.0, -2.0, 0.5, 0.25};
    std::vector<double> a(m * n), y(m);
    for (int i = 0; i < m; ++i) {
        const double t = -1.0 + 2.0 * i / (m - 1);
        double p = 1;
        y[i] = 0.01 * ((i * 7) % 5 - 2);  // deterministic "noise"
        for (int j = 0; j < n; ++j, p *= t) {
            a[i + j * m] = p;
            y[i] += coef[j] * p;
        }
    }
    double *d_a = to_device(a), *d_y = to_device(y), *d_tau, *d_work;
    CUDA_CHECK(cudaMalloc(&d_tau, sizeof(double) * n));
    int lwork_qr = 0, lwork_mq = 0, lwork_gq = 0;
    CUSOLVER_CHECK(cusolverDnDgeqrf_bufferSize(h, m, n, d_a, m, &lwork_qr));
    CUSOLVER_CHECK(cusolverDnDormqr_bufferSize(h, CUBLAS_SIDE_LEFT, CUBLAS_OP_T, m, 1, n, d_a, m,
                                               d_tau, d_y, m, &lwork_mq));
    CUSOLVER_CHECK(cusolverDnDorgqr_bufferSize(h, m, n, n, d_a, m, d_tau, &lwork_gq));
    const int lwork = lwork_qr > lwork_mq ? (lwork_qr > lwork_gq ? lwork_qr : lwork_gq)
                                          : (lwork_mq > lwork_gq ? lwork_mq : lwork_gq);
    CUDA_CHECK(cudaMalloc(&d_work, sizeof(double) * lwork));
    CUSOLVER_CHECK(cusolverDnDgeqrf(h, m, n, d_a, m, d_tau, d_work, lwork, d_info));
    const int info = device_info(d_info);
    CUSOLVER_CHECK(cusolverDnDormqr(h, CUBLAS_SIDE_LEFT, CUBLAS_OP_T, m, 1, n, d_a, m, d_tau, d_y, m,
                                    d_work, lwork, d_info));
    std::vector<double> qr = to_host(d_a, m * n), qty = to_host(d_y, m), x(n);
    for (int i = n - 1; i >= 0; --i) {  // R x = (Q^T y)[0:n]
        double s = qty[i];
        for (int j = i + 1; j < n; ++j) s -= qr[i + j * m] * x[j];
        x[i] = s / qr[i + i * m];
    }
    double residual = 0;  // the part of y outside the column space
    for (int i = n; i < m; ++i) residual += qty[i] * qty[i];
    printf("least squares devInfo %d coefficients %.6f %.6f %.6f %.6f residual %.6f |R(0,0)| %.6f\n",
           info, x[0], x[1], x[2], x[3], sqrt(residual), fabs(qr[0]));
    for (int j = 0; j < n; ++j) failures += fabs(x[j] - coef[j]) > 0.05;
    CUSOLVER_CHECK(cusolverDnDorgqr(h, m, n, n, d_a, m, d_tau, d_work, lwork, d_info));
    std::vector<double> q = to_host(d_a, m * n);
    double worst = 0;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            double s = 0;
            for (int k = 0; k < m; ++k) s += q[k + i * m] * q[k + j * m];
            worst = fmax(worst, fabs(s - (i == j)));
        }
    printf("orgqr Q^T Q = I within 1e-12: %s\n", worst < 1e-12 ? "yes" : "no");
    failures += worst >= 1e-12;
    for (void* p : {(void*)d_a, (void*)d_y, (void*)d_tau, (void*)d_work}) CUDA_CHECK(cudaFree(p));
}

void eigenvalues(cusolverDnHandle_t h, int* d_info) {
    const int n = 16;
    std::vector<double> a(n * n, 0.0);
    for (int i = 0; i < n; ++i) {
        a[i + i * n] = 2;
        if (i + 1 < n) a[i + 1 + i * n] = a[i + (i + 1) * n] = -1;
    }
    double *d_a = to_device(a), *d_w, *d_work;
    CUDA_CHECK(cudaMalloc(&d_w, sizeof(double) * n));
    int lwork = 0;
    CUSOLVER_CHECK(cusolverDnDsyevd_bufferSize(h, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, n,
                                               d_a, n, d_w, &lwork));
    CUDA_CHECK(cudaMalloc(&d_work, sizeof(double) * lwork));
    CUSOLVER_CHECK(cusolverDnDsyevd(h, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, n, d_a, n,
                                    d_w, d_work, lwork, d_info));
    std::vector<double> w = to_host(d_w, n), v = to_host(d_a, n * n);
    double worst_value = 0, worst_vector = 0;
    printf("syevd devInfo %d eigenvalues", device_info(d_info));
    for (int k = 0; k < n; ++k) {
        printf(" %.6f", w[k]);
        worst_value = fmax(worst_value, fabs(w[k] - (2 - 2 * cos((k + 1) * kPi / (n + 1)))));
        for (int i = 0; i < n; ++i) {
            double av = 0;
            for (int j = 0; j < n; ++j) av += a[i + j * n] * v[j + k * n];
            worst_vector = fmax(worst_vector, fabs(av - w[k] * v[i + k * n]));
        }
    }
    printf("\nsyevd eigenvalues within 1e-12: %s, A v = lambda v within 1e-12: %s\n",
           worst_value < 1e-12 ? "yes" : "no", worst_vector < 1e-12 ? "yes" : "no");
    failures += device_info(d_info) != 0 || worst_value >= 1e-12 || worst_vector >= 1e-12;
    // float, upper triangle, eigenvalues only
    std::vector<float> af(a.begin(), a.end());
    float *d_af = to_device(af), *d_wf, *d_workf;
    CUDA_CHECK(cudaMalloc(&d_wf, sizeof(float) * n));
    int lworkf = 0;
    CUSOLVER_CHECK(cusolverDnSsyevd_bufferSize(h, CUSOLVER_EIG_MODE_NOVECTOR, CUBLAS_FILL_MODE_UPPER,
                                               n, d_af, n, d_wf, &lworkf));
    CUDA_CHECK(cudaMalloc(&d_workf, sizeof(float) * lworkf));
    CUSOLVER_CHECK(cusolverDnSsyevd(h, CUSOLVER_EIG_MODE_NOVECTOR, CUBLAS_FILL_MODE_UPPER, n, d_af,
                                    n, d_wf, d_workf, lworkf, d_info));
    std::vector<float> wf = to_host(d_wf, n);
    double worst_f = 0;
    for (int k = 0; k < n; ++k) worst_f = fmax(worst_f, fabs(wf[k] - w[k]));
    printf("syevd float eigenvalues within 1e-4: %s\n", worst_f < 1e-4 ? "yes" : "no");
    failures += worst_f >= 1e-4;
    for (void* p : {(void*)d_a, (void*)d_w, (void*)d_work, (void*)d_af, (void*)d_wf, (void*)d_workf})
        CUDA_CHECK(cudaFree(p));
}

int main() {
    cusolverDnHandle_t handle;
    CUSOLVER_CHECK(cusolverDnCreate(&handle));
    int* d_info;
    CUDA_CHECK(cudaMalloc(&d_info, sizeof(int)));
    cholesky(handle, d_info);
    least_squares(handle, d_info);
    eigenvalues(handle, d_info);
    CUSOLVER_CHECK(cusolverDnDestroy(handle));
    CUDA_CHECK(cudaFree(d_info));
    printf(failures ? "CHECK FAIL\n" : "CHECK PASS\n");
    return failures ? 1 : 0;
}
