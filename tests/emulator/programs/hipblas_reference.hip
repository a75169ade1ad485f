// Exercises cass's reference hipBLAS on the emulator; tests/emulator/test_emulated_hipblas.py
// computes the same with numpy. Inputs are multiples of 1/8 (exact in f16/f32/f64), so every
// result but nrm2 is exact. Each result prints as `name v0 v1 ...` (%.17g).
#include <hip/hip_runtime.h>
#include <hipblas.h>

#include <cstdio>
#include <vector>

#define CHECK(x)                                                                   \
    do {                                                                           \
        hipblasStatus_t s_ = (x);                                                  \
        if (s_ != HIPBLAS_STATUS_SUCCESS) {                                        \
            printf("FAIL %s -> %s\n", #x, hipblasStatusToString(s_));             \
            return 1;                                                              \
        }                                                                          \
    } while (0)

template <typename T>
std::vector<T> values(int n, int seed) {
    std::vector<T> v(n);
    for (int i = 0; i < n; ++i) v[i] = T(((i * 37 + seed * 11) % 19) - 9) / T(8);
    return v;
}

template <typename T>
T* upload(const std::vector<T>& v) {
    T* d = nullptr;
    hipMalloc(&d, v.size() * sizeof(T));
    hipblasSetVector(static_cast<int>(v.size()), sizeof(T), v.data(), 1, d, 1);
    return d;
}

template <typename T>
void show(const char* name, const T* d, int n) {
    std::vector<T> h(n);
    hipblasGetVector(n, sizeof(T), d, 1, h.data(), 1);
    printf("%s", name);
    for (T x : h) printf(" %.17g", static_cast<double>(x));
    printf("\n");
}

template <typename T, typename Api>
int run(const char* p, Api api, hipblasHandle_t h) {
    char name[64];
    const int n = 37, m = 5, k = 7, c = 6, batch = 3;
    T alpha = T(1.5), beta = T(-0.5), zero = T(0), r = 0;
    T* x = upload(values<T>(n, 1));
    T* y = upload(values<T>(n, 2));
    CHECK(api.axpy(h, n, &alpha, x, 1, y, 1));
    snprintf(name, 64, "%saxpy", p); show(name, y, n);
    CHECK(api.dot(h, n, x, 1, y, 1, &r));
    printf("%sdot %.17g\n", p, static_cast<double>(r));
    CHECK(api.nrm2(h, n, x, 1, &r));
    printf("%snrm2 %.17g\n", p, static_cast<double>(r));
    CHECK(api.asum(h, n, x, 1, &r));
    printf("%sasum %.17g\n", p, static_cast<double>(r));
    int at = 0;
    CHECK(api.iamax(h, n, x, 1, &at));
    printf("%samax %d\n", p, at);
    CHECK(api.scal(h, 12, &alpha, x, 3));  // strided: every third element of the first 36
    snprintf(name, 64, "%sscal", p); show(name, x, n);
    T* A = upload(values<T>(m * k * batch, 3));  // m x k, lda m (or k x m for T)
    T* B = upload(values<T>(k * c * batch, 4));
    T* C = upload(values<T>(m * c * batch, 5));
    CHECK(api.gemv(h, HIPBLAS_OP_N, m, k, &alpha, A, m, x, 1, &beta, y, 1));
    snprintf(name, 64, "%sgemvN", p); show(name, y, m);
    CHECK(api.gemv(h, HIPBLAS_OP_T, m, k, &alpha, A, m, x, 2, &beta, y, 1));
    snprintf(name, 64, "%sgemvT", p); show(name, y, k);
    CHECK(api.gemm(h, HIPBLAS_OP_N, HIPBLAS_OP_N, m, c, k, &alpha, A, m, B, k, &beta, C, m));
    snprintf(name, 64, "%sgemmNN", p); show(name, C, m * c);
    CHECK(api.gemm(h, HIPBLAS_OP_T, HIPBLAS_OP_T, m, c, k, &alpha, A, k, B, c, &zero, C, m));
    snprintf(name, 64, "%sgemmTT", p); show(name, C, m * c);
    CHECK(api.strided(h, HIPBLAS_OP_N, HIPBLAS_OP_T, m, c, k, &alpha, A, m, m * k, B, c, k * c,
                      &beta, C, m, m * c, batch));
    snprintf(name, 64, "%sgemmStridedBatched", p); show(name, C, m * c * batch);
    return 0;
}

#define API(P, p, T)                                                                          \
    struct Api##P {                                                                        \
        decltype(&hipblas##P##axpy) axpy = hipblas##P##axpy;                               \
        decltype(&hipblas##P##dot) dot = hipblas##P##dot;                                  \
        decltype(&hipblas##P##nrm2) nrm2 = hipblas##P##nrm2;                               \
        decltype(&hipblas##P##asum) asum = hipblas##P##asum;                               \
        decltype(&hipblasI##p##amax) iamax = hipblasI##p##amax;                            \
        decltype(&hipblas##P##scal) scal = hipblas##P##scal;                               \
        decltype(&hipblas##P##gemv) gemv = hipblas##P##gemv;                               \
        decltype(&hipblas##P##gemm) gemm = hipblas##P##gemm;                               \
        decltype(&hipblas##P##gemmStridedBatched) strided = hipblas##P##gemmStridedBatched; \
    };
API(S, s, float)
API(D, d, double)

int main() {
    hipblasHandle_t h;
    CHECK(hipblasCreate(&h));
    if (run<float>("s", ApiS{}, h) || run<double>("d", ApiD{}, h)) return 1;
    // GemmEx: f16 inputs and output, f32 compute; and f64 throughout
    const int m = 4, n = 3, k = 5;
    std::vector<_Float16> a16(m * k), b16(k * n), c16(m * n, _Float16(0));
    std::vector<float> a = values<float>(m * k, 6), b = values<float>(k * n, 7);
    for (int i = 0; i < m * k; ++i) a16[i] = _Float16(a[i]);
    for (int i = 0; i < k * n; ++i) b16[i] = _Float16(b[i]);
    _Float16 *dA = upload(a16), *dB = upload(b16), *dC = upload(c16);
    float alpha = 2, beta = 0;
    CHECK(hipblasGemmEx(h, HIPBLAS_OP_N, HIPBLAS_OP_N, m, n, k, &alpha, dA, HIPBLAS_R_16F, m, dB,
                        HIPBLAS_R_16F, k, &beta, dC, HIPBLAS_R_16F, m, HIPBLAS_R_32F,
                        HIPBLAS_GEMM_DEFAULT));
    std::vector<_Float16> out(m * n);
    hipblasGetVector(m * n, 2, dC, 1, out.data(), 1);
    printf("gemmEx16");
    for (auto v : out) printf(" %.17g", static_cast<double>(static_cast<float>(v)));
    printf("\n");
    // device pointer mode: alpha and the dot result live in device memory
    float *dx = upload(a), *dalpha = upload(std::vector<float>{0.5f}), *dres = upload(std::vector<float>{0});
    CHECK(hipblasSetPointerMode(h, HIPBLAS_POINTER_MODE_DEVICE));
    CHECK(hipblasSscal(h, m * k, dalpha, dx, 1));
    CHECK(hipblasSdot(h, m * k, dx, 1, dx, 1, dres));
    show("devicedot", dres, 1);
    printf("status %s\n", hipblasStatusToString(hipblasSgemm(h, HIPBLAS_OP_N, HIPBLAS_OP_N, -1, 1,
                                                              1, dalpha, dx, 1, dx, 1, dalpha, dx, 1)));
    CHECK(hipblasDestroy(h));
    return 0;
}
