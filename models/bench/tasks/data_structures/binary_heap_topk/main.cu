// Top-K selection with a per-thread binary max-heap: each thread scans one segment and keeps the K
// smallest (key, index) pairs, then heap-sorts them ascending. Thread 0 prints its result on the device.
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

constexpr int SEGMENTS = 512;
constexpr int SEG_LEN = 128;
constexpr int K = 16;

struct Entry {
    uint32_t key;
    int index;
};

__host__ __device__ inline bool less_than(const Entry& a, const Entry& b) {
    return a.key < b.key || (a.key == b.key && a.index < b.index);
}

template <int CAP>
struct MaxHeap {
    Entry e[CAP];
    int size = 0;
    __device__ void sift_down(int i) {
        for (;;) {
            int l = 2 * i + 1, r = l + 1, m = i;
            if (l < size && less_than(e[m], e[l])) m = l;
            if (r < size && less_than(e[m], e[r])) m = r;
            if (m == i) return;
            const Entry t = e[i]; e[i] = e[m]; e[m] = t;
            i = m;
        }
    }
    __device__ void push(const Entry& x) {
        int i = size++;
        e[i] = x;
        while (i > 0 && less_than(e[(i - 1) / 2], e[i])) {
            const Entry t = e[i]; e[i] = e[(i - 1) / 2]; e[(i - 1) / 2] = t;
            i = (i - 1) / 2;
        }
    }
    __device__ void offer(const Entry& x) {
        if (size < CAP) push(x);
        else if (less_than(x, e[0])) { e[0] = x; sift_down(0); }
    }
    __device__ Entry pop_max() {
        const Entry top = e[0];
        e[0] = e[--size];
        sift_down(0);
        return top;
    }
};

__global__ void __launch_bounds__(128) topk_segments(const uint32_t* keys, Entry* out) {
    const int seg = blockIdx.x * blockDim.x + threadIdx.x;
    if (seg >= SEGMENTS) return;
    MaxHeap<K> heap;
    for (int i = 0; i < SEG_LEN; ++i) heap.offer(Entry{keys[seg * SEG_LEN + i], i});
    for (int k = K - 1; k >= 0; --k) out[seg * K + k] = heap.pop_max();  // ascending order in memory
    if (seg == 0) printf("device: segment 0 smallest key %u at %d, K-th key %u\n", out[0].key, out[0].index,
                         out[K - 1].key);
}

int main() {
    g_seed = 8675309u;
    std::vector<uint32_t> keys(SEGMENTS * SEG_LEN);
    for (auto& k : keys) k = next_u32() % 100000u;  // duplicates happen: ties broken by index
    uint32_t* d_keys;
    Entry* d_out;
    CUDA_CHECK(cudaMalloc(&d_keys, keys.size() * sizeof(uint32_t)));
    CUDA_CHECK(cudaMalloc(&d_out, SEGMENTS * K * sizeof(Entry)));
    CUDA_CHECK(cudaMemcpy(d_keys, keys.data(), keys.size() * sizeof(uint32_t), cudaMemcpyHostToDevice));
    topk_segments<<<SEGMENTS / 128, 128>>>(d_keys, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<Entry> out(SEGMENTS * K);
    CUDA_CHECK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(Entry), cudaMemcpyDeviceToHost));

    bool ok = true;
    uint64_t key_sum = 0, idx_hash = 0;
    for (int s = 0; s < SEGMENTS; ++s) {
        std::vector<Entry> ref(SEG_LEN);
        for (int i = 0; i < SEG_LEN; ++i) ref[i] = Entry{keys[s * SEG_LEN + i], i};
        std::partial_sort(ref.begin(), ref.begin() + K, ref.end(), less_than);
        for (int k = 0; k < K; ++k) {
            const Entry& g = out[s * K + k];
            if (g.key != ref[k].key || g.index != ref[k].index) ok = false;
            key_sum += g.key;
            idx_hash = idx_hash * 31u + (uint64_t)g.index;
        }
    }
    printf("segments %d length %d k %d\n", SEGMENTS, SEG_LEN, K);
    printf("key_sum %llu index_hash %016llx\n", (unsigned long long)key_sum, (unsigned long long)idx_hash);
    printf("last segment: min %u max_of_topk %u\n", out[(SEGMENTS - 1) * K].key, out[SEGMENTS * K - 1].key);
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(d_keys));
    CUDA_CHECK(cudaFree(d_out));
    return ok ? 0 : 1;
}
