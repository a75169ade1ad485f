// XTEA block cipher in counter mode: each thread encrypts the counter block
// (nonce, index) to make 8 keystream bytes and XORs its 64-bit word of the
// message; a second launch decrypts by the same keystream, and a third checks
// the XTEA decryption routine inverts encryption. The round count is a
// template parameter (32 cycles = 64 Feistel rounds).
#include <cstdio>
#include <cstdlib>
#include <cstdint>
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

static const int kWords = 16384;            // 64-bit words: 128 KiB message
static const uint32_t kDelta = 0x9E3779B9u;
__constant__ uint32_t cKey[4];

template <int CYCLES>
__host__ __device__ inline uint2 xteaEncrypt(uint2 v, const uint32_t* k) {
    uint32_t v0 = v.x, v1 = v.y, sum = 0;
    for (int i = 0; i < CYCLES; ++i) {
        v0 += (((v1 << 4) ^ (v1 >> 5)) + v1) ^ (sum + k[sum & 3]);
        sum += kDelta;
        v1 += (((v0 << 4) ^ (v0 >> 5)) + v0) ^ (sum + k[(sum >> 11) & 3]);
    }
    return make_uint2(v0, v1);
}

template <int CYCLES>
__host__ __device__ inline uint2 xteaDecrypt(uint2 v, const uint32_t* k) {
    uint32_t v0 = v.x, v1 = v.y, sum = kDelta * (uint32_t)CYCLES;
    for (int i = 0; i < CYCLES; ++i) {
        v1 -= (((v0 << 4) ^ (v0 >> 5)) + v0) ^ (sum + k[(sum >> 11) & 3]);
        sum -= kDelta;
        v0 -= (((v1 << 4) ^ (v1 >> 5)) + v1) ^ (sum + k[sum & 3]);
    }
    return make_uint2(v0, v1);
}

template <int CYCLES>
__global__ void ctrXor(const uint2* in, uint2* out, uint32_t nonce, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint2 ks = xteaEncrypt<CYCLES>(make_uint2(nonce, (uint32_t)i), cKey);
    uint2 m = in[i];
    out[i] = make_uint2(m.x ^ ks.x, m.y ^ ks.y);
}

template <int CYCLES>
__global__ void inverseCheck(const uint2* blocks, int n, unsigned int* failures) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint2 b = blocks[i];
    uint2 back = xteaDecrypt<CYCLES>(xteaEncrypt<CYCLES>(b, cKey), cKey);
    if (back.x != b.x || back.y != b.y) atomicAdd(failures, 1u);
}

int main() {
    const uint32_t key[4] = {0x01234567u, 0x89ABCDEFu, 0xFEDCBA98u, 0x76543210u};
    const uint32_t nonce = 0xC0DEC0DEu;
    CUDA_CHECK(cudaMemcpyToSymbol(cKey, key, sizeof(key)));
    std::vector<uint2> plain(kWords);
    uint32_t s = 0x7EA7EA7Eu;
    for (int i = 0; i < kWords; ++i) {
        s ^= s << 13; s ^= s >> 17; s ^= s << 5; uint32_t a = s;
        s ^= s << 13; s ^= s >> 17; s ^= s << 5;
        plain[i] = make_uint2(a, s);
    }
    uint2 *dPlain, *dCipher, *dBack; unsigned int* dFail;
    size_t bytes = kWords * sizeof(uint2);
    CUDA_CHECK(cudaMalloc(&dPlain, bytes)); CUDA_CHECK(cudaMalloc(&dCipher, bytes)); CUDA_CHECK(cudaMalloc(&dBack, bytes));
    CUDA_CHECK(cudaMalloc(&dFail, sizeof(unsigned int)));
    CUDA_CHECK(cudaMemset(dFail, 0, sizeof(unsigned int)));
    CUDA_CHECK(cudaMemcpy(dPlain, plain.data(), bytes, cudaMemcpyHostToDevice));
    ctrXor<32><<<kWords / 256, 256>>>(dPlain, dCipher, nonce, kWords);
    CUDA_CHECK(cudaGetLastError());
    ctrXor<32><<<kWords / 256, 256>>>(dCipher, dBack, nonce, kWords);
    CUDA_CHECK(cudaGetLastError());
    inverseCheck<32><<<kWords / 256 / 16, 256>>>(dPlain, kWords / 16, dFail);
    CUDA_CHECK(cudaGetLastError());
    std::vector<uint2> cipher(kWords), back(kWords);
    unsigned int failures = 0;
    CUDA_CHECK(cudaMemcpy(cipher.data(), dCipher, bytes, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(back.data(), dBack, bytes, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&failures, dFail, sizeof(failures), cudaMemcpyDeviceToHost));

    int mismatches = 0, roundTrip = 0;
    uint64_t fold = 0x84222325CBF29CE4ull;
    for (int i = 0; i < kWords; ++i) {
        uint2 ks = xteaEncrypt<32>(make_uint2(nonce, (uint32_t)i), key);
        mismatches += (cipher[i].x != (plain[i].x ^ ks.x)) || (cipher[i].y != (plain[i].y ^ ks.y));
        roundTrip += (back[i].x != plain[i].x) || (back[i].y != plain[i].y);
        fold = (fold ^ ((uint64_t)cipher[i].y << 32 | cipher[i].x)) * 0x100000001B3ull;
    }
    uint2 probe = xteaEncrypt<32>(make_uint2(0u, 0u), key);
    printf("words %d (64-bit) cycles 32\n", kWords);
    printf("E_k(0,0) = %08x %08x\n", probe.x, probe.y);
    printf("cipher[0] %08x%08x cipher[last] %08x%08x fold %016llx\n", cipher[0].y, cipher[0].x,
           cipher[kWords - 1].y, cipher[kWords - 1].x, (unsigned long long)fold);
    printf("keystream mismatches %d round-trip errors %d decrypt(encrypt) failures %u\n", mismatches, roundTrip, failures);
    bool ok = mismatches == 0 && roundTrip == 0 && failures == 0;
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dPlain)); CUDA_CHECK(cudaFree(dCipher)); CUDA_CHECK(cudaFree(dBack)); CUDA_CHECK(cudaFree(dFail));
    return ok ? 0 : 1;
}
