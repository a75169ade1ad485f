// Dice-sum histogram from a multiply-with-carry generator whose step is one
// PTX mad.wide.u32 (64-bit a*x + carry). 8192 threads roll two dice 64 times;
// blocks histogram the sums 2..12 in shared memory, and the host compares the
// exact counts with its own generator and computes a chi-square statistic.
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

static const int kThreads = 8192;
static const int kRolls = 64;
static const uint32_t kMultiplier = 4294957665u;   // a classic MWC multiplier
#define SUMS 13

struct Mwc { uint32_t x, carry; };

__host__ __device__ inline Mwc seedMwc(uint32_t id) {
    uint32_t h = id * 0x9E3779B1u + 0x1234567u;
    h ^= h >> 16; h *= 0x85EBCA6Bu; h ^= h >> 13;
    Mwc g = {h | 1u, (id % 1000u) + 1u};
    return g;
}

__device__ inline uint32_t nextDevice(Mwc& g) {
    unsigned long long t;
    asm("mad.wide.u32 %0, %1, %2, %3;" : "=l"(t) : "r"(g.x), "r"(kMultiplier), "l"((unsigned long long)g.carry));
    g.x = (uint32_t)t;
    g.carry = (uint32_t)(t >> 32);
    return g.x;
}

static inline uint32_t nextHost(Mwc& g) {
    uint64_t t = (uint64_t)g.x * kMultiplier + g.carry;
    g.x = (uint32_t)t;
    g.carry = (uint32_t)(t >> 32);
    return g.x;
}

__global__ void rollDice(unsigned int* histogram) {
    __shared__ unsigned int local[SUMS];
    if (threadIdx.x < SUMS) local[threadIdx.x] = 0;
    __syncthreads();
    Mwc g = seedMwc(blockIdx.x * blockDim.x + threadIdx.x);
    for (int r = 0; r < kRolls; ++r) {
        uint32_t a = nextDevice(g) % 6u + 1u;
        uint32_t b = nextDevice(g) % 6u + 1u;
        atomicAdd(&local[a + b], 1u);
    }
    __syncthreads();
    if (threadIdx.x < SUMS && local[threadIdx.x]) atomicAdd(&histogram[threadIdx.x], local[threadIdx.x]);
}

int main() {
    unsigned int* dHist;
    CUDA_CHECK(cudaMalloc(&dHist, SUMS * sizeof(unsigned int)));
    CUDA_CHECK(cudaMemset(dHist, 0, SUMS * sizeof(unsigned int)));
    rollDice<<<kThreads / 256, 256>>>(dHist);
    CUDA_CHECK(cudaGetLastError());
    unsigned int hist[SUMS];
    CUDA_CHECK(cudaMemcpy(hist, dHist, sizeof(hist), cudaMemcpyDeviceToHost));

    unsigned int ref[SUMS] = {0};
    for (uint32_t id = 0; id < (uint32_t)kThreads; ++id) {
        Mwc g = seedMwc(id);
        for (int r = 0; r < kRolls; ++r) {
            uint32_t a = nextHost(g) % 6u + 1u;
            uint32_t b = nextHost(g) % 6u + 1u;
            ref[a + b]++;
        }
    }
    int mismatches = 0;
    double chi2 = 0.0, total = (double)kThreads * kRolls;
    printf("rolls %.0f\nsum counts:", total);
    for (int s = 2; s <= 12; ++s) {
        mismatches += (hist[s] != ref[s]);
        double expected = total * (6 - abs(s - 7)) / 36.0;
        chi2 += (hist[s] - expected) * (hist[s] - expected) / expected;
        printf(" %u", hist[s]);
    }
    printf("\nchi-square (10 dof) %.4f\n", chi2);
    printf("mismatches %d\n", mismatches);
    bool ok = mismatches == 0 && chi2 < 29.6;   // 0.1% critical value for 10 degrees of freedom
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dHist));
    return ok ? 0 : 1;
}
