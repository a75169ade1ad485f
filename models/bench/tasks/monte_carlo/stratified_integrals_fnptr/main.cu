// Stratified Monte Carlo integration of four functions on [0, 1]. The
// integrand is chosen per grid row (blockIdx.y) from a table of device
// function pointers; each thread draws one jittered sample in each of its 16
// strata from a counter-based hash. Blocks reduce in shared memory and the
// host adds the block sums in a fixed order.
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

#define THREADS 256
#define FUNCS 4
static const int kBlocksPerFunc = 16;
static const int kStrataPerThread = 16;
static const int kSamples = kBlocksPerFunc * THREADS * kStrataPerThread;   // per function

typedef float (*Integrand)(float);
__host__ __device__ float fSquare(float x) { return x * x; }
__host__ __device__ float fSine(float x) { return sinf(3.14159265f * x); }
__host__ __device__ float fDecay(float x) { return expf(-x); }
__host__ __device__ float fQuarterCircle(float x) { return sqrtf(fmaxf(1.0f - x * x, 0.0f)); }
__device__ Integrand dIntegrands[FUNCS] = {fSquare, fSine, fDecay, fQuarterCircle};

__host__ __device__ inline float jitter(uint32_t func, uint32_t sample) {
    uint32_t h = sample * 0x9E3779B1u ^ (func * 0x85EBCA77u + 0x165667B1u);
    h ^= h >> 16; h *= 0x7FEB352Du; h ^= h >> 15; h *= 0x846CA68Bu; h ^= h >> 16;
    return (h >> 8) * (1.0f / 16777216.0f);
}

__host__ __device__ inline float samplePoint(uint32_t func, uint32_t stratum) {
    return (stratum + jitter(func, stratum)) / (float)kSamples;
}

__global__ void integrate(float* blockSums) {
    __shared__ float part[THREADS];
    int func = blockIdx.y;
    Integrand f = dIntegrands[func];
    uint32_t first = (blockIdx.x * THREADS + threadIdx.x) * kStrataPerThread;
    float acc = 0.0f;
    for (int k = 0; k < kStrataPerThread; ++k) acc += f(samplePoint(func, first + k));
    part[threadIdx.x] = acc;
    __syncthreads();
    for (int stride = THREADS / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride) part[threadIdx.x] += part[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) blockSums[func * kBlocksPerFunc + blockIdx.x] = part[0];
}

int main() {
    float* dSums;
    CUDA_CHECK(cudaMalloc(&dSums, FUNCS * kBlocksPerFunc * sizeof(float)));
    integrate<<<dim3(kBlocksPerFunc, FUNCS), THREADS>>>(dSums);
    CUDA_CHECK(cudaGetLastError());
    std::vector<float> sums(FUNCS * kBlocksPerFunc);
    CUDA_CHECK(cudaMemcpy(sums.data(), dSums, sums.size() * sizeof(float), cudaMemcpyDeviceToHost));

    const char* names[FUNCS] = {"x^2", "sin(pi x)", "exp(-x)", "sqrt(1-x^2)"};
    Integrand host[FUNCS] = {fSquare, fSine, fDecay, fQuarterCircle};
    const double exact[FUNCS] = {1.0 / 3.0, 2.0 / M_PI, 1.0 - exp(-1.0), M_PI / 4.0};
    bool ok = true;
    printf("samples per function %d (stratified)\n", kSamples);
    for (int f = 0; f < FUNCS; ++f) {
        double gpu = 0.0, ref = 0.0;
        for (int b = 0; b < kBlocksPerFunc; ++b) gpu += sums[f * kBlocksPerFunc + b];
        for (int i = 0; i < kSamples; ++i) ref += host[f](samplePoint(f, (uint32_t)i));
        gpu /= kSamples; ref /= kSamples;
        bool good = fabs(gpu - ref) < 1e-5 * fabs(ref) + 1e-7 && fabs(gpu - exact[f]) < 1e-4;
        ok = ok && good;
        printf("integral of %-12s %.7e exact %.7e\n", names[f], gpu, exact[f]);
    }
    printf("matches host sums and exact values: %s\n", ok ? "yes" : "no");
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dSums));
    return ok ? 0 : 1;
}
