// Birthday-problem Monte Carlo: each trial draws 23 birthdays from a
// counter-based hash and detects a shared day with a 365-bit mask (six 64-bit
// words). Warps count trials with a collision by ballot + popc; lane 0 adds the
// warp's count. The exact probability (0.507297...) bounds the estimate.
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

#define WARP 32
static const int kTrials = 65536;
static const int kPeople = 23;
static const int kDays = 365;

__host__ __device__ inline uint32_t hashDraw(uint32_t trial, uint32_t person) {
    uint32_t h = trial * 0x9E3779B1u + person * 0x7F4A7C15u + 0xA0761D65u;
    h ^= h >> 16; h *= 0x85EBCA6Bu; h ^= h >> 13; h *= 0xC2B2AE35u; h ^= h >> 16;
    return h;
}

// returns the index of the first person who repeats a birthday, or -1
__host__ __device__ inline int firstRepeat(uint32_t trial) {
    unsigned long long seen[6] = {0, 0, 0, 0, 0, 0};
    for (int p = 0; p < kPeople; ++p) {
        uint32_t day = (uint32_t)(((unsigned long long)hashDraw(trial, (uint32_t)p) * kDays) >> 32);   // unbiased-ish scaling
        unsigned long long bit = 1ull << (day & 63);
        if (seen[day >> 6] & bit) return p;
        seen[day >> 6] |= bit;
    }
    return -1;
}

__global__ void runTrials(unsigned int* collisions, unsigned int* repeatHistogram) {
    int trial = blockIdx.x * blockDim.x + threadIdx.x;
    int rep = firstRepeat((uint32_t)trial);
    unsigned int ballot = __ballot_sync(0xFFFFFFFFu, rep >= 0);
    if ((threadIdx.x % WARP) == 0) atomicAdd(collisions, (unsigned int)__popc(ballot));
    if (rep >= 0) atomicAdd(&repeatHistogram[rep], 1u);
}

int main() {
    unsigned int *dCollisions, *dHist;
    CUDA_CHECK(cudaMalloc(&dCollisions, sizeof(unsigned int)));
    CUDA_CHECK(cudaMalloc(&dHist, kPeople * sizeof(unsigned int)));
    CUDA_CHECK(cudaMemset(dCollisions, 0, sizeof(unsigned int)));
    CUDA_CHECK(cudaMemset(dHist, 0, kPeople * sizeof(unsigned int)));
    runTrials<<<kTrials / 256, 256>>>(dCollisions, dHist);
    CUDA_CHECK(cudaGetLastError());
    unsigned int collisions = 0, hist[kPeople];
    CUDA_CHECK(cudaMemcpy(&collisions, dCollisions, sizeof(collisions), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(hist, dHist, sizeof(hist), cudaMemcpyDeviceToHost));

    unsigned int ref = 0, refHist[kPeople] = {0};
    for (int t = 0; t < kTrials; ++t) {
        int rep = firstRepeat((uint32_t)t);
        if (rep >= 0) { ++ref; refHist[rep]++; }
    }
    double noMatch = 1.0;
    for (int p = 0; p < kPeople; ++p) noMatch *= (double)(kDays - p) / kDays;
    double exact = 1.0 - noMatch, estimate = (double)collisions / kTrials;
    double sigma = sqrt(exact * (1 - exact) / kTrials);
    int mismatches = (collisions != ref);
    for (int p = 0; p < kPeople; ++p) mismatches += (hist[p] != refHist[p]);
    printf("trials %d people %d\n", kTrials, kPeople);
    printf("trials with a shared birthday %u estimate %.5f exact %.5f\n", collisions, estimate, exact);
    printf("first repeat at person 10/15/20/22: %u %u %u %u\n", hist[10], hist[15], hist[20], hist[22]);
    bool ok = mismatches == 0 && fabs(estimate - exact) < 5 * sigma;
    printf("mismatches %d, within 5 sigma: %s\n", mismatches, fabs(estimate - exact) < 5 * sigma ? "yes" : "no");
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dCollisions)); CUDA_CHECK(cudaFree(dHist));
    return ok ? 0 : 1;
}
