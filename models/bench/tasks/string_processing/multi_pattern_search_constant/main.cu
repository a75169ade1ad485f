// Exact multi-pattern matching over a 4-letter text: each block stages a tile of the text (plus the
// overlap for the longest pattern) in shared memory; each thread tests every pattern from __constant__
// memory at its position, counts matches per pattern (shared then global atomics) and records the
// first occurrence per pattern with atomicMin.
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

#include <cstring>

constexpr int TEXT_LEN = 1 << 18;
constexpr int NPAT = 6;
constexpr int MAX_PAT = 12;
constexpr int TILE = 256;

__constant__ char c_patterns[NPAT][MAX_PAT];
__constant__ int c_lengths[NPAT];

__global__ void search(const char* text, int n, unsigned* counts, int* first) {
    __shared__ char tile[TILE + MAX_PAT];
    __shared__ unsigned local[NPAT];
    const int base = blockIdx.x * TILE;
    for (int k = threadIdx.x; k < TILE + MAX_PAT; k += blockDim.x)
        tile[k] = base + k < n ? text[base + k] : '\0';
    if (threadIdx.x < NPAT) local[threadIdx.x] = 0u;
    __syncthreads();
    const int pos = base + threadIdx.x;
    if (pos < n) {
        for (int p = 0; p < NPAT; ++p) {
            const int len = c_lengths[p];
            int j = 0;
            while (j < len && tile[threadIdx.x + j] == c_patterns[p][j]) ++j;
            if (j == len) {
                atomicAdd(&local[p], 1u);
                atomicMin(&first[p], pos);
            }
        }
    }
    __syncthreads();
    if (threadIdx.x < NPAT && local[threadIdx.x]) atomicAdd(&counts[threadIdx.x], local[threadIdx.x]);
}

int main() {
    g_seed = 1953u;
    const char alphabet[4] = {'A', 'C', 'G', 'T'};
    std::vector<char> text(TEXT_LEN);
    for (int i = 0; i < TEXT_LEN; ++i) {
        const uint32_t r = next_u32() >> 24;
        text[i] = alphabet[(r < 90) ? 0 : (r < 150) ? 1 : (r < 200) ? 2 : 3];  // skewed composition
    }
    const char* pats[NPAT] = {"ACGT", "GATTACA", "AAAAAA", "TTAGGG", "CGCG", "ACAGTTGCAAAT"};
    char table[NPAT][MAX_PAT] = {};
    int lengths[NPAT];
    for (int p = 0; p < NPAT; ++p) {
        lengths[p] = (int)strlen(pats[p]);
        memcpy(table[p], pats[p], lengths[p]);
    }
    char* d_text;
    unsigned* d_counts;
    int* d_first;
    CUDA_CHECK(cudaMalloc(&d_text, TEXT_LEN));
    CUDA_CHECK(cudaMalloc(&d_counts, NPAT * sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&d_first, NPAT * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_text, text.data(), TEXT_LEN, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_counts, 0, NPAT * sizeof(unsigned)));
    std::vector<int> init_first(NPAT, TEXT_LEN);
    CUDA_CHECK(cudaMemcpy(d_first, init_first.data(), NPAT * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpyToSymbol(c_patterns, table, sizeof(table)));
    CUDA_CHECK(cudaMemcpyToSymbol(c_lengths, lengths, sizeof(lengths)));
    search<<<TEXT_LEN / TILE, TILE>>>(d_text, TEXT_LEN, d_counts, d_first);
    CUDA_CHECK(cudaGetLastError());
    unsigned counts[NPAT];
    int first[NPAT];
    CUDA_CHECK(cudaMemcpy(counts, d_counts, sizeof(counts), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(first, d_first, sizeof(first), cudaMemcpyDeviceToHost));

    bool ok = true;
    for (int p = 0; p < NPAT; ++p) {
        unsigned ref = 0;
        int ref_first = TEXT_LEN;
        for (int i = 0; i + lengths[p] <= TEXT_LEN; ++i)
            if (memcmp(&text[i], pats[p], lengths[p]) == 0) {
                ++ref;
                if (i < ref_first) ref_first = i;
            }
        if (ref != counts[p] || ref_first != first[p]) ok = false;
        printf("pattern %-12s matches %6u first %d\n", pats[p], counts[p], first[p]);
    }
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(d_text));
    CUDA_CHECK(cudaFree(d_counts));
    CUDA_CHECK(cudaFree(d_first));
    return ok ? 0 : 1;
}
