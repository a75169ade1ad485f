// Batched 6x6 Cholesky factorisation and solve, one thread per system, shared host/device code.
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

constexpr int D = 6;

struct Spd6 {
    double a[D * D];
};
struct Vec6 {
    double v[D];
};

// Shared by host reference and device kernel: factor A = L L^T in place, then solve.
__host__ __device__ inline bool cholesky_solve(const Spd6& A, const Vec6& b, Vec6& x) {
    double L[D * D];
    for (int i = 0; i < D * D; ++i) L[i] = 0.0;
    for (int j = 0; j < D; ++j) {
        double diag = A.a[j * D + j];
        for (int k = 0; k < j; ++k) diag -= L[j * D + k] * L[j * D + k];
        if (diag <= 0.0) return false;
        const double ljj = sqrt(diag);
        L[j * D + j] = ljj;
        for (int i = j + 1; i < D; ++i) {
            double s = A.a[i * D + j];
            for (int k = 0; k < j; ++k) s -= L[i * D + k] * L[j * D + k];
            L[i * D + j] = s / ljj;
        }
    }
    double y[D];
    for (int i = 0; i < D; ++i) {
        double s = b.v[i];
        for (int k = 0; k < i; ++k) s -= L[i * D + k] * y[k];
        y[i] = s / L[i * D + i];
    }
    for (int i = D - 1; i >= 0; --i) {
        double s = y[i];
        for (int k = i + 1; k < D; ++k) s -= L[k * D + i] * x.v[k];
        x.v[i] = s / L[i * D + i];
    }
    return true;
}

__global__ void batched_cholesky(int batch, const Spd6* A, const Vec6* b, Vec6* x, int* failures) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= batch) return;
    Vec6 out;
    if (!cholesky_solve(A[i], b[i], out)) {
        atomicAdd(failures, 1);
        for (int k = 0; k < D; ++k) out.v[k] = 0.0;
    }
    x[i] = out;
}

int main() {
    g_seed = 99u;
    const int batch = 2048;
    std::vector<Spd6> hA(batch);
    std::vector<Vec6> hb(batch), hx(batch);
    for (int m = 0; m < batch; ++m) {
        double B[D * D];
        for (double& v : B) v = next_uniform();
        for (int i = 0; i < D; ++i)
            for (int j = 0; j < D; ++j) {
                double s = (i == j) ? 0.5 : 0.0;
                for (int k = 0; k < D; ++k) s += B[i * D + k] * B[j * D + k];
                hA[m].a[i * D + j] = s;
            }
        for (int i = 0; i < D; ++i) hb[m].v[i] = next_uniform();
    }
    Spd6* dA;
    Vec6 *db, *dx;
    int* dfail;
    CUDA_CHECK(cudaMalloc(&dA, batch * sizeof(Spd6)));
    CUDA_CHECK(cudaMalloc(&db, batch * sizeof(Vec6)));
    CUDA_CHECK(cudaMalloc(&dx, batch * sizeof(Vec6)));
    CUDA_CHECK(cudaMalloc(&dfail, sizeof(int)));
    CUDA_CHECK(cudaMemset(dfail, 0, sizeof(int)));
    CUDA_CHECK(cudaMemcpy(dA, hA.data(), batch * sizeof(Spd6), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(db, hb.data(), batch * sizeof(Vec6), cudaMemcpyHostToDevice));
    batched_cholesky<<<(batch + 127) / 128, 128>>>(batch, dA, db, dx, dfail);
    CUDA_CHECK(cudaGetLastError());
    int failures = -1;
    CUDA_CHECK(cudaMemcpy(hx.data(), dx, batch * sizeof(Vec6), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&failures, dfail, sizeof(int), cudaMemcpyDeviceToHost));

    double max_err = 0.0, sum_abs = 0.0;
    int ref_failures = 0;
    for (int m = 0; m < batch; ++m) {
        Vec6 r;
        if (!cholesky_solve(hA[m], hb[m], r)) {
            ++ref_failures;
            continue;
        }
        for (int i = 0; i < D; ++i) {
            max_err = fmax(max_err, fabs(r.v[i] - hx[m].v[i]) / (1.0 + fabs(r.v[i])));
            sum_abs += fabs(hx[m].v[i]);
        }
    }
    printf("batched cholesky batch %d dim %d failures %d\n", batch, D, failures);
    printf("sum_abs_x %.10e\n", sum_abs);
    printf("x[0][0] %.10e x[%d][%d] %.10e\n", hx[0].v[0], batch - 1, D - 1, hx[batch - 1].v[D - 1]);
    const bool ok = max_err < 1e-8 && failures == ref_failures;
    CUDA_CHECK(cudaFree(dA));
    CUDA_CHECK(cudaFree(db));
    CUDA_CHECK(cudaFree(dx));
    CUDA_CHECK(cudaFree(dfail));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
