// k-mer counting (as in genome assemblers): every position of a DNA text yields a 2-bit-packed 21-mer
// (42 bits in a 64-bit key); keys go into an open-addressing hash table claimed with 64-bit atomicCAS and
// counted with atomicAdd. The histogram of counts and the number of distinct k-mers are order-free.
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

constexpr int TEXT_LEN = 1 << 17;
constexpr int K = 21;
constexpr int CAPACITY = 1 << 18;
constexpr unsigned long long EMPTY = ~0ull;

__host__ __device__ inline uint32_t base_code(char c) { return c == 'A' ? 0u : c == 'C' ? 1u : c == 'G' ? 2u : 3u; }

__host__ __device__ inline unsigned long long mix64(unsigned long long x) {
    x ^= x >> 33; x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ull;
    return x ^ (x >> 33);
}

__global__ void count_kmers(const char* text, int n, unsigned long long* keys, unsigned* counts, int* distinct) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i + K > n) return;
    unsigned long long key = 0ull;
    for (int j = 0; j < K; ++j) key = (key << 2) | base_code(text[i + j]);
    unsigned slot = (unsigned)mix64(key) & (CAPACITY - 1);
    for (;;) {
        const unsigned long long prev = atomicCAS(&keys[slot], EMPTY, key);
        if (prev == EMPTY || prev == key) {
            atomicAdd(&counts[slot], 1u);
            if (prev == EMPTY) atomicAdd(distinct, 1);
            return;
        }
        slot = (slot + 1) & (CAPACITY - 1);
    }
}

int main() {
    g_seed = 1953u * 7u;
    const char alphabet[4] = {'A', 'C', 'G', 'T'};
    std::vector<char> text(TEXT_LEN);
    // A repetitive genome: random sequence with copied segments so some k-mers repeat.
    for (int i = 0; i < TEXT_LEN; ++i) {
        if (i > 5000 && (next_u32() >> 26) == 0u) {  // start a repeat copy of 200 bases
            const int src = (int)(next_u32() % (uint32_t)(i - 1000));
            for (int j = 0; j < 200 && i < TEXT_LEN; ++j, ++i) text[i] = text[src + j];
            --i;
            continue;
        }
        text[i] = alphabet[next_u32() >> 30];
    }
    char* d_text;
    unsigned long long* d_keys;
    unsigned* d_counts;
    int* d_distinct;
    CUDA_CHECK(cudaMalloc(&d_text, TEXT_LEN));
    CUDA_CHECK(cudaMalloc(&d_keys, CAPACITY * sizeof(unsigned long long)));
    CUDA_CHECK(cudaMalloc(&d_counts, CAPACITY * sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&d_distinct, sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_text, text.data(), TEXT_LEN, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_keys, 0xff, CAPACITY * sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemset(d_counts, 0, CAPACITY * sizeof(unsigned)));
    CUDA_CHECK(cudaMemset(d_distinct, 0, sizeof(int)));
    count_kmers<<<TEXT_LEN / 256, 256>>>(d_text, TEXT_LEN, d_keys, d_counts, d_distinct);
    CUDA_CHECK(cudaGetLastError());
    std::vector<unsigned long long> keys(CAPACITY);
    std::vector<unsigned> counts(CAPACITY);
    int distinct = 0;
    CUDA_CHECK(cudaMemcpy(keys.data(), d_keys, CAPACITY * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(counts.data(), d_counts, CAPACITY * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&distinct, d_distinct, sizeof(int), cudaMemcpyDeviceToHost));

    // CPU reference: sort all k-mers.
    std::vector<unsigned long long> all;
    for (int i = 0; i + K <= TEXT_LEN; ++i) {
        unsigned long long key = 0ull;
        for (int j = 0; j < K; ++j) key = (key << 2) | base_code(text[i + j]);
        all.push_back(key);
    }
    std::sort(all.begin(), all.end());
    std::vector<std::pair<unsigned long long, unsigned>> ref;
    for (size_t i = 0; i < all.size(); ++i) {
        if (i == 0 || all[i] != all[i - 1]) ref.push_back({all[i], 0u});
        ref.back().second++;
    }
    std::vector<std::pair<unsigned long long, unsigned>> got;
    for (int s = 0; s < CAPACITY; ++s)
        if (keys[s] != EMPTY) got.push_back({keys[s], counts[s]});
    std::sort(got.begin(), got.end());
    bool ok = got == ref && distinct == (int)ref.size();
    unsigned hist[5] = {0, 0, 0, 0, 0};
    unsigned max_count = 0;
    unsigned long long top_key = 0;
    for (auto& kv : got) {
        hist[kv.second < 4 ? kv.second : 4]++;
        if (kv.second > max_count) { max_count = kv.second; top_key = kv.first; }
    }
    printf("positions %d distinct %d\n", (int)all.size(), distinct);
    printf("count_hist 1:%u 2:%u 3:%u 4+:%u\n", hist[1], hist[2], hist[3], hist[4]);
    printf("max_count %u first_such_kmer %011llx\n", max_count, top_key);
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(d_text));
    CUDA_CHECK(cudaFree(d_keys));
    CUDA_CHECK(cudaFree(d_counts));
    CUDA_CHECK(cudaFree(d_distinct));
    return ok ? 0 : 1;
}
