// Coin change DPs for 16 coin systems (one block each): ways[a] += ways[a - c] mod P and
// fewest[a] = min(fewest[a], fewest[a - c] + 1) for each coin c. For a fixed coin, amounts with the same
// residue mod c form an independent chain, so threads take residues and walk their chains. The modular
// addition is a three-instruction inline-PTX sequence (add, subtract P, unsigned min).
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>
#include <vector>
#include <algorithm>
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

constexpr int AMOUNT = 4096;
constexpr int SYSTEMS = 16;
constexpr int COINS = 12;
constexpr unsigned P = 1000000007u;
constexpr int INF = 1 << 30;

__device__ __forceinline__ unsigned add_mod(unsigned a, unsigned b) {
    unsigned s;
    asm("{\n\t.reg .u32 t;\n\tadd.u32 %0, %1, %2;\n\tsub.u32 t, %0, %3;\n\tmin.u32 %0, %0, t;\n\t}"
        : "=r"(s)
        : "r"(a), "r"(b), "r"(P));
    return s;
}

struct CoinSystem {
    int coin[COINS];
};

__global__ void coin_change(const CoinSystem* systems, unsigned* ways_out, int* fewest_out) {
    __shared__ unsigned ways[AMOUNT + 1];
    __shared__ int fewest[AMOUNT + 1];
    const CoinSystem cs = systems[blockIdx.x];
    for (int a = threadIdx.x; a <= AMOUNT; a += blockDim.x) {
        ways[a] = a == 0 ? 1u : 0u;
        fewest[a] = a == 0 ? 0 : INF;
    }
    __syncthreads();
    for (int k = 0; k < COINS; ++k) {
        const int c = cs.coin[k];
        for (int r = threadIdx.x; r < c; r += blockDim.x)
            for (int a = r + c; a <= AMOUNT; a += c) {
                ways[a] = add_mod(ways[a], ways[a - c]);
                fewest[a] = min(fewest[a], fewest[a - c] + 1);
            }
        __syncthreads();
    }
    for (int a = threadIdx.x; a <= AMOUNT; a += blockDim.x) {
        ways_out[blockIdx.x * (AMOUNT + 1) + a] = ways[a];
        fewest_out[blockIdx.x * (AMOUNT + 1) + a] = fewest[a];
    }
}

int main() {
    g_seed = 1792u;
    std::vector<CoinSystem> systems(SYSTEMS);
    for (int s = 0; s < SYSTEMS; ++s) {
        for (int k = 0; k < COINS; ++k) {
            int c;
            bool dup;
            do {  // distinct denominations in 2..300 (no 1: some amounts are unreachable)
                c = 2 + (int)(next_u32() % 299u);
                dup = false;
                for (int q = 0; q < k; ++q) dup = dup || systems[s].coin[q] == c;
            } while (dup);
            systems[s].coin[k] = c;
        }
    }
    CoinSystem* d_sys;
    unsigned* d_ways;
    int* d_few;
    const size_t cells = (size_t)SYSTEMS * (AMOUNT + 1);
    CUDA_CHECK(cudaMalloc(&d_sys, SYSTEMS * sizeof(CoinSystem)));
    CUDA_CHECK(cudaMalloc(&d_ways, cells * sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&d_few, cells * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_sys, systems.data(), SYSTEMS * sizeof(CoinSystem), cudaMemcpyHostToDevice));
    coin_change<<<SYSTEMS, 128>>>(d_sys, d_ways, d_few);
    CUDA_CHECK(cudaGetLastError());
    std::vector<unsigned> ways(cells);
    std::vector<int> few(cells);
    CUDA_CHECK(cudaMemcpy(ways.data(), d_ways, cells * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(few.data(), d_few, cells * sizeof(int), cudaMemcpyDeviceToHost));

    bool ok = true;
    unsigned long long ways_sum = 0;
    long long unreachable = 0, few_sum = 0;
    for (int s = 0; s < SYSTEMS; ++s) {
        std::vector<unsigned long long> w(AMOUNT + 1, 0ull);
        std::vector<int> f(AMOUNT + 1, INF);
        w[0] = 1;
        f[0] = 0;
        for (int k = 0; k < COINS; ++k) {
            const int c = systems[s].coin[k];
            for (int a = c; a <= AMOUNT; ++a) {
                w[a] = (w[a] + w[a - c]) % P;
                f[a] = std::min(f[a], f[a - c] + 1);
            }
        }
        for (int a = 0; a <= AMOUNT; ++a) {
            const size_t at = (size_t)s * (AMOUNT + 1) + a;
            if (ways[at] != w[a] || few[at] != f[a]) ok = false;
            if (few[at] >= INF) ++unreachable; else few_sum += few[at];
        }
        ways_sum += ways[(size_t)s * (AMOUNT + 1) + AMOUNT];
    }
    printf("systems %d coins %d amount %d\n", SYSTEMS, COINS, AMOUNT);
    printf("ways(4096) system0 %u system15 %u sum %llu\n", ways[AMOUNT], ways[cells - 1], ways_sum);
    printf("fewest(4096) system0 %d; unreachable amounts %lld; fewest_sum %lld\n", few[AMOUNT], unreachable, few_sum);
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(d_sys));
    CUDA_CHECK(cudaFree(d_ways));
    CUDA_CHECK(cudaFree(d_few));
    return ok ? 0 : 1;
}
