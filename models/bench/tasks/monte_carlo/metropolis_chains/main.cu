// Metropolis sampling of a discrete double-well distribution on states
// 0..N-1 (N is a template parameter) with 2048 independent chains of 256
// steps. Proposals and acceptance use a counter-based integer hash; the
// acceptance probability exp(-dE/T) is an integer threshold table in constant
// memory, so every chain is bit-reproducible on host and device.
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

#define NUM_STATES 64
#define THREADS 128
static const int kChains = 2048;
static const int kSteps = 256;
static const int kMaxDelta = 32;          // larger energy increases are always rejected
static const double kTemperature = 3.0;
__constant__ uint32_t cAccept[kMaxDelta + 1];

template <int N>
__host__ __device__ inline int energy(int x) {
    int a = (x - N / 4) * (x - 3 * N / 4);          // wells at N/4 and 3N/4
    return a * a / 4096;
}

__host__ __device__ inline uint32_t stepHash(uint32_t chain, uint32_t step) {
    uint32_t h = chain * 0x9E3779B1u ^ step * 0x85EBCA77u;
    h ^= h >> 16; h *= 0x7FEB352Du; h ^= h >> 15; h *= 0x846CA68Bu; h ^= h >> 16;
    return h;
}

template <int N>
__host__ __device__ inline int runChain(uint32_t chain, const uint32_t* accept, int* accepted) {
    int x = (int)(chain % N);
    int e = energy<N>(x);
    *accepted = 0;
    for (int step = 0; step < kSteps; ++step) {
        uint32_t h = stepHash(chain, (uint32_t)step);
        int y = x + ((h & 1u) ? 1 : -1);
        if (y < 0 || y >= N) continue;
        int ey = energy<N>(y), dE = ey - e;
        uint32_t u = h >> 1 | 1u;                     // remaining 31 bits, never zero
        bool take = dE <= 0 || (dE <= kMaxDelta && (u << 1) < accept[dE]);
        if (take) { x = y; e = ey; ++*accepted; }
    }
    return x;
}

template <int N>
__global__ void __launch_bounds__(THREADS) sampleChains(int* finalState, unsigned int* histogram,
                                                        unsigned long long* acceptedTotal) {
    __shared__ unsigned int localHist[N];
    for (int i = threadIdx.x; i < N; i += blockDim.x) localHist[i] = 0;
    __syncthreads();
    uint32_t chain = blockIdx.x * blockDim.x + threadIdx.x;
    int accepted = 0;
    int x = runChain<N>(chain, cAccept, &accepted);
    finalState[chain] = x;
    atomicAdd(&localHist[x], 1u);
    atomicAdd(acceptedTotal, (unsigned long long)accepted);
    __syncthreads();
    for (int i = threadIdx.x; i < N; i += blockDim.x)
        if (localHist[i]) atomicAdd(&histogram[i], localHist[i]);
}

int main() {
    uint32_t accept[kMaxDelta + 1];
    for (int d = 0; d <= kMaxDelta; ++d) {
        double p = exp(-d / kTemperature);
        accept[d] = p >= 1.0 ? 0xFFFFFFFFu : (uint32_t)(p * 4294967296.0);
    }
    CUDA_CHECK(cudaMemcpyToSymbol(cAccept, accept, sizeof(accept)));
    int* dFinal; unsigned int* dHist; unsigned long long* dAccepted;
    CUDA_CHECK(cudaMalloc(&dFinal, kChains * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dHist, NUM_STATES * sizeof(unsigned int)));
    CUDA_CHECK(cudaMalloc(&dAccepted, sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemset(dHist, 0, NUM_STATES * sizeof(unsigned int)));
    CUDA_CHECK(cudaMemset(dAccepted, 0, sizeof(unsigned long long)));
    sampleChains<NUM_STATES><<<kChains / THREADS, THREADS>>>(dFinal, dHist, dAccepted);
    CUDA_CHECK(cudaGetLastError());
    std::vector<int> finalState(kChains);
    unsigned int hist[NUM_STATES];
    unsigned long long accepted = 0;
    CUDA_CHECK(cudaMemcpy(finalState.data(), dFinal, kChains * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(hist, dHist, sizeof(hist), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&accepted, dAccepted, sizeof(accepted), cudaMemcpyDeviceToHost));

    int mismatches = 0;
    unsigned int refHist[NUM_STATES] = {0};
    unsigned long long refAccepted = 0;
    for (uint32_t c = 0; c < (uint32_t)kChains; ++c) {
        int acc = 0;
        int x = runChain<NUM_STATES>(c, accept, &acc);
        mismatches += (x != finalState[c]);
        refHist[x]++;
        refAccepted += acc;
    }
    for (int s = 0; s < NUM_STATES; ++s) mismatches += (hist[s] != refHist[s]);
    mismatches += (accepted != refAccepted);
    int leftWell = 0, rightWell = 0, barrier = 0;
    for (int s = 0; s < NUM_STATES; ++s) {
        if (s < 28) leftWell += hist[s]; else if (s > 36) rightWell += hist[s]; else barrier += hist[s];
    }
    printf("chains %d steps %d states %d temperature %.1f\n", kChains, kSteps, NUM_STATES, kTemperature);
    printf("accepted moves %llu (rate %.4f)\n", accepted, accepted / (double)(kChains * kSteps));
    printf("final states: left well %d barrier %d right well %d\n", leftWell, barrier, rightWell);
    printf("hist[16] %u hist[32] %u hist[48] %u\n", hist[16], hist[32], hist[48]);
    printf("mismatches %d\n", mismatches);
    bool ok = mismatches == 0;
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dFinal)); CUDA_CHECK(cudaFree(dHist)); CUDA_CHECK(cudaFree(dAccepted));
    return ok ? 0 : 1;
}
