// Palindromic substrings: thread c expands around centre c (2n-1 centres: characters and gaps) to find
// the longest palindrome there; the overall longest is chosen with a 64-bit atomicMax on (length, -start),
// and a shared-memory histogram counts palindrome radii. Host buffers are pinned and all copies use
// cudaMemcpyDefault: with unified virtual addressing the runtime infers each pointer's location
// (cudaPointerGetAttributes is used to confirm where the buffers live).
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>
#include <vector>
#include <algorithm>
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

constexpr int N = 1 << 16;
constexpr int HIST = 16;

__global__ void expand_centres(const char* s, int n, unsigned short* radius, unsigned long long* best, unsigned* hist) {
    __shared__ unsigned local[HIST];
    if (threadIdx.x < HIST) local[threadIdx.x] = 0u;
    __syncthreads();
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c < 2 * n - 1) {
        int lo = c / 2, hi = lo + (c & 1);  // odd centre: lo == hi; even centre: the gap between lo and hi
        int len = 0;
        if (lo == hi) { len = 1; --lo; ++hi; }
        while (lo >= 0 && hi < n && s[lo] == s[hi]) { len += 2; --lo; ++hi; }
        radius[c] = (unsigned short)len;
        const unsigned start = (unsigned)(lo + 1);
        atomicMax(best, ((unsigned long long)len << 32) | (0xffffffffu - start));  // ties: leftmost start
        atomicAdd(&local[min(len, HIST - 1)], 1u);
    }
    __syncthreads();
    if (threadIdx.x < HIST && local[threadIdx.x]) atomicAdd(&hist[threadIdx.x], local[threadIdx.x]);
}

static const char* where(const void* p) {
    cudaPointerAttributes attr;
    if (cudaPointerGetAttributes(&attr, p) != cudaSuccess) return "error";
    return attr.type == cudaMemoryTypeDevice ? "device" : attr.type == cudaMemoryTypeHost ? "host" : "other";
}

int main() {
    g_seed = 1221u;
    char* h_text;
    unsigned short* h_radius;
    CUDA_CHECK(cudaMallocHost(&h_text, N));
    CUDA_CHECK(cudaMallocHost(&h_radius, (2 * N - 1) * sizeof(unsigned short)));
    for (int i = 0; i < N; ++i) h_text[i] = (char)('a' + (next_u32() >> 8) % 3u);
    // Plant a few long palindromes.
    const int plant_at[3] = {1000, 30000, 50000}, plant_len[3] = {41, 60, 75};
    for (int p = 0; p < 3; ++p)
        for (int k = 0; k < plant_len[p] / 2; ++k) h_text[plant_at[p] + plant_len[p] - 1 - k] = h_text[plant_at[p] + k];
    char* d_text;
    unsigned short* d_radius;
    unsigned long long* d_best;
    unsigned* d_hist;
    CUDA_CHECK(cudaMalloc(&d_text, N));
    CUDA_CHECK(cudaMalloc(&d_radius, (2 * N - 1) * sizeof(unsigned short)));
    CUDA_CHECK(cudaMalloc(&d_best, sizeof(unsigned long long)));
    CUDA_CHECK(cudaMalloc(&d_hist, HIST * sizeof(unsigned)));
    CUDA_CHECK(cudaMemset(d_best, 0, sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemset(d_hist, 0, HIST * sizeof(unsigned)));
    printf("buffers: text on %s, staging on %s\n", where(d_text), where(h_text));
    CUDA_CHECK(cudaMemcpy(d_text, h_text, N, cudaMemcpyDefault));
    expand_centres<<<(2 * N - 1 + 255) / 256, 256>>>(d_text, N, d_radius, d_best, d_hist);
    CUDA_CHECK(cudaGetLastError());
    unsigned long long best = 0;
    unsigned hist[HIST];
    CUDA_CHECK(cudaMemcpy(h_radius, d_radius, (2 * N - 1) * sizeof(unsigned short), cudaMemcpyDefault));
    CUDA_CHECK(cudaMemcpy(&best, d_best, sizeof(best), cudaMemcpyDefault));
    CUDA_CHECK(cudaMemcpy(hist, d_hist, sizeof(hist), cudaMemcpyDefault));

    bool ok = true;
    unsigned rh[HIST] = {0};
    unsigned long long rbest = 0, radius_sum = 0;
    for (int c = 0; c < 2 * N - 1; ++c) {
        int lo = c / 2, hi = lo + (c & 1), len = 0;
        if (lo == hi) { len = 1; --lo; ++hi; }
        while (lo >= 0 && hi < N && h_text[lo] == h_text[hi]) { len += 2; --lo; ++hi; }
        if (h_radius[c] != len) ok = false;
        rh[len < HIST - 1 ? len : HIST - 1]++;
        rbest = std::max(rbest, ((unsigned long long)len << 32) | (0xffffffffu - (unsigned)(lo + 1)));
        radius_sum += len;
    }
    for (int k = 0; k < HIST; ++k) ok = ok && rh[k] == hist[k];
    ok = ok && rbest == best;
    const int best_len = (int)(best >> 32), best_start = (int)(0xffffffffu - (unsigned)(best & 0xffffffffu));
    printf("text %d centres %d palindrome_length_sum %llu\n", N, 2 * N - 1, radius_sum);
    printf("longest length %d at %d: %.12s...\n", best_len, best_start, h_text + best_start);
    printf("length_hist");
    for (int k = 0; k < HIST; ++k) printf(" %u", hist[k]);
    printf("\n");
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(d_text)); CUDA_CHECK(cudaFree(d_radius)); CUDA_CHECK(cudaFree(d_best)); CUDA_CHECK(cudaFree(d_hist));
    CUDA_CHECK(cudaFreeHost(h_text)); CUDA_CHECK(cudaFreeHost(h_radius));
    return ok ? 0 : 1;
}
