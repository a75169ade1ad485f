// Jacobi iteration x_{k+1} = D^-1 (b - (A - D) x_k) for a diagonally dominant sparse system whose CSR
// arrays and vectors live in managed (unified) memory: the host fills them in place, the device runs ten
// sweeps (each also accumulating ||b - A x_k||^2 with a block reduction and a double atomicAdd), and the
// host reads the result back through the same pointers.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>
#include <vector>
#include <utility>
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

constexpr int N = 20000;
constexpr int SWEEPS = 10;

__global__ void jacobi_sweep(int n, const int* rp, const int* ci, const double* v, const double* b, const double* x,
                             double* x_new, double* residual2) {
    __shared__ double partial[256];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    double r2 = 0.0;
    if (i < n) {
        double off = 0.0, diag = 1.0, ax = 0.0;
        for (int k = rp[i]; k < rp[i + 1]; ++k) {
            const double t = v[k] * x[ci[k]];
            ax += t;
            if (ci[k] == i) diag = v[k]; else off += t;
        }
        x_new[i] = (b[i] - off) / diag;
        const double r = b[i] - ax;
        r2 = r * r;
    }
    partial[threadIdx.x] = r2;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(residual2, partial[0]);
}

int main() {
    g_seed = 1911u;
    // Count the nonzeros first, then allocate the CSR arrays in managed memory and fill them in place.
    std::vector<int> len(N);
    int nnz = 0;
    for (int i = 0; i < N; ++i) { len[i] = 3 + (int)(next_u32() % 8u); nnz += len[i]; }
    int *rp, *ci;
    double *v, *b, *x0, *x1, *res;
    CUDA_CHECK(cudaMallocManaged(&rp, (N + 1) * sizeof(int)));
    CUDA_CHECK(cudaMallocManaged(&ci, nnz * sizeof(int)));
    CUDA_CHECK(cudaMallocManaged(&v, nnz * sizeof(double)));
    CUDA_CHECK(cudaMallocManaged(&b, N * sizeof(double)));
    CUDA_CHECK(cudaMallocManaged(&x0, N * sizeof(double)));
    CUDA_CHECK(cudaMallocManaged(&x1, N * sizeof(double)));
    CUDA_CHECK(cudaMallocManaged(&res, SWEEPS * sizeof(double)));
    rp[0] = 0;
    for (int i = 0; i < N; ++i) {
        int at = rp[i];
        double rowsum = 0.0;
        ci[at] = i;  // diagonal first, value set after the off-diagonals
        const int diag_at = at++;
        for (int k = 1; k < len[i]; ++k, ++at) {
            ci[at] = (i + 1 + (int)(next_u32() % (N - 1))) % N;  // never the diagonal (duplicates allowed)
            v[at] = 0.5 * next_uniform();
            rowsum += fabs(v[at]);
        }
        v[diag_at] = rowsum * 1.25 + 0.5;
        rp[i + 1] = at;
        b[i] = next_uniform();
        x0[i] = 0.0;
    }
    for (int s = 0; s < SWEEPS; ++s) res[s] = 0.0;
    double *xa = x0, *xb = x1;
    for (int s = 0; s < SWEEPS; ++s) {
        jacobi_sweep<<<(N + 255) / 256, 256>>>(N, rp, ci, v, b, xa, xb, &res[s]);
        CUDA_CHECK(cudaGetLastError());
        std::swap(xa, xb);
    }
    CUDA_CHECK(cudaDeviceSynchronize());

    // CPU reference with the same sweeps.
    std::vector<double> rx(N, 0.0), nx(N);
    bool ok = true;
    for (int s = 0; s < SWEEPS; ++s) {
        double r2 = 0.0;
        for (int i = 0; i < N; ++i) {
            double off = 0.0, diag = 1.0, ax = 0.0;
            for (int k = rp[i]; k < rp[i + 1]; ++k) {
                const double t = v[k] * rx[ci[k]];
                ax += t;
                if (ci[k] == i) diag = v[k]; else off += t;
            }
            nx[i] = (b[i] - off) / diag;
            r2 += (b[i] - ax) * (b[i] - ax);
        }
        if (fabs(r2 - res[s]) > 1e-10 * r2) ok = false;
        rx.swap(nx);
    }
    double xsum = 0.0, err = 0.0;
    for (int i = 0; i < N; ++i) { xsum += xa[i]; err = fmax(err, fabs(xa[i] - rx[i])); }
    if (err > 1e-12) ok = false;
    printf("unknowns %d nnz %d sweeps %d\n", N, nnz, SWEEPS);
    printf("residual sweep1 %.8e sweep5 %.8e sweep10 %.8e\n", sqrt(res[0]), sqrt(res[4]), sqrt(res[SWEEPS - 1]));
    printf("x_sum %.10e x[0] %.10e x[%d] %.10e\n", xsum, xa[0], N - 1, xa[N - 1]);
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(rp)); CUDA_CHECK(cudaFree(ci)); CUDA_CHECK(cudaFree(v)); CUDA_CHECK(cudaFree(b));
    CUDA_CHECK(cudaFree(x0)); CUDA_CHECK(cudaFree(x1)); CUDA_CHECK(cudaFree(res));
    return ok ? 0 : 1;
}
