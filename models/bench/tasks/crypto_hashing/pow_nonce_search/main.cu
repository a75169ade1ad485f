// Proof-of-work style nonce search: find every nonce in [0, 2^16) whose
// 64-bit hash of (header, nonce) has at least 12 leading zero bits, and the
// smallest such nonce. Warps vote with __ballot_sync; lane 0 counts winners
// with __popc and publishes the warp's first winner (__ffs) via atomicMin.
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

#define WARP_SIZE 32
static const uint32_t kNonces = 1u << 16;
static const int kDifficulty = 12;
static const int kHeaderWords = 8;

struct Header { uint64_t w[kHeaderWords]; };

__host__ __device__ inline uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

__host__ __device__ inline uint64_t powHash(const Header& h, uint32_t nonce) {
    uint64_t acc = 0x6a09e667f3bcc908ull ^ nonce;
    for (int i = 0; i < kHeaderWords; ++i) acc = mix64(acc + h.w[i] + 0x9e3779b97f4a7c15ull * (i + 1));
    return mix64(acc ^ ((uint64_t)nonce << 32));
}

__host__ __device__ inline int leadingZeros64(uint64_t x) {
#ifdef __CUDA_ARCH__
    return __clzll((long long)x);
#else
    return x ? __builtin_clzll(x) : 64;
#endif
}

__global__ void searchNonces(Header h, uint32_t count, unsigned int* winners, unsigned int* best) {
    uint32_t nonce = blockIdx.x * blockDim.x + threadIdx.x;
    bool win = nonce < count && leadingZeros64(powHash(h, nonce)) >= kDifficulty;
    unsigned int ballot = __ballot_sync(0xFFFFFFFFu, win);
    int lane = threadIdx.x % WARP_SIZE;
    if (lane == 0 && ballot) {
        atomicAdd(winners, (unsigned int)__popc(ballot));
        uint32_t first = nonce + (uint32_t)(__ffs(ballot) - 1);   // lane 0 holds the warp's lowest nonce
        atomicMin(best, first);
    }
}

int main() {
    Header h;
    uint64_t s = 0x0123456789ABCDEFull;
    for (int i = 0; i < kHeaderWords; ++i) { s ^= s << 13; s ^= s >> 7; s ^= s << 17; h.w[i] = s; }
    unsigned int *dWinners, *dBest;
    CUDA_CHECK(cudaMalloc(&dWinners, sizeof(unsigned int)));
    CUDA_CHECK(cudaMalloc(&dBest, sizeof(unsigned int)));
    unsigned int zero = 0, none = 0xFFFFFFFFu;
    CUDA_CHECK(cudaMemcpy(dWinners, &zero, sizeof(unsigned int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dBest, &none, sizeof(unsigned int), cudaMemcpyHostToDevice));
    searchNonces<<<kNonces / 256, 256>>>(h, kNonces, dWinners, dBest);
    CUDA_CHECK(cudaGetLastError());
    unsigned int winners = 0, best = 0;
    CUDA_CHECK(cudaMemcpy(&winners, dWinners, sizeof(unsigned int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&best, dBest, sizeof(unsigned int), cudaMemcpyDeviceToHost));

    unsigned int refWinners = 0, refBest = 0xFFFFFFFFu;
    uint64_t xorOfWinners = 0;
    for (uint32_t n = 0; n < kNonces; ++n) {
        uint64_t v = powHash(h, n);
        if (leadingZeros64(v) >= kDifficulty) {
            ++refWinners;
            if (n < refBest) refBest = n;
            xorOfWinners ^= v;
        }
    }
    printf("nonces %u difficulty %d leading zero bits\n", kNonces, kDifficulty);
    printf("winning nonces %u (reference %u)\n", winners, refWinners);
    printf("smallest winning nonce %u hash %016llx\n", best, (unsigned long long)powHash(h, best));
    printf("xor of winning hashes %016llx\n", (unsigned long long)xorOfWinners);
    bool ok = winners == refWinners && best == refBest && refWinners > 0;
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dWinners)); CUDA_CHECK(cudaFree(dBest));
    return ok ? 0 : 1;
}
