// GPU hash table (open addressing, linear probing) in managed memory: keys claimed with atomicCAS,
// per-key occurrence counts with atomicAdd, then a batch of lookups; slot order varies but contents do not.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>
#include <vector>
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

#include <algorithm>

constexpr uint32_t EMPTY = 0xffffffffu;
constexpr int CAPACITY = 1 << 15;  // power of two
constexpr int N_INSERT = 20000;
constexpr int N_QUERY = 8192;

struct Slot {
    uint32_t key;
    uint32_t count;
};

__host__ __device__ inline uint32_t hash32(uint32_t k) {  // murmur3 finaliser
    k ^= k >> 16; k *= 0x85ebca6bu;
    k ^= k >> 13; k *= 0xc2b2ae35u;
    k ^= k >> 16;
    return k;
}

__global__ void insert_keys(Slot* table, const uint32_t* keys, int n, int* new_keys, int* max_probe) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const uint32_t k = keys[i];
    uint32_t slot = hash32(k) & (CAPACITY - 1);
    for (int probe = 0; probe < CAPACITY; ++probe) {
        const uint32_t prev = atomicCAS(&table[slot].key, EMPTY, k);
        if (prev == EMPTY || prev == k) {
            atomicAdd(&table[slot].count, 1u);
            if (prev == EMPTY) atomicAdd(new_keys, 1);
            atomicMax(max_probe, probe);
            return;
        }
        slot = (slot + 1) & (CAPACITY - 1);
    }
}

__global__ void lookup_keys(const Slot* table, const uint32_t* queries, int n, uint32_t* counts) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const uint32_t k = queries[i];
    uint32_t slot = hash32(k) & (CAPACITY - 1);
    uint32_t found = 0;
    for (int probe = 0; probe < CAPACITY; ++probe) {
        const uint32_t cur = table[slot].key;
        if (cur == k) { found = table[slot].count; break; }
        if (cur == EMPTY) break;
        slot = (slot + 1) & (CAPACITY - 1);
    }
    counts[i] = found;
}

int main() {
    g_seed = 271828u;
    Slot* table;
    uint32_t *keys, *queries, *counts;
    int* stats;
    CUDA_CHECK(cudaMallocManaged(&table, CAPACITY * sizeof(Slot)));
    CUDA_CHECK(cudaMallocManaged(&keys, N_INSERT * sizeof(uint32_t)));
    CUDA_CHECK(cudaMallocManaged(&queries, N_QUERY * sizeof(uint32_t)));
    CUDA_CHECK(cudaMallocManaged(&counts, N_QUERY * sizeof(uint32_t)));
    CUDA_CHECK(cudaMallocManaged(&stats, 2 * sizeof(int)));
    for (int i = 0; i < CAPACITY; ++i) table[i] = Slot{EMPTY, 0u};
    for (int i = 0; i < N_INSERT; ++i) keys[i] = (next_u32() >> 4) % 12000u * 7919u;  // many repeats
    for (int i = 0; i < N_QUERY; ++i) queries[i] = (next_u32() >> 4) % 16000u * 7919u;  // some misses
    stats[0] = 0;
    stats[1] = 0;
    insert_keys<<<(N_INSERT + 255) / 256, 256>>>(table, keys, N_INSERT, &stats[0], &stats[1]);
    CUDA_CHECK(cudaGetLastError());
    lookup_keys<<<(N_QUERY + 255) / 256, 256>>>(table, queries, N_QUERY, counts);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    // CPU reference: occurrence counts by sorting.
    std::vector<uint32_t> sorted(keys, keys + N_INSERT);
    std::sort(sorted.begin(), sorted.end());
    int distinct = 0;
    for (int i = 0; i < N_INSERT; ++i) distinct += (i == 0 || sorted[i] != sorted[i - 1]);
    bool ok = stats[0] == distinct;
    uint64_t count_sum = 0, weighted = 0;
    int hits = 0;
    for (int q = 0; q < N_QUERY; ++q) {
        const auto range = std::equal_range(sorted.begin(), sorted.end(), queries[q]);
        const uint32_t ref = (uint32_t)(range.second - range.first);
        if (ref != counts[q]) ok = false;
        hits += counts[q] > 0;
        count_sum += counts[q];
        weighted += (uint64_t)counts[q] * (uint64_t)(q + 1);
    }
    uint64_t table_total = 0;
    int occupied = 0;
    for (int i = 0; i < CAPACITY; ++i)
        if (table[i].key != EMPTY) { ++occupied; table_total += table[i].count; }
    if (occupied != distinct || table_total != (uint64_t)N_INSERT) ok = false;
    printf("inserted %d distinct %d occupied %d load %.4f\n", N_INSERT, stats[0], occupied,
           (double)occupied / CAPACITY);
    printf("queries %d hits %d count_sum %llu weighted %llu\n", N_QUERY, hits, (unsigned long long)count_sum,
           (unsigned long long)weighted);
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(table));
    CUDA_CHECK(cudaFree(keys));
    CUDA_CHECK(cudaFree(queries));
    CUDA_CHECK(cudaFree(counts));
    CUDA_CHECK(cudaFree(stats));
    return ok ? 0 : 1;
}
