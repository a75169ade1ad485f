// Word statistics over generated ASCII text (like `wc -w` plus a length histogram): a word starts where a
// letter follows a non-letter. Each warp finds the starts among its 32 characters with __ballot_sync,
// popcounts them, and the start lanes measure their word's length into a shared-memory histogram.
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

constexpr int TEXT_LEN = 1 << 18;
constexpr int MAX_LEN_BIN = 16;

__device__ __forceinline__ bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '\''; }

__global__ void word_stats(const char* text, int n, unsigned* words, unsigned* length_hist, unsigned* capitalised) {
    __shared__ unsigned hist[MAX_LEN_BIN + 1];
    __shared__ unsigned block_words, block_caps;
    if (threadIdx.x <= MAX_LEN_BIN) hist[threadIdx.x] = 0u;
    if (threadIdx.x == 0) { block_words = 0u; block_caps = 0u; }
    __syncthreads();
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const char c = i < n ? text[i] : ' ';
    const bool start = is_letter(c) && (i == 0 || !is_letter(text[i - 1]));
    const bool cap = start && c >= 'A' && c <= 'Z';
    const unsigned starts = __ballot_sync(0xffffffffu, start);
    const unsigned caps = __ballot_sync(0xffffffffu, cap);
    if ((threadIdx.x & 31) == 0) {
        atomicAdd(&block_words, __popc(starts));
        atomicAdd(&block_caps, __popc(caps));
    }
    if (start) {
        int len = 1;
        while (i + len < n && is_letter(text[i + len])) ++len;
        atomicAdd(&hist[len < MAX_LEN_BIN ? len : MAX_LEN_BIN], 1u);
    }
    __syncthreads();
    if (threadIdx.x <= MAX_LEN_BIN && hist[threadIdx.x]) atomicAdd(&length_hist[threadIdx.x], hist[threadIdx.x]);
    if (threadIdx.x == 0) {
        atomicAdd(words, block_words);
        atomicAdd(capitalised, block_caps);
    }
}

int main() {
    g_seed = 1605u;
    std::vector<char> text;
    text.reserve(TEXT_LEN);
    const char* punct = " ,.;!? \n";
    while ((int)text.size() < TEXT_LEN) {
        int len = 1 + (int)(next_u32() % 11u);
        if ((next_u32() >> 28) == 0u) len += 9;  // occasional long words
        const bool capital = (next_u32() >> 29) == 0u;
        for (int k = 0; k < len; ++k) {
            char ch = (char)('a' + (next_u32() >> 8) % 26u);
            if (k == 0 && capital) ch = (char)(ch - 'a' + 'A');
            if (k == 2 && (next_u32() >> 27) == 0u) ch = '\'';
            text.push_back(ch);
        }
        const int gap = 1 + (int)((next_u32() >> 30) == 0u);
        for (int g = 0; g < gap; ++g) text.push_back(punct[(next_u32() >> 8) % 8u]);
    }
    text.resize(TEXT_LEN);
    char* d_text;
    unsigned *d_words, *d_hist, *d_caps;
    CUDA_CHECK(cudaMalloc(&d_text, TEXT_LEN));
    CUDA_CHECK(cudaMalloc(&d_words, sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&d_caps, sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&d_hist, (MAX_LEN_BIN + 1) * sizeof(unsigned)));
    CUDA_CHECK(cudaMemcpy(d_text, text.data(), TEXT_LEN, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_words, 0, sizeof(unsigned)));
    CUDA_CHECK(cudaMemset(d_caps, 0, sizeof(unsigned)));
    CUDA_CHECK(cudaMemset(d_hist, 0, (MAX_LEN_BIN + 1) * sizeof(unsigned)));
    word_stats<<<TEXT_LEN / 256, 256>>>(d_text, TEXT_LEN, d_words, d_hist, d_caps);
    CUDA_CHECK(cudaGetLastError());
    unsigned words = 0, caps = 0, hist[MAX_LEN_BIN + 1];
    CUDA_CHECK(cudaMemcpy(&words, d_words, sizeof(unsigned), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&caps, d_caps, sizeof(unsigned), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(hist, d_hist, sizeof(hist), cudaMemcpyDeviceToHost));

    auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '\''; };
    unsigned rwords = 0, rcaps = 0, rhist[MAX_LEN_BIN + 1] = {};
    for (int i = 0; i < TEXT_LEN;) {
        if (!letter(text[i])) { ++i; continue; }
        int len = 0;
        ++rwords;
        if (text[i] >= 'A' && text[i] <= 'Z') ++rcaps;
        while (i < TEXT_LEN && letter(text[i])) { ++i; ++len; }
        rhist[len < MAX_LEN_BIN ? len : MAX_LEN_BIN]++;
    }
    bool ok = words == rwords && caps == rcaps;
    unsigned long long letters = 0;
    for (int b = 0; b <= MAX_LEN_BIN; ++b) {
        if (hist[b] != rhist[b]) ok = false;
        letters += (unsigned long long)b * hist[b];
    }
    printf("chars %d words %u capitalised %u\n", TEXT_LEN, words, caps);
    printf("length_hist");
    for (int b = 1; b <= MAX_LEN_BIN; ++b) printf(" %u", hist[b]);
    printf("\n");
    printf("letters_in_words_capped %llu\n", letters);
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(d_text));
    CUDA_CHECK(cudaFree(d_words));
    CUDA_CHECK(cudaFree(d_caps));
    CUDA_CHECK(cudaFree(d_hist));
    return ok ? 0 : 1;
}
