// A deduplicating worklist as used by graph frontiers: a bitmap marks seen ids (atomicOr returns the old
// word), and each warp appends its newly seen ids with one atomicAdd (ballot, popc, leader via __ffs).
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

constexpr int UNIVERSE = 1 << 16;
constexpr int N_ITEMS = 1 << 17;

__global__ void append_unique(const int* items, int n, unsigned* seen, int* queue, int* tail) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = threadIdx.x & 31;
    bool fresh = false;
    int id = 0;
    if (i < n) {
        id = items[i];
        const unsigned bit = 1u << (id & 31);
        fresh = (atomicOr(&seen[id >> 5], bit) & bit) == 0u;
    }
    const unsigned votes = __ballot_sync(0xffffffffu, fresh);
    if (votes == 0u) return;
    const int leader = __ffs(votes) - 1;
    int base = 0;
    if (lane == leader) base = atomicAdd(tail, __popc(votes));
    base = __shfl_sync(0xffffffffu, base, leader);
    if (fresh) queue[base + __popc(votes & ((1u << lane) - 1u))] = id;
}

int main() {
    g_seed = 4004u;
    std::vector<int> items(N_ITEMS);
    for (auto& x : items) {
        const uint32_t r = next_u32();
        x = (int)((r >> 8) % (UNIVERSE / 2)) * 2 + (int)((r >> 3) & 1u) * ((r >> 30) == 0u);  // mostly even ids
    }
    int *d_items, *d_queue, *d_tail;
    unsigned* d_seen;
    CUDA_CHECK(cudaMalloc(&d_items, N_ITEMS * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_queue, N_ITEMS * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_tail, sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_seen, UNIVERSE / 32 * sizeof(unsigned)));
    CUDA_CHECK(cudaMemcpy(d_items, items.data(), N_ITEMS * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_seen, 0, UNIVERSE / 32 * sizeof(unsigned)));
    CUDA_CHECK(cudaMemset(d_tail, 0, sizeof(int)));
    // Two passes: the second batch (same items) must add nothing new.
    append_unique<<<N_ITEMS / 256, 256>>>(d_items, N_ITEMS, d_seen, d_queue, d_tail);
    CUDA_CHECK(cudaGetLastError());
    int after_first = 0, after_second = 0;
    CUDA_CHECK(cudaMemcpy(&after_first, d_tail, sizeof(int), cudaMemcpyDeviceToHost));
    append_unique<<<N_ITEMS / 512, 256>>>(d_items, N_ITEMS / 2, d_seen, d_queue, d_tail);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(&after_second, d_tail, sizeof(int), cudaMemcpyDeviceToHost));
    std::vector<int> queue(after_first);
    std::vector<unsigned> seen(UNIVERSE / 32);
    CUDA_CHECK(cudaMemcpy(queue.data(), d_queue, after_first * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(seen.data(), d_seen, seen.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));

    // Queue order depends on scheduling: compare as a sorted set.
    std::vector<int> ref(items);
    std::sort(ref.begin(), ref.end());
    ref.erase(std::unique(ref.begin(), ref.end()), ref.end());
    std::sort(queue.begin(), queue.end());
    bool ok = after_first == (int)ref.size() && after_second == after_first && queue == ref;
    int odd = 0, bits = 0;
    uint64_t id_sum = 0;
    for (int x : queue) { odd += x & 1; id_sum += (uint64_t)x; }
    for (unsigned w : seen) bits += __builtin_popcount(w);
    if (bits != after_first) ok = false;
    printf("items %d unique %d odd_ids %d bitmap_bits %d\n", N_ITEMS, after_first, odd, bits);
    printf("id_sum %llu second_pass_added %d\n", (unsigned long long)id_sum, after_second - after_first);
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(d_items));
    CUDA_CHECK(cudaFree(d_queue));
    CUDA_CHECK(cudaFree(d_tail));
    CUDA_CHECK(cudaFree(d_seen));
    return ok ? 0 : 1;
}
