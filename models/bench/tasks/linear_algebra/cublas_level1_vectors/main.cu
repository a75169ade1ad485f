// cuBLAS level 1 on float vectors: SAXPY, SDOT (host and device pointer mode), SNRM2, SASUM,
// ISAMAX, SSCAL with a stride, SCOPY; vectors moved with cublasSetVector/GetVector. The host
// recomputes each result in double and checks it.
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

static uint32_t g_seed = 99u;
inline float next_uniform() {  // uniform in [-1, 1)
    g_seed = g_seed * 1664525u + 1013904223u;
    return (float)(g_seed >> 8) * (2.0f / 16777216.0f) - 1.0f;
}

static int failures = 0;
void check(const char* name, double got, double want, double tol) {
    const bool ok = fabs(got - want) <= tol * fmax(1.0, fabs(want));
    printf("%s %.5e\n", name, got);
    if (!ok) {
        printf("  expected %.8e\n", want);
        ++failures;
    }
}

int main() {
    const int n = 3000;
    std::vector<float> x(n), y(n);
    for (auto& v : x) v = next_uniform();
    for (auto& v : y) v = next_uniform();
    x[1234] = 3.5f;  // a unique largest |x_i| for ISAMAX

    cublasHandle_t h;
    CUBLAS_CHECK(cublasCreate(&h));
    float *dx, *dy, *dz, *dresult;
    CUDA_CHECK(cudaMalloc(&dx, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dy, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dz, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dresult, sizeof(float)));
    CUBLAS_CHECK(cublasSetVector(n, sizeof(float), x.data(), 1, dx, 1));
    CUBLAS_CHECK(cublasSetVector(n, sizeof(float), y.data(), 1, dy, 1));

    const float alpha = -0.75f;
    CUBLAS_CHECK(cublasSaxpy(h, n, &alpha, dx, 1, dy, 1));
    for (int i = 0; i < n; ++i) y[i] += alpha * x[i];  // float, as the GPU computes it

    float dot = 0, nrm = 0, asum = 0;
    int imax = 0;
    CUBLAS_CHECK(cublasSdot(h, n, dx, 1, dy, 1, &dot));
    CUBLAS_CHECK(cublasSnrm2(h, n, dy, 1, &nrm));
    CUBLAS_CHECK(cublasSasum(h, n, dx, 1, &asum));
    CUBLAS_CHECK(cublasIsamax(h, n, dx, 1, &imax));
    double want_dot = 0, want_sq = 0, want_asum = 0;
    for (int i = 0; i < n; ++i) {
        want_dot += (double)x[i] * y[i];
        want_sq += (double)y[i] * y[i];
        want_asum += fabs((double)x[i]);
    }
    check("sdot", dot, want_dot, 1e-4);
    check("snrm2", nrm, sqrt(want_sq), 1e-5);
    check("sasum", asum, want_asum, 1e-5);
    printf("isamax %d\n", imax);
    if (imax != 1235) ++failures;  // 1-based, as BLAS counts

    // every third element scaled; then a strided copy gathers them
    const float scale = 2.0f;
    CUBLAS_CHECK(cublasSscal(h, n / 3, &scale, dx, 3));
    CUBLAS_CHECK(cublasScopy(h, n / 3, dx, 3, dz, 1));
    std::vector<float> z(n / 3);
    CUBLAS_CHECK(cublasGetVector(n / 3, sizeof(float), dz, 1, z.data(), 1));
    double zsum = 0, want_zsum = 0;
    for (int i = 0; i < n / 3; ++i) {
        zsum += z[i];
        want_zsum += 2.0 * x[3 * i];
    }
    check("strided_scal_copy_sum", zsum, want_zsum, 1e-6);

    // device pointer mode: the dot product lands in device memory
    CUBLAS_CHECK(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
    CUBLAS_CHECK(cublasSdot(h, n / 3, dz, 1, dz, 1, dresult));
    CUBLAS_CHECK(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
    float zz = 0;
    CUDA_CHECK(cudaMemcpy(&zz, dresult, sizeof(float), cudaMemcpyDeviceToHost));
    double want_zz = 0;
    for (float v : z) want_zz += (double)v * v;
    check("device_mode_sdot", zz, want_zz, 1e-5);

    CUBLAS_CHECK(cublasDestroy(h));
    for (float* p : {dx, dy, dz, dresult}) CUDA_CHECK(cudaFree(p));
    printf(failures ? "CHECK FAIL\n" : "CHECK PASS\n");
    return failures ? 1 : 0;
}
