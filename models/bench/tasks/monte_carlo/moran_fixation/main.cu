// Fixation of an advantageous mutant in a Moran process (population N,
// relative fitness 11/10), simulated on the embedded jump chain: each
// effective step raises the mutant count with probability 11/21. Integer
// hashing drives every decision, so counts are exact. The estimate is checked
// against the closed form (1 - 10/11) / (1 - (10/11)^N).
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>
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

#define POPULATION 16
static const int kTrials = 4096;
static const int kTimeBins = 8;        // absorption time bins of 32 steps, last bin open
static const int kMaxSteps = 100000;

__host__ __device__ inline uint32_t stepHash(uint32_t trial, uint32_t step) {
    uint32_t h = trial * 0x9E3779B1u ^ (step * 0x85EBCA77u + 0x2545F491u);
    h ^= h >> 15; h *= 0x2C1B3C6Du; h ^= h >> 12; h *= 0x297A2D39u; h ^= h >> 15;
    return h;
}

// returns +steps when the mutant fixes, -steps when it goes extinct
template <int N>
__host__ __device__ inline int runTrial(uint32_t trial) {
    int mutants = 1;
    for (int step = 1; step <= kMaxSteps; ++step) {
        mutants += (stepHash(trial, (uint32_t)step) % 21u < 11u) ? 1 : -1;
        if (mutants == 0) return -step;
        if (mutants == N) return step;
    }
    return 0;
}

template <int N>
__global__ void moranTrials(unsigned int* fixations, unsigned int* timeHist, unsigned long long* stepTotal) {
    uint32_t trial = blockIdx.x * blockDim.x + threadIdx.x;
    if (trial >= (uint32_t)kTrials) return;
    int r = runTrial<N>(trial);
    int steps = r < 0 ? -r : r;
    if (r > 0) atomicAdd(fixations, 1u);
    int bin = steps / 32 < kTimeBins - 1 ? steps / 32 : kTimeBins - 1;
    atomicAdd(&timeHist[bin], 1u);
    atomicAdd(stepTotal, (unsigned long long)steps);
}

int main() {
    unsigned int *dFix, *dHist; unsigned long long* dSteps;
    CUDA_CHECK(cudaMalloc(&dFix, sizeof(unsigned int)));
    CUDA_CHECK(cudaMalloc(&dHist, kTimeBins * sizeof(unsigned int)));
    CUDA_CHECK(cudaMalloc(&dSteps, sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemset(dFix, 0, sizeof(unsigned int)));
    CUDA_CHECK(cudaMemset(dHist, 0, kTimeBins * sizeof(unsigned int)));
    CUDA_CHECK(cudaMemset(dSteps, 0, sizeof(unsigned long long)));
    moranTrials<POPULATION><<<kTrials / 128, 128>>>(dFix, dHist, dSteps);
    CUDA_CHECK(cudaGetLastError());
    unsigned int fix = 0, hist[kTimeBins];
    unsigned long long steps = 0;
    CUDA_CHECK(cudaMemcpy(&fix, dFix, sizeof(fix), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(hist, dHist, sizeof(hist), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&steps, dSteps, sizeof(steps), cudaMemcpyDeviceToHost));

    unsigned int refFix = 0, refHist[kTimeBins] = {0};
    unsigned long long refSteps = 0;
    for (uint32_t t = 0; t < (uint32_t)kTrials; ++t) {
        int r = runTrial<POPULATION>(t);
        int st = r < 0 ? -r : r;
        refFix += r > 0;
        refHist[st / 32 < kTimeBins - 1 ? st / 32 : kTimeBins - 1]++;
        refSteps += st;
    }
    double ratio = 10.0 / 11.0;
    double exact = (1 - ratio) / (1 - pow(ratio, POPULATION));
    double estimate = (double)fix / kTrials, sigma = sqrt(exact * (1 - exact) / kTrials);
    int mismatches = (fix != refFix) + (steps != refSteps);
    for (int b = 0; b < kTimeBins; ++b) mismatches += (hist[b] != refHist[b]);
    printf("population %d trials %d\n", POPULATION, kTrials);
    printf("fixations %u estimate %.5f exact %.5f\n", fix, estimate, exact);
    printf("mean absorption steps %.4f\nabsorption time histogram:", (double)steps / kTrials);
    for (int b = 0; b < kTimeBins; ++b) printf(" %u", hist[b]);
    printf("\nmismatches %d\n", mismatches);
    bool ok = mismatches == 0 && fabs(estimate - exact) < 5 * sigma;
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dFix)); CUDA_CHECK(cudaFree(dHist)); CUDA_CHECK(cudaFree(dSteps));
    return ok ? 0 : 1;
}
