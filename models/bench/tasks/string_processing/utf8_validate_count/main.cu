// UTF-8 scanning: each thread looks at one byte; a lead byte's sequence length comes from the count of
// leading ones (__clz of the inverted byte), the following bytes must be continuations (10xxxxxx), and
// overlong/surrogate/out-of-range encodings are rejected. Counts per sequence length, invalid starts and
// the sum of decoded code points are reduced per warp with shuffles, then added atomically.
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

constexpr int NBYTES = 1 << 18;

struct Utf8Stats {
    unsigned long long codepoint_sum;
    unsigned by_length[5];  // index 1..4
    unsigned invalid;
};

__host__ __device__ inline int decode_at(const unsigned char* s, int n, int i, uint32_t* cp) {
    // returns sequence length (1-4) for a valid sequence starting at i, 0 for an invalid lead, -1 for continuation
    const unsigned b = s[i];
    if ((b & 0xC0u) == 0x80u) return -1;
#ifdef __CUDA_ARCH__
    const int ones = __clz(~(b << 24));
#else
    const int ones = __builtin_clz(~(b << 24));
#endif
    const int len = ones == 0 ? 1 : ones;
    if (len == 1) { *cp = b; return 1; }
    if (len > 4 || i + len > n) return 0;
    uint32_t v = b & (0x7Fu >> len);
    for (int k = 1; k < len; ++k) {
        const unsigned c = s[i + k];
        if ((c & 0xC0u) != 0x80u) return 0;
        v = (v << 6) | (c & 0x3Fu);
    }
    const uint32_t min_for_len[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (v < min_for_len[len] || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0;
    *cp = v;
    return len;
}

__global__ void __launch_bounds__(256) utf8_scan(const unsigned char* s, int n, Utf8Stats* out) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long cp_sum = 0;
    unsigned len_bits[5] = {0, 0, 0, 0, 0};
    if (i < n) {
        uint32_t cp = 0;
        const int len = decode_at(s, n, i, &cp);
        if (len > 0) { cp_sum = cp; len_bits[len] = 1; }
        if (len == 0) len_bits[0] = 1;
    }
    for (int off = 16; off > 0; off >>= 1) {
        cp_sum += __shfl_down_sync(0xffffffffu, cp_sum, off);
        for (int k = 0; k < 5; ++k) len_bits[k] += __shfl_down_sync(0xffffffffu, len_bits[k], off);
    }
    if ((threadIdx.x & 31) == 0) {
        atomicAdd(&out->codepoint_sum, cp_sum);
        for (int k = 1; k < 5; ++k) if (len_bits[k]) atomicAdd(&out->by_length[k], len_bits[k]);
        if (len_bits[0]) atomicAdd(&out->invalid, len_bits[0]);
    }
}

static void put_cp(std::vector<unsigned char>& s, uint32_t cp) {
    if (cp < 0x80) s.push_back((unsigned char)cp);
    else if (cp < 0x800) { s.push_back(0xC0 | (cp >> 6)); s.push_back(0x80 | (cp & 0x3F)); }
    else if (cp < 0x10000) { s.push_back(0xE0 | (cp >> 12)); s.push_back(0x80 | ((cp >> 6) & 0x3F)); s.push_back(0x80 | (cp & 0x3F)); }
    else { s.push_back(0xF0 | (cp >> 18)); s.push_back(0x80 | ((cp >> 12) & 0x3F)); s.push_back(0x80 | ((cp >> 6) & 0x3F)); s.push_back(0x80 | (cp & 0x3F)); }
}

int main() {
    g_seed = 65001u;
    std::vector<unsigned char> s;
    while ((int)s.size() < NBYTES - 4) {
        const uint32_t r = next_u32() >> 24;
        uint32_t cp;
        if (r < 150) cp = 0x20 + next_u32() % 0x5Fu;              // ASCII
        else if (r < 200) cp = 0x80 + next_u32() % 0x780u;        // 2-byte (Latin, Greek, Cyrillic...)
        else if (r < 240) { cp = 0x800 + next_u32() % 0xF800u; if (cp >= 0xD800 && cp <= 0xDFFF) cp -= 0x1000; }
        else if (r < 252) cp = 0x10000 + next_u32() % 0x100000u;  // emoji and other astral planes
        else { s.push_back((unsigned char)(0x80 | (next_u32() & 0x7F))); continue; }  // stray continuation
        put_cp(s, cp);
        if ((next_u32() >> 22) == 0u) s.push_back(0xC0);  // overlong/invalid lead
    }
    while ((int)s.size() < NBYTES) s.push_back(' ');
    unsigned char* d_s;
    Utf8Stats* d_stats;
    CUDA_CHECK(cudaMalloc(&d_s, NBYTES));
    CUDA_CHECK(cudaMalloc(&d_stats, sizeof(Utf8Stats)));
    CUDA_CHECK(cudaMemcpy(d_s, s.data(), NBYTES, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_stats, 0, sizeof(Utf8Stats)));
    utf8_scan<<<NBYTES / 256, 256>>>(d_s, NBYTES, d_stats);
    CUDA_CHECK(cudaGetLastError());
    Utf8Stats g;
    CUDA_CHECK(cudaMemcpy(&g, d_stats, sizeof(Utf8Stats), cudaMemcpyDeviceToHost));

    Utf8Stats r{};
    for (int i = 0; i < NBYTES; ++i) {
        uint32_t cp = 0;
        const int len = decode_at(s.data(), NBYTES, i, &cp);
        if (len > 0) { r.codepoint_sum += cp; r.by_length[len]++; }
        if (len == 0) r.invalid++;
    }
    bool ok = g.codepoint_sum == r.codepoint_sum && g.invalid == r.invalid;
    for (int k = 1; k < 5; ++k) ok = ok && g.by_length[k] == r.by_length[k];
    printf("bytes %d codepoints %u invalid_leads %u\n", NBYTES, g.by_length[1] + g.by_length[2] + g.by_length[3] + g.by_length[4],
           g.invalid);
    printf("by_length 1:%u 2:%u 3:%u 4:%u\n", g.by_length[1], g.by_length[2], g.by_length[3], g.by_length[4]);
    printf("codepoint_sum %llu\n", g.codepoint_sum);
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(d_s));
    CUDA_CHECK(cudaFree(d_stats));
    return ok ? 0 : 1;
}
