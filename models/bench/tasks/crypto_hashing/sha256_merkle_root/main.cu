// Merkle tree over 256 leaves with SHA-256. Each leaf is a 64-byte record;
// each inner node hashes the 64-byte concatenation of its children. One launch
// per tree level; the round constants live in constant memory and the final
// root is printed by a single device thread.
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

static const int kLeaves = 256;
#define ROTR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static const uint32_t hK[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};
__constant__ uint32_t cK[64];

__host__ __device__ inline void sha256Compress(uint32_t st[8], const uint32_t block[16], const uint32_t* K) {
    uint32_t w[64];
    for (int i = 0; i < 16; ++i) w[i] = block[i];
    for (int i = 16; i < 64; ++i) {
        uint32_t s0 = ROTR(w[i - 15], 7) ^ ROTR(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = ROTR(w[i - 2], 17) ^ ROTR(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = st[0], b = st[1], c = st[2], d = st[3], e = st[4], f = st[5], g = st[6], h = st[7];
    for (int i = 0; i < 64; ++i) {
        uint32_t t1 = h + (ROTR(e, 6) ^ ROTR(e, 11) ^ ROTR(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
        uint32_t t2 = (ROTR(a, 2) ^ ROTR(a, 13) ^ ROTR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        h = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
    }
    st[0] += a; st[1] += b; st[2] += c; st[3] += d; st[4] += e; st[5] += f; st[6] += g; st[7] += h;
}

// SHA-256 of exactly 64 bytes given as 16 big-endian words
__host__ __device__ inline void sha256Of64(const uint32_t msg[16], uint32_t out[8], const uint32_t* K) {
    uint32_t st[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    sha256Compress(st, msg, K);
    uint32_t pad[16] = {0x80000000u, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 512u};
    sha256Compress(st, pad, K);
    for (int i = 0; i < 8; ++i) out[i] = st[i];
}

__global__ void hashLeaves(const uint32_t* records, uint32_t* digests, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint32_t msg[16], out[8];
    for (int k = 0; k < 16; ++k) msg[k] = records[i * 16 + k];
    sha256Of64(msg, out, cK);
    for (int k = 0; k < 8; ++k) digests[i * 8 + k] = out[k];
}

__global__ void hashLevel(const uint32_t* children, uint32_t* parents, int numParents) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= numParents) return;
    uint32_t msg[16], out[8];
    for (int k = 0; k < 16; ++k) msg[k] = children[i * 16 + k];   // left digest then right digest
    sha256Of64(msg, out, cK);
    for (int k = 0; k < 8; ++k) parents[i * 8 + k] = out[k];
}

__global__ void printRoot(const uint32_t* root) {
    if (threadIdx.x == 0)
        printf("device root %08x%08x%08x%08x%08x%08x%08x%08x\n", root[0], root[1], root[2], root[3],
               root[4], root[5], root[6], root[7]);
}

int main() {
    CUDA_CHECK(cudaMemcpyToSymbol(cK, hK, sizeof(hK)));
    std::vector<uint32_t> records(kLeaves * 16);
    uint32_t s = 0xC0FFEEu;
    for (size_t i = 0; i < records.size(); ++i) { s = s * 1664525u + 1013904223u; records[i] = s; }
    uint32_t *dRecords, *dA, *dB;
    CUDA_CHECK(cudaMalloc(&dRecords, records.size() * sizeof(uint32_t)));
    CUDA_CHECK(cudaMalloc(&dA, kLeaves * 8 * sizeof(uint32_t)));
    CUDA_CHECK(cudaMalloc(&dB, kLeaves * 8 * sizeof(uint32_t)));
    CUDA_CHECK(cudaMemcpy(dRecords, records.data(), records.size() * sizeof(uint32_t), cudaMemcpyHostToDevice));
    hashLeaves<<<kLeaves / 128, 128>>>(dRecords, dA, kLeaves);
    CUDA_CHECK(cudaGetLastError());
    std::vector<uint32_t> leafDigests(kLeaves * 8);
    CUDA_CHECK(cudaMemcpy(leafDigests.data(), dA, leafDigests.size() * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    uint32_t *cur = dA, *nxt = dB;
    for (int parents = kLeaves / 2; parents >= 1; parents /= 2) {
        hashLevel<<<(parents + 127) / 128, 128>>>(cur, nxt, parents);
        CUDA_CHECK(cudaGetLastError());
        uint32_t* t = cur; cur = nxt; nxt = t;
    }
    fflush(stdout);
    printRoot<<<1, 32>>>(cur);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    fflush(stdout);
    uint32_t root[8];
    CUDA_CHECK(cudaMemcpy(root, cur, sizeof(root), cudaMemcpyDeviceToHost));

    // CPU reference tree
    std::vector<uint32_t> level(kLeaves * 8);
    int mismatches = 0;
    for (int i = 0; i < kLeaves; ++i) {
        sha256Of64(&records[i * 16], &level[i * 8], hK);
        for (int k = 0; k < 8; ++k) mismatches += (level[i * 8 + k] != leafDigests[i * 8 + k]);
    }
    for (int n = kLeaves / 2; n >= 1; n /= 2) {
        std::vector<uint32_t> up(n * 8);
        for (int i = 0; i < n; ++i) sha256Of64(&level[i * 16], &up[i * 8], hK);
        level.swap(up);
    }
    for (int k = 0; k < 8; ++k) mismatches += (root[k] != level[k]);
    printf("leaves %d levels %d\n", kLeaves, 8);
    printf("leaf[0] digest %08x%08x%08x%08x...\n", leafDigests[0], leafDigests[1], leafDigests[2], leafDigests[3]);
    printf("root %08x%08x%08x%08x%08x%08x%08x%08x\n", root[0], root[1], root[2], root[3], root[4], root[5], root[6], root[7]);
    printf("mismatching words %d\n", mismatches);
    bool ok = mismatches == 0;
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dRecords)); CUDA_CHECK(cudaFree(dA)); CUDA_CHECK(cudaFree(dB));
    return ok ? 0 : 1;
}
