// SHA-512 hash chains: each thread hashes its message (up to 111 bytes, one
// 1024-bit block) and then re-hashes the 64-byte digest three more times.
// 64-bit rotations and additions throughout; the 80 round constants are in
// constant memory. Message 0 is "abc" (FIPS 180-4 example), checked after the
// first link of its chain on the host reference.
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

static const int kMessages = 1024;
static const int kSlot = 112;
static const int kChain = 4;
static const uint64_t hK[80] = {
0x428a2f98d728ae22ull, 0x7137449123ef65cdull, 0xb5c0fbcfec4d3b2full, 0xe9b5dba58189dbbcull,
0x3956c25bf348b538ull, 0x59f111f1b605d019ull, 0x923f82a4af194f9bull, 0xab1c5ed5da6d8118ull,
0xd807aa98a3030242ull, 0x12835b0145706fbeull, 0x243185be4ee4b28cull, 0x550c7dc3d5ffb4e2ull,
0x72be5d74f27b896full, 0x80deb1fe3b1696b1ull, 0x9bdc06a725c71235ull, 0xc19bf174cf692694ull,
0xe49b69c19ef14ad2ull, 0xefbe4786384f25e3ull, 0x0fc19dc68b8cd5b5ull, 0x240ca1cc77ac9c65ull,
0x2de92c6f592b0275ull, 0x4a7484aa6ea6e483ull, 0x5cb0a9dcbd41fbd4ull, 0x76f988da831153b5ull,
0x983e5152ee66dfabull, 0xa831c66d2db43210ull, 0xb00327c898fb213full, 0xbf597fc7beef0ee4ull,
0xc6e00bf33da88fc2ull, 0xd5a79147930aa725ull, 0x06ca6351e003826full, 0x142929670a0e6e70ull,
0x27b70a8546d22ffcull, 0x2e1b21385c26c926ull, 0x4d2c6dfc5ac42aedull, 0x53380d139d95b3dfull,
0x650a73548baf63deull, 0x766a0abb3c77b2a8ull, 0x81c2c92e47edaee6ull, 0x92722c851482353bull,
0xa2bfe8a14cf10364ull, 0xa81a664bbc423001ull, 0xc24b8b70d0f89791ull, 0xc76c51a30654be30ull,
0xd192e819d6ef5218ull, 0xd69906245565a910ull, 0xf40e35855771202aull, 0x106aa07032bbd1b8ull,
0x19a4c116b8d2d0c8ull, 0x1e376c085141ab53ull, 0x2748774cdf8eeb99ull, 0x34b0bcb5e19b48a8ull,
0x391c0cb3c5c95a63ull, 0x4ed8aa4ae3418acbull, 0x5b9cca4f7763e373ull, 0x682e6ff3d6b2b8a3ull,
0x748f82ee5defb2fcull, 0x78a5636f43172f60ull, 0x84c87814a1f0ab72ull, 0x8cc702081a6439ecull,
0x90befffa23631e28ull, 0xa4506cebde82bde9ull, 0xbef9a3f7b2c67915ull, 0xc67178f2e372532bull,
0xca273eceea26619cull, 0xd186b8c721c0c207ull, 0xeada7dd6cde0eb1eull, 0xf57d4f7fee6ed178ull,
0x06f067aa72176fbaull, 0x0a637dc5a2c898a6ull, 0x113f9804bef90daeull, 0x1b710b35131c471bull,
0x28db77f523047d84ull, 0x32caab7b40c72493ull, 0x3c9ebe0a15c9bebcull, 0x431d67c49c100d4cull,
0x4cc5d4becb3e42b6ull, 0x597f299cfc657e2aull, 0x5fcb6fab3ad6faecull, 0x6c44198c4a475817ull};
static const uint64_t hInit[8] = {0x6a09e667f3bcc908ull, 0xbb67ae8584caa73bull, 0x3c6ef372fe94f82bull, 0xa54ff53a5f1d36f1ull, 0x510e527fade682d1ull, 0x9b05688c2b3e6c1full, 0x1f83d9abfb41bd6bull, 0x5be0cd19137e2179ull};
__constant__ uint64_t cK[80];
__constant__ uint64_t cInit[8];

__host__ __device__ inline uint64_t rotr64(uint64_t x, int n) { return (x >> n) | (x << (64 - n)); }

// SHA-512 of a message of at most 111 bytes (a single padded block)
__host__ __device__ void sha512Short(const uint8_t* msg, int len, uint64_t out[8], const uint64_t* K, const uint64_t* init) {
    uint64_t w[80];
    for (int i = 0; i < 16; ++i) w[i] = 0;
    for (int i = 0; i < len; ++i) w[i / 8] |= (uint64_t)msg[i] << (56 - 8 * (i % 8));
    w[len / 8] |= 0x80ull << (56 - 8 * (len % 8));
    w[15] = (uint64_t)len * 8;
    for (int i = 16; i < 80; ++i) {
        uint64_t s0 = rotr64(w[i - 15], 1) ^ rotr64(w[i - 15], 8) ^ (w[i - 15] >> 7);
        uint64_t s1 = rotr64(w[i - 2], 19) ^ rotr64(w[i - 2], 61) ^ (w[i - 2] >> 6);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint64_t a = init[0], b = init[1], c = init[2], d = init[3], e = init[4], f = init[5], g = init[6], h = init[7];
    for (int i = 0; i < 80; ++i) {
        uint64_t t1 = h + (rotr64(e, 14) ^ rotr64(e, 18) ^ rotr64(e, 41)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
        uint64_t t2 = (rotr64(a, 28) ^ rotr64(a, 34) ^ rotr64(a, 39)) + ((a & b) ^ (a & c) ^ (b & c));
        h = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
    }
    out[0] = init[0] + a; out[1] = init[1] + b; out[2] = init[2] + c; out[3] = init[3] + d;
    out[4] = init[4] + e; out[5] = init[5] + f; out[6] = init[6] + g; out[7] = init[7] + h;
}

__host__ __device__ inline void digestBytes(const uint64_t d[8], uint8_t out[64]) {
    for (int i = 0; i < 64; ++i) out[i] = (uint8_t)(d[i / 8] >> (56 - 8 * (i % 8)));
}

__host__ __device__ void hashChain(const uint8_t* msg, int len, uint64_t out[8], const uint64_t* K, const uint64_t* init) {
    sha512Short(msg, len, out, K, init);
    for (int link = 1; link < kChain; ++link) {
        uint8_t bytes[64];
        digestBytes(out, bytes);
        sha512Short(bytes, 64, out, K, init);
    }
}

__global__ void chains(const uint8_t* data, const int* lengths, uint64_t* digests, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint8_t msg[kSlot];
    for (int b = 0; b < lengths[i]; ++b) msg[b] = data[i * kSlot + b];
    uint64_t d[8];
    hashChain(msg, lengths[i], d, cK, cInit);
    for (int k = 0; k < 8; ++k) digests[i * 8 + k] = d[k];
}

int main() {
    CUDA_CHECK(cudaMemcpyToSymbol(cK, hK, sizeof(hK)));
    CUDA_CHECK(cudaMemcpyToSymbol(cInit, hInit, sizeof(hInit)));
    std::vector<uint8_t> data(kMessages * kSlot, 0);
    std::vector<int> lengths(kMessages);
    uint32_t s = 0x5A512u;
    for (int i = 0; i < kMessages; ++i) {
        lengths[i] = i % (kSlot);
        for (int b = 0; b < lengths[i]; ++b) { s = s * 1664525u + 1013904223u; data[i * kSlot + b] = (uint8_t)(s >> 24); }
    }
    lengths[0] = 3; memcpy(&data[0], "abc", 3);
    uint8_t* dData; int* dLen; uint64_t* dDig;
    CUDA_CHECK(cudaMalloc(&dData, data.size()));
    CUDA_CHECK(cudaMalloc(&dLen, kMessages * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dDig, kMessages * 64));
    CUDA_CHECK(cudaMemcpy(dData, data.data(), data.size(), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dLen, lengths.data(), kMessages * sizeof(int), cudaMemcpyHostToDevice));
    chains<<<kMessages / 64, 64>>>(dData, dLen, dDig, kMessages);
    CUDA_CHECK(cudaGetLastError());
    std::vector<uint64_t> dig(kMessages * 8);
    CUDA_CHECK(cudaMemcpy(dig.data(), dDig, dig.size() * 8, cudaMemcpyDeviceToHost));

    uint64_t abc[8];
    sha512Short((const uint8_t*)"abc", 3, abc, hK, hInit);
    bool vectorOk = abc[0] == 0xddaf35a193617abaull && abc[7] == 0x2a9ac94fa54ca49full;
    int mismatches = 0;
    uint64_t fold = 0;
    for (int i = 0; i < kMessages; ++i) {
        uint64_t d[8];
        hashChain(&data[i * kSlot], lengths[i], d, hK, hInit);
        for (int k = 0; k < 8; ++k) { mismatches += (d[k] != dig[i * 8 + k]); fold ^= rotr64(dig[i * 8 + k], (i + k) % 63 + 1); }
    }
    printf("messages %d chain length %d\n", kMessages, kChain);
    printf("sha512(\"abc\") starts %016llx ends %016llx (FIPS 180-4 %s)\n", (unsigned long long)abc[0],
           (unsigned long long)abc[7], vectorOk ? "matches" : "differs");
    printf("chain[0] %016llx%016llx... chain[1023] %016llx%016llx...\n", (unsigned long long)dig[0], (unsigned long long)dig[1],
           (unsigned long long)dig[1023 * 8], (unsigned long long)dig[1023 * 8 + 1]);
    printf("fold %016llx mismatching words %d\n", (unsigned long long)fold, mismatches);
    bool ok = vectorOk && mismatches == 0;
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dData)); CUDA_CHECK(cudaFree(dLen)); CUDA_CHECK(cudaFree(dDig));
    return ok ? 0 : 1;
}
