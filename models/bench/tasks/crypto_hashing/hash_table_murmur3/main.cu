// GPU open-addressing hash table keyed by MurmurHash3 (x86_32) of 32-bit keys.
// Inserts claim slots with atomicCAS and linear probing and count duplicate
// keys with atomicAdd; a second kernel looks up a query set. Slot positions
// depend on insertion order, so only order-independent results are printed.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <unordered_map>
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

static const int kCapacity = 1 << 15;        // power of two
static const int kInserts = 16384;
static const int kQueries = 16384;
static const uint32_t kEmpty = 0xFFFFFFFFu;
static const uint32_t kSeed = 0x1234ABCDu;

__host__ __device__ inline uint32_t murmur3_32(uint32_t key, uint32_t seed) {
    uint32_t k = key * 0xcc9e2d51u;
    k = (k << 15) | (k >> 17);
    k *= 0x1b873593u;
    uint32_t h = seed ^ k;
    h = (h << 13) | (h >> 19);
    h = h * 5u + 0xe6546b64u;
    h ^= 4u;                                   // length in bytes
    h ^= h >> 16; h *= 0x85ebca6bu;
    h ^= h >> 13; h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}

struct Table { uint32_t* keys; uint32_t* counts; };

__global__ void insertKeys(Table t, const uint32_t* keys, int n, unsigned int* uniqueCount, unsigned int* maxProbe) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint32_t key = keys[i];
    uint32_t slot = murmur3_32(key, kSeed) & (kCapacity - 1);
    for (unsigned int probe = 0; probe < kCapacity; ++probe) {
        uint32_t prev = atomicCAS(&t.keys[slot], kEmpty, key);
        if (prev == kEmpty || prev == key) {
            if (prev == kEmpty) atomicAdd(uniqueCount, 1u);
            atomicAdd(&t.counts[slot], 1u);
            atomicMax(maxProbe, probe);
            return;
        }
        slot = (slot + 1) & (kCapacity - 1);
    }
}

__global__ void lookupKeys(Table t, const uint32_t* queries, int n, uint32_t* found) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint32_t key = queries[i];
    uint32_t slot = murmur3_32(key, kSeed) & (kCapacity - 1);
    uint32_t result = 0;
    for (int probe = 0; probe < kCapacity; ++probe) {
        uint32_t k = t.keys[slot];
        if (k == key) { result = t.counts[slot]; break; }
        if (k == kEmpty) break;
        slot = (slot + 1) & (kCapacity - 1);
    }
    found[i] = result;
}

int main() {
    std::vector<uint32_t> keys(kInserts), queries(kQueries);
    uint32_t s = 0xBADC0DEu;
    auto next = [&s]() { s = s * 1664525u + 1013904223u; return s; };
    for (int i = 0; i < kInserts; ++i) keys[i] = (next() >> 4) % 12000u * 7919u;   // many duplicates
    for (int i = 0; i < kQueries; ++i) queries[i] = (i % 2) ? keys[next() % kInserts] : (next() >> 4) % 24000u * 7919u;
    Table t;
    uint32_t *dKeys, *dQueries, *dFound;
    unsigned int *dUnique, *dMaxProbe;
    CUDA_CHECK(cudaMalloc(&t.keys, kCapacity * sizeof(uint32_t)));
    CUDA_CHECK(cudaMalloc(&t.counts, kCapacity * sizeof(uint32_t)));
    CUDA_CHECK(cudaMalloc(&dKeys, kInserts * sizeof(uint32_t)));
    CUDA_CHECK(cudaMalloc(&dQueries, kQueries * sizeof(uint32_t)));
    CUDA_CHECK(cudaMalloc(&dFound, kQueries * sizeof(uint32_t)));
    CUDA_CHECK(cudaMalloc(&dUnique, sizeof(unsigned int)));
    CUDA_CHECK(cudaMalloc(&dMaxProbe, sizeof(unsigned int)));
    CUDA_CHECK(cudaMemset(t.keys, 0xFF, kCapacity * sizeof(uint32_t)));
    CUDA_CHECK(cudaMemset(t.counts, 0, kCapacity * sizeof(uint32_t)));
    CUDA_CHECK(cudaMemset(dUnique, 0, sizeof(unsigned int)));
    CUDA_CHECK(cudaMemset(dMaxProbe, 0, sizeof(unsigned int)));
    CUDA_CHECK(cudaMemcpy(dKeys, keys.data(), kInserts * sizeof(uint32_t), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dQueries, queries.data(), kQueries * sizeof(uint32_t), cudaMemcpyHostToDevice));
    insertKeys<<<kInserts / 256, 256>>>(t, dKeys, kInserts, dUnique, dMaxProbe);
    CUDA_CHECK(cudaGetLastError());
    lookupKeys<<<kQueries / 256, 256>>>(t, dQueries, kQueries, dFound);
    CUDA_CHECK(cudaGetLastError());
    std::vector<uint32_t> found(kQueries), tableKeys(kCapacity);
    unsigned int unique = 0, maxProbe = 0;
    CUDA_CHECK(cudaMemcpy(found.data(), dFound, kQueries * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(tableKeys.data(), t.keys, kCapacity * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&unique, dUnique, sizeof(unsigned int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&maxProbe, dMaxProbe, sizeof(unsigned int), cudaMemcpyDeviceToHost));

    std::unordered_map<uint32_t, uint32_t> ref;
    for (uint32_t k : keys) ref[k]++;
    int mismatches = 0, hits = 0;
    unsigned long long countSum = 0, keyXor = 0;
    for (int i = 0; i < kQueries; ++i) {
        auto it = ref.find(queries[i]);
        uint32_t expect = it == ref.end() ? 0u : it->second;
        mismatches += (found[i] != expect);
        hits += found[i] > 0;
        countSum += found[i];
    }
    int occupied = 0;
    for (uint32_t k : tableKeys) if (k != kEmpty) { ++occupied; keyXor ^= murmur3_32(k, 7u); }
    printf("capacity %d inserts %d unique keys %u occupied slots %d\n", kCapacity, kInserts, unique, occupied);
    printf("queries %d hits %d count sum %llu key digest %08llx\n", kQueries, hits, countSum, keyXor);
    printf("murmur3(42) = %08x, probe bound ok: %s\n", murmur3_32(42u, kSeed), maxProbe < (unsigned)kCapacity ? "yes" : "no");
    printf("mismatches %d\n", mismatches);
    bool ok = mismatches == 0 && unique == ref.size() && occupied == (int)ref.size();
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(t.keys)); CUDA_CHECK(cudaFree(t.counts)); CUDA_CHECK(cudaFree(dKeys));
    CUDA_CHECK(cudaFree(dQueries)); CUDA_CHECK(cudaFree(dFound)); CUDA_CHECK(cudaFree(dUnique)); CUDA_CHECK(cudaFree(dMaxProbe));
    return ok ? 0 : 1;
}
