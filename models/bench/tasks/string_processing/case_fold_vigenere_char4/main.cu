// Text transforms with vectorised char4 accesses: kernel 1 folds letters to upper case (bit 5 cleared);
// kernel 2 applies a Vigenere cipher keyed on the letter index (key in __constant__);
// kernel 3 decrypts again. The round trip must reproduce the case-folded text.
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

constexpr int TEXT_LEN = 1 << 18;  // multiple of 4
constexpr int KEY_LEN = 7;

__constant__ unsigned char c_key[KEY_LEN];

__device__ __forceinline__ unsigned char upper(unsigned char c) { return (c >= 'a' && c <= 'z') ? (c & 0xDF) : c; }

__global__ void fold_upper(const char4* in, char4* out, int n4) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n4) return;
    char4 v = in[i];
    v.x = upper(v.x); v.y = upper(v.y); v.z = upper(v.z); v.w = upper(v.w);
    out[i] = v;
}

// Shift every letter by key[pos % KEY_LEN] (position in the text, letters and non-letters alike).
template <bool Encrypt>
__global__ void vigenere(const char4* in, char4* out, int n4) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n4) return;
    char4 v = in[i];
    unsigned char* c = reinterpret_cast<unsigned char*>(&v);
    for (int k = 0; k < 4; ++k) {
        if (c[k] >= 'A' && c[k] <= 'Z') {
            const int shift = c_key[(4 * i + k) % KEY_LEN];
            const int off = Encrypt ? (c[k] - 'A' + shift) % 26 : (c[k] - 'A' + 26 - shift) % 26;
            c[k] = (unsigned char)('A' + off);
        }
    }
    out[i] = v;
}

static uint32_t fnv1a(const char* s, int n) {
    uint32_t h = 2166136261u;
    for (int i = 0; i < n; ++i) h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

int main() {
    g_seed = 1467u;
    std::vector<char> text(TEXT_LEN);
    for (int i = 0; i < TEXT_LEN; ++i) {
        const uint32_t r = next_u32() >> 24;
        text[i] = r < 30 ? ' ' : r < 36 ? '.' : r < 40 ? (char)('0' + r % 10) : r < 150 ? (char)('a' + r % 26) : (char)('A' + r % 26);
    }
    const unsigned char key[KEY_LEN] = {'L' - 'A', 'E' - 'A', 'M' - 'A', 'O' - 'A', 'N' - 'A', 'S' - 'A', 3};
    CUDA_CHECK(cudaMemcpyToSymbol(c_key, key, sizeof(key)));
    char *d_a, *d_b, *d_c;
    CUDA_CHECK(cudaMalloc(&d_a, TEXT_LEN));
    CUDA_CHECK(cudaMalloc(&d_b, TEXT_LEN));
    CUDA_CHECK(cudaMalloc(&d_c, TEXT_LEN));
    CUDA_CHECK(cudaMemcpy(d_a, text.data(), TEXT_LEN, cudaMemcpyHostToDevice));
    const int n4 = TEXT_LEN / 4;
    fold_upper<<<n4 / 256, 256>>>((const char4*)d_a, (char4*)d_b, n4);
    CUDA_CHECK(cudaGetLastError());
    vigenere<true><<<n4 / 256, 256>>>((const char4*)d_b, (char4*)d_c, n4);
    CUDA_CHECK(cudaGetLastError());
    vigenere<false><<<n4 / 256, 256>>>((const char4*)d_c, (char4*)d_a, n4);
    CUDA_CHECK(cudaGetLastError());
    std::vector<char> folded(TEXT_LEN), cipher(TEXT_LEN), plain(TEXT_LEN);
    CUDA_CHECK(cudaMemcpy(folded.data(), d_b, TEXT_LEN, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(cipher.data(), d_c, TEXT_LEN, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(plain.data(), d_a, TEXT_LEN, cudaMemcpyDeviceToHost));

    bool ok = plain == folded;
    int letters = 0;
    for (int i = 0; i < TEXT_LEN; ++i) {
        char c = text[i];
        if (c >= 'a' && c <= 'z') c = (char)(c - 'a' + 'A');
        if (folded[i] != c) ok = false;
        if (c >= 'A' && c <= 'Z') {
            ++letters;
            c = (char)('A' + (c - 'A' + key[i % KEY_LEN]) % 26);
        }
        if (cipher[i] != c) ok = false;
    }
    printf("chars %d letters %d\n", TEXT_LEN, letters);
    printf("fnv_folded %08x fnv_cipher %08x\n", fnv1a(folded.data(), TEXT_LEN), fnv1a(cipher.data(), TEXT_LEN));
    printf("cipher_head %.40s\n", cipher.data());
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(d_a));
    CUDA_CHECK(cudaFree(d_b));
    CUDA_CHECK(cudaFree(d_c));
    return ok ? 0 : 1;
}
