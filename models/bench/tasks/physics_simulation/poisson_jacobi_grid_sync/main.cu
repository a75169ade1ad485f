// Jacobi iterations for the 1D Poisson problem -u'' = f on (0,1) with
// u(0) = u(1) = 0, all in one cooperative launch: the whole grid
// synchronises between sweeps with cooperative_groups::grid_group::sync(),
// and the final residual is reduced with block reductions plus a 64-bit
// atomic on the bit pattern of a non-negative double (atomicMax).
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>
#include <vector>
#include <cstring>
#include <cuda_runtime.h>
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

#define CUDA_CHECK(call)                                                        \
    do {                                                                        \
        cudaError_t err_ = (call);                                              \
        if (err_ != cudaSuccess) {                                              \
            fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_), \
                    __FILE__, __LINE__);                                        \
            exit(2);                                                            \
        }                                                                       \
    } while (0)

#define THREADS 256
static const int kBlocks = 8;
static const int kPoints = 2048;          // interior points
static const int kSweeps = 60;

__host__ __device__ inline double sourceTerm(int i, double h) {
    double x = (i + 1) * h;
    return 1.0 + 20.0 * x * (1.0 - x);
}

__global__ void jacobiCooperative(double* a, double* b, int n, int sweeps, unsigned long long* maxResidualBits) {
    cg::grid_group grid = cg::this_grid();
    __shared__ double blockMax[THREADS];
    double h = 1.0 / (n + 1), h2 = h * h;
    double* cur = a;
    double* nxt = b;
    for (int s = 0; s < sweeps; ++s) {
        for (int i = grid.thread_rank(); i < n; i += grid.size()) {
            double left = i > 0 ? cur[i - 1] : 0.0, right = i < n - 1 ? cur[i + 1] : 0.0;
            nxt[i] = 0.5 * (left + right + h2 * sourceTerm(i, h));
        }
        grid.sync();
        double* t = cur; cur = nxt; nxt = t;
    }
    double local = 0.0;
    for (int i = grid.thread_rank(); i < n; i += grid.size()) {
        double left = i > 0 ? cur[i - 1] : 0.0, right = i < n - 1 ? cur[i + 1] : 0.0;
        double r = fabs(sourceTerm(i, h) - (2.0 * cur[i] - left - right) / h2);
        local = fmax(local, r);
    }
    blockMax[threadIdx.x] = local;
    __syncthreads();
    for (int stride = THREADS / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride) blockMax[threadIdx.x] = fmax(blockMax[threadIdx.x], blockMax[threadIdx.x + stride]);
        __syncthreads();
    }
    // for non-negative doubles the bit pattern orders like the value
    if (threadIdx.x == 0) atomicMax(maxResidualBits, (unsigned long long)__double_as_longlong(blockMax[0]));
}

int main() {
    int device = 0, cooperative = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device));
    if (!cooperative) { fprintf(stderr, "cooperative launch not supported\n"); return 2; }
    double *dA, *dB; unsigned long long* dRes;
    CUDA_CHECK(cudaMalloc(&dA, kPoints * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&dB, kPoints * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&dRes, sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemset(dA, 0, kPoints * sizeof(double)));
    CUDA_CHECK(cudaMemset(dB, 0, kPoints * sizeof(double)));
    CUDA_CHECK(cudaMemset(dRes, 0, sizeof(unsigned long long)));
    int n = kPoints, sweeps = kSweeps;
    void* args[] = {&dA, &dB, &n, &sweeps, &dRes};
    CUDA_CHECK(cudaLaunchCooperativeKernel((void*)jacobiCooperative, dim3(kBlocks), dim3(THREADS), args, 0, 0));
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<double> u(kPoints);
    unsigned long long resBits = 0;
    double* result = (kSweeps % 2 == 0) ? dA : dB;
    CUDA_CHECK(cudaMemcpy(u.data(), result, kPoints * sizeof(double), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&resBits, dRes, sizeof(resBits), cudaMemcpyDeviceToHost));
    double residual;
    memcpy(&residual, &resBits, sizeof(residual));

    std::vector<double> cur(kPoints, 0.0), nxt(kPoints);
    double h = 1.0 / (kPoints + 1), h2 = h * h;
    for (int s = 0; s < kSweeps; ++s) {
        for (int i = 0; i < kPoints; ++i) {
            double left = i > 0 ? cur[i - 1] : 0.0, right = i < kPoints - 1 ? cur[i + 1] : 0.0;
            nxt[i] = 0.5 * (left + right + h2 * sourceTerm(i, h));
        }
        cur.swap(nxt);
    }
    double maxErr = 0.0, sum = 0.0;
    for (int i = 0; i < kPoints; ++i) { maxErr = fmax(maxErr, fabs(u[i] - cur[i])); sum += u[i]; }
    printf("points %d sweeps %d blocks %d\n", kPoints, kSweeps, kBlocks);
    printf("solution sum %.10e u[0] %.10e u[1023] %.10e\n", sum, u[0], u[1023]);
    printf("max residual %.6e\n", residual);
    bool ok = maxErr < 1e-12;
    printf("matches host sweeps: %s\n", ok ? "yes" : "no");
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dA)); CUDA_CHECK(cudaFree(dB)); CUDA_CHECK(cudaFree(dRes));
    return ok ? 0 : 1;
}
