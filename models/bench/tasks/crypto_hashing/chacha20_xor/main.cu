// ChaCha20 (RFC 8439) stream encryption of a 256 KiB buffer: one thread per
// 64-byte keystream block (block counter = initial counter + thread index).
// The quarter-round rotations use the funnel-shift PTX instruction.
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

static const int kBlocks = 4096;   // 64-byte blocks
static const uint32_t kInitialCounter = 1;

struct ChaChaKey { uint32_t key[8]; uint32_t nonce[3]; };

__device__ inline uint32_t rotl32(uint32_t x, uint32_t n) {
    uint32_t r;
    asm("shf.l.wrap.b32 %0, %1, %1, %2;" : "=r"(r) : "r"(x), "r"(n));
    return r;
}
static inline uint32_t rotl32Host(uint32_t x, uint32_t n) { return (x << n) | (x >> (32 - n)); }

#define QR(ROT, a, b, c, d)            \
    a += b; d ^= a; d = ROT(d, 16);    \
    c += d; b ^= c; b = ROT(b, 12);    \
    a += b; d ^= a; d = ROT(d, 8);     \
    c += d; b ^= c; b = ROT(b, 7);

#define CHACHA_BLOCK(ROT, k, counter, out)                                            \
    do {                                                                               \
        uint32_t in[16] = {0x61707865u, 0x3320646eu, 0x79622d32u, 0x6b206574u,         \
                           k.key[0], k.key[1], k.key[2], k.key[3], k.key[4], k.key[5], \
                           k.key[6], k.key[7], counter, k.nonce[0], k.nonce[1], k.nonce[2]}; \
        uint32_t x[16];                                                                \
        for (int i = 0; i < 16; ++i) x[i] = in[i];                                     \
        for (int round = 0; round < 10; ++round) {                                     \
            QR(ROT, x[0], x[4], x[8], x[12]) QR(ROT, x[1], x[5], x[9], x[13])          \
            QR(ROT, x[2], x[6], x[10], x[14]) QR(ROT, x[3], x[7], x[11], x[15])        \
            QR(ROT, x[0], x[5], x[10], x[15]) QR(ROT, x[1], x[6], x[11], x[12])        \
            QR(ROT, x[2], x[7], x[8], x[13]) QR(ROT, x[3], x[4], x[9], x[14])          \
        }                                                                              \
        for (int i = 0; i < 16; ++i) out[i] = x[i] + in[i];                            \
    } while (0)

__global__ void chachaXor(ChaChaKey k, const uint32_t* plain, uint32_t* cipher, int blocks, uint32_t counter0) {
    int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= blocks) return;
    uint32_t ks[16];
    uint32_t counter = counter0 + (uint32_t)b;
    CHACHA_BLOCK(rotl32, k, counter, ks);
    for (int i = 0; i < 16; ++i) cipher[b * 16 + i] = plain[b * 16 + i] ^ ks[i];   // words are little-endian bytes
}

int main() {
    ChaChaKey k;
    for (int i = 0; i < 8; ++i)   // key bytes 00 01 02 ... 1f (RFC 8439 test key)
        k.key[i] = (uint32_t)(4 * i) | (uint32_t)(4 * i + 1) << 8 | (uint32_t)(4 * i + 2) << 16 | (uint32_t)(4 * i + 3) << 24;
    k.nonce[0] = 0x00000000u; k.nonce[1] = 0x4a000000u; k.nonce[2] = 0x00000000u;   // nonce 00..00 4a 00..00
    std::vector<uint32_t> plain(kBlocks * 16);
    uint32_t s = 0x5EED5EEDu;
    for (size_t i = 0; i < plain.size(); ++i) { s ^= s << 13; s ^= s >> 17; s ^= s << 5; plain[i] = s; }
    const char* msg = "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for";
    memcpy(plain.data(), msg, 64);                                 // first block: RFC 8439 section 2.4.2 text
    uint32_t *dPlain, *dCipher;
    CUDA_CHECK(cudaMalloc(&dPlain, plain.size() * sizeof(uint32_t)));
    CUDA_CHECK(cudaMalloc(&dCipher, plain.size() * sizeof(uint32_t)));
    CUDA_CHECK(cudaMemcpy(dPlain, plain.data(), plain.size() * sizeof(uint32_t), cudaMemcpyHostToDevice));
    chachaXor<<<kBlocks / 128, 128>>>(k, dPlain, dCipher, kBlocks, kInitialCounter);
    CUDA_CHECK(cudaGetLastError());
    std::vector<uint32_t> cipher(plain.size());
    CUDA_CHECK(cudaMemcpy(cipher.data(), dCipher, cipher.size() * sizeof(uint32_t), cudaMemcpyDeviceToHost));

    int mismatches = 0;
    uint64_t fold = 0xcbf29ce484222325ull;
    for (int b = 0; b < kBlocks; ++b) {
        uint32_t ks[16];
        uint32_t counter = kInitialCounter + (uint32_t)b;
        CHACHA_BLOCK(rotl32Host, k, counter, ks);
        for (int i = 0; i < 16; ++i) {
            mismatches += (cipher[b * 16 + i] != (plain[b * 16 + i] ^ ks[i]));
            fold = (fold ^ cipher[b * 16 + i]) * 0x100000001b3ull;
        }
    }
    const uint8_t* c0 = (const uint8_t*)cipher.data();
    static const uint8_t kRfcPrefix[16] = {0x6e, 0x2e, 0x35, 0x9a, 0x25, 0x68, 0xf9, 0x80,
                                           0x41, 0xba, 0x07, 0x28, 0xdd, 0x0d, 0x69, 0x81};
    bool rfcOk = memcmp(c0, kRfcPrefix, 16) == 0;
    printf("blocks %d bytes %d\n", kBlocks, kBlocks * 64);
    printf("ciphertext[0:16] ");
    for (int i = 0; i < 16; ++i) printf("%02x", c0[i]);
    printf(" (RFC 8439 vector %s)\n", rfcOk ? "matches" : "differs");
    printf("cipher word 50000 %08x fold %016llx\n", cipher[50000], (unsigned long long)fold);
    printf("mismatching words %d\n", mismatches);
    bool ok = mismatches == 0 && rfcOk;
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dPlain)); CUDA_CHECK(cudaFree(dCipher));
    return ok ? 0 : 1;
}
