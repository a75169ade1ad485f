// 0/1 knapsack by the classic capacity-indexed DP: one block per instance keeps the previous and current
// rows (best value per capacity) in dynamic shared memory; each item is one synchronised sweep. Whether
// item i was taken at capacity c is recorded as a bit (atomicOr into 32-bit words), then thread 0
// reconstructs the chosen set by walking the bits backwards.
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

constexpr int ITEMS = 96;
constexpr int CAP = 2048;
constexpr int INSTANCES = 8;
constexpr int WORDS = CAP / 32 + 1;  // bits for capacities 0..CAP

struct Item {
    int weight, value;
};

__global__ void knapsack(const Item* items, int* best, int* chosen_count, unsigned* take_bits, int* chosen_weight) {
    extern __shared__ int rows[];  // 2 * (CAP + 1)
    int* prev = rows;
    int* cur = rows + CAP + 1;
    const Item* it = items + blockIdx.x * ITEMS;
    unsigned* bits = take_bits + (size_t)blockIdx.x * ITEMS * WORDS;
    for (int c = threadIdx.x; c <= CAP; c += blockDim.x) prev[c] = 0;
    __syncthreads();
    for (int i = 0; i < ITEMS; ++i) {
        const Item item = it[i];
        for (int c = threadIdx.x; c <= CAP; c += blockDim.x) {
            int v = prev[c];
            if (c >= item.weight && prev[c - item.weight] + item.value > v) {
                v = prev[c - item.weight] + item.value;
                atomicOr(&bits[i * WORDS + c / 32], 1u << (c % 32));
            }
            cur[c] = v;
        }
        __syncthreads();
        int* t = prev; prev = cur; cur = t;
    }
    if (threadIdx.x == 0) {
        best[blockIdx.x] = prev[CAP];
        int c = CAP, n = 0, w = 0;
        for (int i = ITEMS - 1; i >= 0; --i)
            if ((bits[i * WORDS + c / 32] >> (c % 32)) & 1u) { c -= it[i].weight; w += it[i].weight; ++n; }
        chosen_count[blockIdx.x] = n;
        chosen_weight[blockIdx.x] = w;
    }
}

int main() {
    g_seed = 1957u;
    std::vector<Item> items(INSTANCES * ITEMS);
    for (int k = 0; k < INSTANCES; ++k)
        for (int i = 0; i < ITEMS; ++i) {
            const int w = 10 + (int)(next_u32() % 120u);
            const int noise = (int)(next_u32() % 60u);
            items[k * ITEMS + i] = Item{w, w * (k % 3 + 1) / 2 + noise};  // values correlated with weights
        }
    Item* d_items;
    int *d_best, *d_cnt, *d_w;
    unsigned* d_bits;
    const size_t nbits = (size_t)INSTANCES * ITEMS * WORDS;
    CUDA_CHECK(cudaMalloc(&d_items, items.size() * sizeof(Item)));
    CUDA_CHECK(cudaMalloc(&d_best, INSTANCES * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_cnt, INSTANCES * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_w, INSTANCES * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_bits, nbits * sizeof(unsigned)));
    CUDA_CHECK(cudaMemset(d_bits, 0, nbits * sizeof(unsigned)));
    CUDA_CHECK(cudaMemcpy(d_items, items.data(), items.size() * sizeof(Item), cudaMemcpyHostToDevice));
    knapsack<<<INSTANCES, 512, 2 * (CAP + 1) * sizeof(int)>>>(d_items, d_best, d_cnt, d_bits, d_w);
    CUDA_CHECK(cudaGetLastError());
    std::vector<int> best(INSTANCES), cnt(INSTANCES), wsum(INSTANCES);
    CUDA_CHECK(cudaMemcpy(best.data(), d_best, INSTANCES * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(cnt.data(), d_cnt, INSTANCES * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(wsum.data(), d_w, INSTANCES * sizeof(int), cudaMemcpyDeviceToHost));

    bool ok = true;
    for (int k = 0; k < INSTANCES; ++k) {
        std::vector<int> dp(CAP + 1, 0);
        std::vector<std::vector<char>> take(ITEMS, std::vector<char>(CAP + 1, 0));
        for (int i = 0; i < ITEMS; ++i) {
            const Item it = items[k * ITEMS + i];
            for (int c = CAP; c >= it.weight; --c)
                if (dp[c - it.weight] + it.value > dp[c]) { dp[c] = dp[c - it.weight] + it.value; take[i][c] = 1; }
        }
        int c = CAP, n = 0, w = 0, v = 0;
        for (int i = ITEMS - 1; i >= 0; --i)
            if (take[i][c]) { c -= items[k * ITEMS + i].weight; w += items[k * ITEMS + i].weight; v += items[k * ITEMS + i].value; ++n; }
        if (dp[CAP] != best[k] || n != cnt[k] || w != wsum[k] || v != dp[CAP] || w > CAP) ok = false;
        printf("instance %d best_value %d items %d weight %d\n", k, best[k], cnt[k], wsum[k]);
    }
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(d_items));
    CUDA_CHECK(cudaFree(d_best));
    CUDA_CHECK(cudaFree(d_cnt));
    CUDA_CHECK(cudaFree(d_w));
    CUDA_CHECK(cudaFree(d_bits));
    return ok ? 0 : 1;
}
