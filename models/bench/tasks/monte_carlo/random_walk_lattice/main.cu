// 2D lattice random walks: 16384 walkers take 64 steps each, two random bits
// per step from a per-walker xorshift32 generator. Results live in managed
// memory: end points, a histogram of squared displacement (int atomics) and
// the total squared displacement (64-bit atomics). Theory: E[r^2] = steps.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
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

static const int kWalkers = 16384;
static const int kSteps = 64;
static const int kBins = 16;            // bins of width 32 in r^2, last bin open-ended

__host__ __device__ inline uint32_t seedFor(uint32_t walker) {
    uint32_t h = walker * 0x9E3779B1u + 0x7F4A7C15u;
    h ^= h >> 15; h *= 0x2C1B3C6Du; h ^= h >> 12;
    return h ? h : 1u;                   // xorshift state must be non-zero
}

__host__ __device__ inline int2 walk(uint32_t walker) {
    uint32_t s = seedFor(walker);
    int x = 0, y = 0;
    for (int step = 0; step < kSteps; ++step) {
        s ^= s << 13; s ^= s >> 17; s ^= s << 5;
        switch (s >> 30) {               // top two bits choose the direction
            case 0: ++x; break;
            case 1: --x; break;
            case 2: ++y; break;
            default: --y; break;
        }
    }
    return make_int2(x, y);
}

__global__ void runWalkers(int2* endPoints, unsigned int* histogram, unsigned long long* totalR2) {
    int w = blockIdx.x * blockDim.x + threadIdx.x;
    if (w >= kWalkers) return;
    int2 p = walk((uint32_t)w);
    endPoints[w] = p;
    unsigned int r2 = (unsigned int)(p.x * p.x + p.y * p.y);
    unsigned int bin = r2 / 32 < kBins - 1 ? r2 / 32 : kBins - 1;
    atomicAdd(&histogram[bin], 1u);
    atomicAdd(totalR2, (unsigned long long)r2);
}

int main() {
    int2* endPoints;
    unsigned int* histogram;
    unsigned long long* totalR2;
    CUDA_CHECK(cudaMallocManaged(&endPoints, kWalkers * sizeof(int2)));
    CUDA_CHECK(cudaMallocManaged(&histogram, kBins * sizeof(unsigned int)));
    CUDA_CHECK(cudaMallocManaged(&totalR2, sizeof(unsigned long long)));
    for (int b = 0; b < kBins; ++b) histogram[b] = 0;
    *totalR2 = 0;
    runWalkers<<<kWalkers / 128, 128>>>(endPoints, histogram, totalR2);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    unsigned int refHist[kBins] = {0};
    unsigned long long refR2 = 0;
    int mismatches = 0, maxDist = 0;
    long long sumX = 0, sumY = 0;
    for (int w = 0; w < kWalkers; ++w) {
        int2 p = walk((uint32_t)w);
        mismatches += (p.x != endPoints[w].x || p.y != endPoints[w].y);
        unsigned int r2 = (unsigned int)(p.x * p.x + p.y * p.y);
        refHist[r2 / 32 < kBins - 1 ? r2 / 32 : kBins - 1]++;
        refR2 += r2;
        sumX += p.x; sumY += p.y;
        int d = abs(p.x) + abs(p.y);
        if (d > maxDist) maxDist = d;
    }
    for (int b = 0; b < kBins; ++b) mismatches += (histogram[b] != refHist[b]);
    mismatches += (*totalR2 != refR2);
    double meanR2 = (double)*totalR2 / kWalkers;
    printf("walkers %d steps %d\n", kWalkers, kSteps);
    printf("mean squared displacement %.4f (theory %d)\n", meanR2, kSteps);
    printf("net drift %lld %lld max manhattan distance %d\n", sumX, sumY, maxDist);
    printf("histogram:");
    for (int b = 0; b < kBins; ++b) printf(" %u", histogram[b]);
    printf("\nmismatches %d\n", mismatches);
    bool ok = mismatches == 0 && meanR2 > 0.9 * kSteps && meanR2 < 1.1 * kSteps;
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(endPoints)); CUDA_CHECK(cudaFree(histogram)); CUDA_CHECK(cudaFree(totalR2));
    return ok ? 0 : 1;
}
