// Quasi-Monte Carlo integration of exp(-|x|^2) over the 5-dimensional unit
// cube with a Halton sequence (prime bases in constant memory), in double
// precision. Blocks reduce in shared memory; a second single-block kernel
// reduces the block sums so the device produces the final estimate.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                        \
    do {                                                                        \
        cudaError_t err_ = (call);                                              \
        if (err_ != cudaSuccess) {                                              \
            fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_), \
                    __FILE__, __LINE__);                                        \
            exit(2);                                                            \
        }                                                                       \
    } while (0)

#define DIMS 5
#define THREADS 256
static const int kPoints = 1 << 13;
static const int kPointsPerThread = 4;
static const int kBlocks = kPoints / (THREADS * kPointsPerThread);
__constant__ int cBases[DIMS];
static const int hBases[DIMS] = {2, 3, 5, 7, 11};

__host__ __device__ inline double radicalInverse(uint32_t index, int base) {
    double inv = 1.0 / base, f = inv, r = 0.0;
    while (index > 0) {
        r += f * (double)(index % base);
        index /= base;
        f *= inv;
    }
    return r;
}

__host__ __device__ inline double integrand(uint32_t index, const int* bases) {
    double r2 = 0.0;
    for (int d = 0; d < DIMS; ++d) {
        double x = radicalInverse(index, bases[d]);
        r2 += x * x;
    }
    return exp(-r2);
}

__global__ void sampleBlocks(double* blockSums) {
    __shared__ double part[THREADS];
    uint32_t first = (blockIdx.x * THREADS + threadIdx.x) * kPointsPerThread + 1;   // skip index 0
    double acc = 0.0;
    for (int k = 0; k < kPointsPerThread; ++k) acc += integrand(first + k, cBases);
    part[threadIdx.x] = acc;
    __syncthreads();
    for (int stride = THREADS / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride) part[threadIdx.x] += part[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) blockSums[blockIdx.x] = part[0];
}

__global__ void finalReduce(const double* blockSums, int count, double* result) {
    __shared__ double part[THREADS];
    double acc = 0.0;
    for (int i = threadIdx.x; i < count; i += THREADS) acc += blockSums[i];
    part[threadIdx.x] = acc;
    __syncthreads();
    for (int stride = THREADS / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride) part[threadIdx.x] += part[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) *result = part[0] / (double)kPoints;
}

int main() {
    CUDA_CHECK(cudaMemcpyToSymbol(cBases, hBases, sizeof(hBases)));
    double *dBlockSums, *dResult;
    CUDA_CHECK(cudaMalloc(&dBlockSums, kBlocks * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&dResult, sizeof(double)));
    sampleBlocks<<<kBlocks, THREADS>>>(dBlockSums);
    CUDA_CHECK(cudaGetLastError());
    finalReduce<<<1, THREADS>>>(dBlockSums, kBlocks, dResult);
    CUDA_CHECK(cudaGetLastError());
    double estimate = 0.0;
    CUDA_CHECK(cudaMemcpy(&estimate, dResult, sizeof(double), cudaMemcpyDeviceToHost));

    double ref = 0.0;
    for (uint32_t i = 1; i <= (uint32_t)kPoints; ++i) ref += integrand(i, hBases);
    ref /= kPoints;
    double oneDim = 0.5 * sqrt(M_PI) * erf(1.0);
    double exact = pow(oneDim, DIMS);
    printf("points %d dimensions %d\n", kPoints, DIMS);
    printf("qmc estimate %.10e\n", estimate);
    printf("exact value  %.10e\n", exact);
    printf("relative error %.2e\n", fabs(estimate - exact) / exact);
    bool ok = fabs(estimate - ref) < 1e-10 * ref && fabs(estimate - exact) < 5e-3 * exact;
    printf("matches host sum: %s\n", fabs(estimate - ref) < 1e-10 * ref ? "yes" : "no");
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dBlockSums)); CUDA_CHECK(cudaFree(dResult));
    return ok ? 0 : 1;
}
