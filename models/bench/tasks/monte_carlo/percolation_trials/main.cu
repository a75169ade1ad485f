// Site percolation trials on 16x16 grids: one block per trial, one thread per
// site. Occupancy comes from an integer hash compared with a per-trial
// threshold in constant memory (p sweeps 0.45..0.75). Wetness spreads from the
// top row in two-phase rounds (read, barrier, write); warps vote with __any_sync
// and the block stops when a round changes nothing.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <queue>
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

#define SIDE 16
#define SITES (SIDE * SIDE)
static const int kTrials = 64;
__constant__ uint32_t cThreshold[kTrials];

__host__ __device__ inline bool occupied(uint32_t trial, uint32_t site, uint32_t threshold) {
    uint32_t h = trial * 0x9E3779B1u + site * 0x85EBCA77u + 0x165667B1u;
    h ^= h >> 15; h *= 0x2C1B3C6Du; h ^= h >> 12; h *= 0x297A2D39u; h ^= h >> 15;
    return h < threshold;
}

__global__ void floodTrials(int* percolates, int* wetCount) {
    __shared__ unsigned char wet[SITES];
    __shared__ int warpChanged[SITES / 32];
    __shared__ int anyChange;
    int site = threadIdx.x, x = site % SIDE, y = site / SIDE;
    bool open = occupied(blockIdx.x, site, cThreshold[blockIdx.x]);
    wet[site] = open && y == 0;
    __syncthreads();
    for (;;) {
        bool becomeWet = false;
        if (open && !wet[site])
            becomeWet = (x > 0 && wet[site - 1]) || (x < SIDE - 1 && wet[site + 1]) ||
                        (y > 0 && wet[site - SIDE]) || (y < SIDE - 1 && wet[site + SIDE]);
        bool warpAny = __any_sync(0xFFFFFFFFu, becomeWet);
        if ((threadIdx.x & 31) == 0) warpChanged[threadIdx.x / 32] = warpAny;
        __syncthreads();                                  // all reads of this round are done
        if (becomeWet) wet[site] = 1;
        if (threadIdx.x == 0) {
            int c = 0;
            for (int w = 0; w < SITES / 32; ++w) c |= warpChanged[w];
            anyChange = c;
        }
        __syncthreads();
        if (!anyChange) break;
        __syncthreads();                                  // everyone has read anyChange before it is rewritten
    }
    if (threadIdx.x == 0) {
        int bottom = 0, count = 0;
        for (int i = 0; i < SITES; ++i) count += wet[i];
        for (int i = SITES - SIDE; i < SITES; ++i) bottom |= wet[i];
        percolates[blockIdx.x] = bottom;
        wetCount[blockIdx.x] = count;
    }
}

int main() {
    uint32_t thresholds[kTrials];
    for (int t = 0; t < kTrials; ++t) {
        double p = 0.45 + 0.30 * t / (kTrials - 1);
        thresholds[t] = (uint32_t)(p * 4294967296.0);
    }
    CUDA_CHECK(cudaMemcpyToSymbol(cThreshold, thresholds, sizeof(thresholds)));
    int *dPerc, *dWet;
    CUDA_CHECK(cudaMalloc(&dPerc, kTrials * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dWet, kTrials * sizeof(int)));
    floodTrials<<<kTrials, SITES>>>(dPerc, dWet);
    CUDA_CHECK(cudaGetLastError());
    int perc[kTrials], wetCount[kTrials];
    CUDA_CHECK(cudaMemcpy(perc, dPerc, sizeof(perc), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(wetCount, dWet, sizeof(wetCount), cudaMemcpyDeviceToHost));

    int mismatches = 0, bucket[4] = {0, 0, 0, 0};
    long long totalWet = 0;
    for (int t = 0; t < kTrials; ++t) {
        std::vector<char> open(SITES), wet(SITES, 0);
        std::queue<int> q;
        for (int s = 0; s < SITES; ++s) open[s] = occupied(t, s, thresholds[t]);
        for (int x = 0; x < SIDE; ++x) if (open[x]) { wet[x] = 1; q.push(x); }
        while (!q.empty()) {
            int s = q.front(); q.pop();
            int x = s % SIDE, y = s / SIDE;
            int nb[4] = {x > 0 ? s - 1 : -1, x < SIDE - 1 ? s + 1 : -1, y > 0 ? s - SIDE : -1, y < SIDE - 1 ? s + SIDE : -1};
            for (int n : nb) if (n >= 0 && open[n] && !wet[n]) { wet[n] = 1; q.push(n); }
        }
        int count = 0, bottom = 0;
        for (int s = 0; s < SITES; ++s) count += wet[s];
        for (int s = SITES - SIDE; s < SITES; ++s) bottom |= wet[s];
        mismatches += (count != wetCount[t]) + (bottom != perc[t]);
        bucket[t / (kTrials / 4)] += perc[t];
        totalWet += wetCount[t];
    }
    printf("trials %d grid %dx%d p from 0.45 to 0.75\n", kTrials, SIDE, SIDE);
    printf("percolating trials per p quartile: %d %d %d %d (of %d)\n", bucket[0], bucket[1], bucket[2], bucket[3], kTrials / 4);
    printf("total wet sites %lld wet[0] %d wet[63] %d\n", totalWet, wetCount[0], wetCount[kTrials - 1]);
    printf("mismatches %d\n", mismatches);
    bool ok = mismatches == 0;
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dPerc)); CUDA_CHECK(cudaFree(dWet));
    return ok ? 0 : 1;
}
