// Exercises cass's reference hipSOLVER dense solvers on the emulator; tests/emulator/
// test_emulated_hipsolver.py builds the same matrices with numpy and checks against scipy.linalg.
// Matrices are column-major; entry (i, j) of gen(rows, cols, seed) is ((7i + 13j + 5 seed) % 17 - 8) / 4.
#include <hip/hip_runtime.h>
#include <hipsolver/hipsolver.h>

#include <cstdio>
#include <vector>

#define CHECK(x)                                                  \
    do {                                                          \
        hipsolverStatus_t s_ = (x);                               \
        if (s_ != HIPSOLVER_STATUS_SUCCESS) {                     \
            printf("FAIL %s -> %d\n", #x, (int)s_);               \
            return 1;                                             \
        }                                                         \
    } while (0)

template <typename T>
std::vector<T> gen(int rows, int cols, int seed) {
    std::vector<T> a(rows * cols);
    for (int j = 0; j < cols; ++j)
        for (int i = 0; i < rows; ++i) a[i + j * rows] = T(((7 * i + 13 * j + 5 * seed) % 17 - 8) / 4.0);
    return a;
}

template <typename T>
std::vector<T> spd(int n, int seed) {  // G^T G + n I
    std::vector<T> g = gen<T>(n, n, seed), a(n * n);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            T s = i == j ? T(n) : T(0);
            for (int k = 0; k < n; ++k) s += g[k + i * n] * g[k + j * n];
            a[i + j * n] = s;
        }
    return a;
}

template <typename T>
T* up(const std::vector<T>& h) {
    T* d = nullptr;
    hipMalloc(&d, h.size() * sizeof(T) + 8);
    hipMemcpy(d, h.data(), h.size() * sizeof(T), hipMemcpyHostToDevice);
    return d;
}

template <typename T>
std::vector<T> down(const T* d, size_t n) {
    std::vector<T> h(n);
    hipMemcpy(h.data(), d, n * sizeof(T), hipMemcpyDeviceToHost);
    return h;
}

template <typename T>
void show(const char* name, const T* d, size_t n) {
    printf("%s", name);
    for (T v : down(d, n)) printf(" %.17g", (double)v);
    printf("\n");
}

int* info_slot() {
    int* d;
    hipMalloc(&d, sizeof(int));
    hipMemset(d, 0xff, sizeof(int));
    return d;
}

int lu(hipsolverHandle_t h) {
    const int n = 6, nrhs = 2;
    double* A = up(gen<double>(n, n, 1));
    double* B = up(gen<double>(n, nrhs, 2));
    double* Bt = up(gen<double>(n, nrhs, 2));
    int *ipiv, *info = info_slot(), lwork = 0;
    hipMalloc(&ipiv, n * sizeof(int));
    CHECK(hipsolverDnDgetrf_bufferSize(h, n, n, A, n, &lwork));
    double* work;
    hipMalloc(&work, lwork * sizeof(double));
    CHECK(hipsolverDnDgetrf(h, n, n, A, n, work, ipiv, info));
    show("getrf_lu", A, n * n);
    show("getrf_ipiv", ipiv, n);
    show("getrf_info", info, 1);
    CHECK(hipsolverDnDgetrs(h, HIPSOLVER_OP_N, n, nrhs, A, n, ipiv, B, n, info));
    show("getrs_n", B, n * nrhs);
    CHECK(hipsolverDnDgetrs(h, HIPSOLVER_OP_T, n, nrhs, A, n, ipiv, Bt, n, info));
    show("getrs_t", Bt, n * nrhs);
    // float: a zero third column makes U(3, 3) zero; devInfo 3, the factorisation completes
    std::vector<float> s = gen<float>(5, 5, 3);
    for (int i = 0; i < 5; ++i) s[i + 2 * 5] = 0;
    float* S = up(s);
    CHECK(hipsolverDnSgetrf(h, 5, 5, S, 5, nullptr, ipiv, info));
    show("getrf_singular_info", info, 1);
    // no pivoting when devIpiv is null (a diagonally dominant matrix)
    float* P = up(spd<float>(4, 4));
    CHECK(hipsolverDnSgetrf(h, 4, 4, P, 4, nullptr, nullptr, info));
    show("getrf_nopivot", P, 16);
    printf("getrf_bad_lda %d\n", (int)hipsolverDnDgetrf(h, 6, 6, A, 5, work, ipiv, info));
    return 0;
}

int cholesky(hipsolverHandle_t h) {
    const int n = 5;
    double* L = up(spd<double>(n, 5));
    double* U = up(spd<double>(n, 5));
    double* B = up(gen<double>(n, 3, 6));
    int* info = info_slot();
    CHECK(hipsolverDnDpotrf(h, HIPSOLVER_FILL_MODE_LOWER, n, L, n, nullptr, 0, info));
    show("potrf_lower", L, n * n);
    CHECK(hipsolverDnDpotrf(h, HIPSOLVER_FILL_MODE_UPPER, n, U, n, nullptr, 0, info));
    show("potrf_upper", U, n * n);
    CHECK(hipsolverDnDpotrs(h, HIPSOLVER_FILL_MODE_UPPER, n, 3, U, n, B, n, info));
    show("potrs", B, n * 3);
    show("potrs_info", info, 1);
    float* N = up(gen<float>(4, 4, 7));  // indefinite: its minor of order 1 is -8/4 ... < 0 or later
    CHECK(hipsolverDnSpotrf(h, HIPSOLVER_FILL_MODE_LOWER, 4, N, 4, nullptr, 0, info));
    show("potrf_indefinite_info", info, 1);
    return 0;
}

int qr(hipsolverHandle_t h) {
    const int m = 7, n = 4;
    std::vector<double> a = gen<double>(m, n, 8);
    double *A = up(a), *Q = up(a), *C = up(gen<double>(m, 2, 9)), *R = up(gen<double>(3, m, 10));
    double *tau, *work;
    int* info = info_slot();
    int lwork = 0;
    hipMalloc(&tau, n * sizeof(double));
    CHECK(hipsolverDnDgeqrf_bufferSize(h, m, n, A, m, &lwork));
    hipMalloc(&work, lwork * sizeof(double));
    CHECK(hipsolverDnDgeqrf(h, m, n, A, m, tau, work, lwork, info));
    show("geqrf_a", A, m * n);
    show("geqrf_tau", tau, n);
    CHECK(hipsolverDnDormqr(h, HIPSOLVER_SIDE_LEFT, HIPSOLVER_OP_T, m, 2, n, A, m, tau, C, m, work,
                            lwork, info));
    show("ormqr_left_t", C, m * 2);
    CHECK(hipsolverDnDormqr(h, HIPSOLVER_SIDE_RIGHT, HIPSOLVER_OP_N, 3, m, n, A, m, tau, R, 3,
                            work, lwork, info));
    show("ormqr_right_n", R, 3 * m);
    hipMemcpy(Q, A, m * n * sizeof(double), hipMemcpyDeviceToDevice);
    CHECK(hipsolverDnDorgqr(h, m, n, n, Q, m, tau, work, lwork, info));
    show("orgqr", Q, m * n);
    std::vector<float> fa = gen<float>(6, 3, 11);
    float *F = up(fa), *ftau;
    hipMalloc(&ftau, 3 * sizeof(float));
    CHECK(hipsolverDnSgeqrf(h, 6, 3, F, 6, ftau, nullptr, 0, info));
    show("sgeqrf_a", F, 18);
    return 0;
}

int eigen(hipsolverHandle_t h) {
    const int n = 6;
    double *A = up(spd<double>(n, 12)), *D, *work;
    std::vector<double> g = gen<double>(n, n, 13);
    for (int j = 0; j < n; ++j)  // symmetric indefinite: G + G^T, lower triangle given
        for (int i = 0; i < n; ++i) g[i + j * n] = i >= j ? g[i + j * n] + g[j + i * n] : 99.0;
    double* G = up(g);
    int* info = info_slot();
    int lwork = 0;
    hipMalloc(&D, n * sizeof(double));
    CHECK(hipsolverDnDsyevd_bufferSize(h, HIPSOLVER_EIG_MODE_VECTOR, HIPSOLVER_FILL_MODE_LOWER, n,
                                       G, n, D, &lwork));
    printf("syevd_lwork %d\n", lwork);
    hipMalloc(&work, lwork * sizeof(double));
    CHECK(hipsolverDnDsyevd(h, HIPSOLVER_EIG_MODE_VECTOR, HIPSOLVER_FILL_MODE_LOWER, n, G, n, D,
                            work, lwork, info));
    show("syevd_w", D, n);
    show("syevd_v", G, n * n);
    show("syevd_info", info, 1);
    float *S = up(spd<float>(n, 12)), *SD, *swork;
    hipMalloc(&SD, n * sizeof(float));
    hipMalloc(&swork, lwork * sizeof(float));
    CHECK(hipsolverDnSsyevd(h, HIPSOLVER_EIG_MODE_NOVECTOR, HIPSOLVER_FILL_MODE_UPPER, n, S, n, SD,
                            swork, lwork, info));
    show("ssyevd_w", SD, n);
    (void)A;
    return 0;
}

int main() {
    hipsolverHandle_t h;
    CHECK(hipsolverDnCreate(&h));
    hipStream_t stream;
    hipStreamCreate(&stream);
    CHECK(hipsolverDnSetStream(h, stream));
    if (lu(h) || cholesky(h) || qr(h) || eigen(h)) return 1;
    CHECK(hipsolverDnDestroy(h));
    return 0;
}
