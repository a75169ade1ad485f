// Bloom filter with 4 probes derived from FNV-1a and a 32-bit finaliser
// (double hashing). Inserts set bits with atomicOr; queries count positives
// per warp with __ballot_sync/__popc and one atomicAdd per warp. The filter is
// an OR of all inserts, so the result is independent of thread order.
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

static const int kLogBits = 17;
static const uint32_t kBits = 1u << kLogBits;
static const int kProbes = 4;
static const int kInserted = 16384;
static const int kQueries = 32768;     // first half inserted keys, second half fresh keys

__host__ __device__ inline uint32_t fnv1a(uint32_t key) {
    uint32_t h = 2166136261u;
    for (int b = 0; b < 4; ++b) { h ^= (key >> (8 * b)) & 0xFFu; h *= 16777619u; }
    return h;
}

__host__ __device__ inline uint32_t mix32(uint32_t x) {
    x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
    return x | 1u;                        // odd step so probes differ
}

__host__ __device__ inline uint32_t probeBit(uint32_t key, int i) {
    return (fnv1a(key) + (uint32_t)i * mix32(key)) & (kBits - 1);
}

__global__ void bloomInsert(uint32_t* bits, const uint32_t* keys, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    for (int p = 0; p < kProbes; ++p) {
        uint32_t b = probeBit(keys[i], p);
        atomicOr(&bits[b >> 5], 1u << (b & 31));
    }
}

__global__ void bloomQuery(const uint32_t* bits, const uint32_t* keys, int n, uint8_t* hit, unsigned int* positives) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool present = false;
    if (i < n) {
        present = true;
        for (int p = 0; p < kProbes && present; ++p) {
            uint32_t b = probeBit(keys[i], p);
            present = (bits[b >> 5] >> (b & 31)) & 1u;
        }
        hit[i] = present;
    }
    unsigned int votes = __ballot_sync(0xFFFFFFFFu, present);
    if ((threadIdx.x & 31) == 0 && votes) atomicAdd(positives, (unsigned int)__popc(votes));
}

int main() {
    std::vector<uint32_t> keys(kQueries);
    uint32_t s = 0x0B100Fu;
    for (int i = 0; i < kQueries; ++i) { s ^= s << 13; s ^= s >> 17; s ^= s << 5; keys[i] = s; }
    uint32_t *dBits, *dKeys; uint8_t* dHit; unsigned int* dPos;
    CUDA_CHECK(cudaMalloc(&dBits, kBits / 8));
    CUDA_CHECK(cudaMalloc(&dKeys, kQueries * sizeof(uint32_t)));
    CUDA_CHECK(cudaMalloc(&dHit, kQueries));
    CUDA_CHECK(cudaMalloc(&dPos, sizeof(unsigned int)));
    CUDA_CHECK(cudaMemset(dBits, 0, kBits / 8));
    CUDA_CHECK(cudaMemset(dPos, 0, sizeof(unsigned int)));
    CUDA_CHECK(cudaMemcpy(dKeys, keys.data(), kQueries * sizeof(uint32_t), cudaMemcpyHostToDevice));
    bloomInsert<<<kInserted / 256, 256>>>(dBits, dKeys, kInserted);
    CUDA_CHECK(cudaGetLastError());
    bloomQuery<<<kQueries / 256, 256>>>(dBits, dKeys, kQueries, dHit, dPos);
    CUDA_CHECK(cudaGetLastError());
    std::vector<uint32_t> bits(kBits / 32);
    std::vector<uint8_t> hit(kQueries);
    unsigned int positives = 0;
    CUDA_CHECK(cudaMemcpy(bits.data(), dBits, kBits / 8, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(hit.data(), dHit, kQueries, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&positives, dPos, sizeof(unsigned int), cudaMemcpyDeviceToHost));

    std::vector<uint32_t> ref(kBits / 32, 0u);
    for (int i = 0; i < kInserted; ++i)
        for (int p = 0; p < kProbes; ++p) { uint32_t b = probeBit(keys[i], p); ref[b >> 5] |= 1u << (b & 31); }
    int mismatches = 0, setBits = 0, falseNegatives = 0, falsePositives = 0;
    for (size_t w = 0; w < ref.size(); ++w) { mismatches += (ref[w] != bits[w]); setBits += __builtin_popcount(bits[w]); }
    for (int i = 0; i < kQueries; ++i) {
        bool expect = true;
        for (int p = 0; p < kProbes; ++p) { uint32_t b = probeBit(keys[i], p); expect = expect && ((ref[b >> 5] >> (b & 31)) & 1u); }
        mismatches += (hit[i] != (uint8_t)expect);
        if (i < kInserted && !hit[i]) ++falseNegatives;
        if (i >= kInserted && hit[i]) ++falsePositives;
    }
    printf("filter bits %u probes %d inserted %d\n", kBits, kProbes, kInserted);
    printf("set bits %d positives %u false negatives %d false positives %d of %d\n", setBits, positives,
           falseNegatives, falsePositives, kQueries - kInserted);
    printf("fnv1a(0x12345678) %08x mismatches %d\n", fnv1a(0x12345678u), mismatches);
    bool ok = mismatches == 0 && falseNegatives == 0 && positives == (unsigned)(kInserted + falsePositives);
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dBits)); CUDA_CHECK(cudaFree(dKeys)); CUDA_CHECK(cudaFree(dHit)); CUDA_CHECK(cudaFree(dPos));
    return ok ? 0 : 1;
}
