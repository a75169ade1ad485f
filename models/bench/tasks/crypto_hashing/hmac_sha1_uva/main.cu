// HMAC-SHA1 (RFC 2104) of 2048 32-byte tokens under one 20-byte key, one
// token per thread. Copies use unified virtual addressing (cudaMemcpyDefault,
// the runtime infers the direction from the pointers, checked with
// cudaPointerGetAttributes). The host checks its reference against RFC 2202
// test case 2 ("Jefe").
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                        \
    do {                                                                        \
        cudaError_t err_ = (call);                                              \
        if (err_ != cudaSuccess) {                                              \
            fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_), \
                    __FILE__, __LINE__);                                        \
            exit(2);                                                            \
        }                                                                       \
    } while (0)

static const int kTokens = 2048;
static const int kTokenBytes = 32;
struct Key { uint8_t bytes[20]; int len; };

__host__ __device__ inline uint32_t rol(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

__host__ __device__ void sha1Block(uint32_t h[5], const uint8_t* block) {
    uint32_t w[80];
    for (int i = 0; i < 16; ++i)
        w[i] = (uint32_t)block[4 * i] << 24 | (uint32_t)block[4 * i + 1] << 16 | (uint32_t)block[4 * i + 2] << 8 | block[4 * i + 3];
    for (int i = 16; i < 80; ++i) w[i] = rol(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
    for (int i = 0; i < 80; ++i) {
        uint32_t f, k;
        if (i < 20) { f = (b & c) | (~b & d); k = 0x5A827999u; }
        else if (i < 40) { f = b ^ c ^ d; k = 0x6ED9EBA1u; }
        else if (i < 60) { f = (b & c) | (b & d) | (c & d); k = 0x8F1BBCDCu; }
        else { f = b ^ c ^ d; k = 0xCA62C1D6u; }
        uint32_t t = rol(a, 5) + f + e + k + w[i];
        e = d; d = c; c = rol(b, 30); b = a; a = t;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e;
}

// SHA-1 of (64-byte prefix block) || msg, msg at most 64 bytes
__host__ __device__ void sha1Prefixed(const uint8_t prefix[64], const uint8_t* msg, int len, uint32_t out[5]) {
    uint32_t h[5] = {0x67452301u, 0xEFCDAB89u, 0x98BADCFEu, 0x10325476u, 0xC3D2E1F0u};
    sha1Block(h, prefix);
    uint8_t tail[128];
    for (int i = 0; i < 128; ++i) tail[i] = 0;
    for (int i = 0; i < len; ++i) tail[i] = msg[i];
    tail[len] = 0x80;
    int blocks = (len + 9 <= 64) ? 1 : 2;
    uint64_t bits = (uint64_t)(64 + len) * 8;
    for (int i = 0; i < 8; ++i) tail[blocks * 64 - 1 - i] = (uint8_t)(bits >> (8 * i));
    for (int b = 0; b < blocks; ++b) sha1Block(h, tail + 64 * b);
    for (int i = 0; i < 5; ++i) out[i] = h[i];
}

__host__ __device__ void hmacSha1(const Key& key, const uint8_t* msg, int len, uint32_t mac[5]) {
    uint8_t pad[64];
    for (int i = 0; i < 64; ++i) pad[i] = (uint8_t)((i < key.len ? key.bytes[i] : 0) ^ 0x36);
    uint32_t inner[5];
    sha1Prefixed(pad, msg, len, inner);
    uint8_t innerBytes[20];
    for (int i = 0; i < 20; ++i) innerBytes[i] = (uint8_t)(inner[i / 4] >> (24 - 8 * (i % 4)));
    for (int i = 0; i < 64; ++i) pad[i] = (uint8_t)((i < key.len ? key.bytes[i] : 0) ^ 0x5c);
    sha1Prefixed(pad, innerBytes, 20, mac);
}

__global__ void macTokens(Key key, const uint8_t* tokens, uint32_t* macs, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint8_t msg[kTokenBytes];
    for (int b = 0; b < kTokenBytes; ++b) msg[b] = tokens[i * kTokenBytes + b];
    uint32_t mac[5];
    hmacSha1(key, msg, kTokenBytes, mac);
    for (int k = 0; k < 5; ++k) macs[i * 5 + k] = mac[k];
}

int main() {
    // RFC 2202 test case 2 on the host reference first
    Key jefe = {};
    memcpy(jefe.bytes, "Jefe", 4); jefe.len = 4;
    const char* question = "what do ya want for nothing?";
    uint32_t rfc[5];
    hmacSha1(jefe, (const uint8_t*)question, (int)strlen(question), rfc);
    const uint32_t expect[5] = {0xeffcdf6au, 0xe5eb2fa2u, 0xd27416d5u, 0xf184df9cu, 0x259a7c79u};
    bool rfcOk = memcmp(rfc, expect, sizeof(expect)) == 0;

    Key key = {};
    for (int i = 0; i < 20; ++i) key.bytes[i] = (uint8_t)(0xA0 + i);
    key.len = 20;
    std::vector<uint8_t> tokens(kTokens * kTokenBytes);
    uint32_t s = 0x70C3Eu;
    for (size_t i = 0; i < tokens.size(); ++i) { s = s * 1664525u + 1013904223u; tokens[i] = (uint8_t)(s >> 24); }
    uint8_t* dTokens; uint32_t* dMacs;
    CUDA_CHECK(cudaMalloc(&dTokens, tokens.size()));
    CUDA_CHECK(cudaMalloc(&dMacs, kTokens * 20));
    cudaPointerAttributes attr;
    CUDA_CHECK(cudaPointerGetAttributes(&attr, dTokens));
    bool deviceSide = attr.type == cudaMemoryTypeDevice;
    CUDA_CHECK(cudaMemcpy(dTokens, tokens.data(), tokens.size(), cudaMemcpyDefault));   // direction from UVA
    macTokens<<<kTokens / 128, 128>>>(key, dTokens, dMacs, kTokens);
    CUDA_CHECK(cudaGetLastError());
    std::vector<uint32_t> macs(kTokens * 5);
    CUDA_CHECK(cudaMemcpy(macs.data(), dMacs, macs.size() * 4, cudaMemcpyDefault));

    int mismatches = 0;
    uint32_t fold[5] = {0, 0, 0, 0, 0};
    for (int i = 0; i < kTokens; ++i) {
        uint32_t mac[5];
        hmacSha1(key, &tokens[i * kTokenBytes], kTokenBytes, mac);
        for (int k = 0; k < 5; ++k) { mismatches += (mac[k] != macs[i * 5 + k]); fold[k] ^= macs[i * 5 + k] + (uint32_t)i; }
    }
    printf("RFC 2202 case 2 %08x%08x%08x%08x%08x (%s)\n", rfc[0], rfc[1], rfc[2], rfc[3], rfc[4], rfcOk ? "matches" : "differs");
    printf("device allocation reported as device memory: %s\n", deviceSide ? "yes" : "no");
    printf("tokens %d mac[0] %08x%08x%08x%08x%08x\n", kTokens, macs[0], macs[1], macs[2], macs[3], macs[4]);
    printf("fold %08x %08x %08x %08x %08x\n", fold[0], fold[1], fold[2], fold[3], fold[4]);
    printf("mismatching words %d\n", mismatches);
    bool ok = rfcOk && deviceSide && mismatches == 0;
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dTokens)); CUDA_CHECK(cudaFree(dMacs));
    return ok ? 0 : 1;
}
