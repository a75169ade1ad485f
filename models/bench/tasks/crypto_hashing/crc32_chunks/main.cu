// CRC-32 (IEEE 802.3, reflected 0xEDB88320) of 2048 independent 256-byte
// chunks. Each block builds the 256-entry lookup table in shared memory, then
// every thread processes one chunk byte by byte. The host self-checks its
// reference on the standard "123456789" vector.
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

static const int kChunks = 2048;
static const int kChunkBytes = 256;
static const uint32_t kPoly = 0xEDB88320u;

__host__ __device__ inline uint32_t tableEntry(uint32_t i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? (kPoly ^ (c >> 1)) : (c >> 1);
    return c;
}

__global__ void crcChunks(const uint8_t* data, uint32_t* crcs, int chunks) {
    __shared__ uint32_t table[256];
    for (int i = threadIdx.x; i < 256; i += blockDim.x) table[i] = tableEntry(i);
    __syncthreads();
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= chunks) return;
    const uint8_t* p = data + (size_t)c * kChunkBytes;
    uint32_t crc = 0xFFFFFFFFu;
    for (int i = 0; i < kChunkBytes; i += 4) {
        uint32_t word = *(const uint32_t*)(p + i);          // 4-byte aligned little-endian load
        for (int b = 0; b < 4; ++b) {
            crc = table[(crc ^ (word >> (8 * b))) & 0xFFu] ^ (crc >> 8);
        }
    }
    crcs[c] = crc ^ 0xFFFFFFFFu;
}

static uint32_t crcBitwise(const uint8_t* p, size_t n) {
    uint32_t crc = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; ++i) {
        crc ^= p[i];
        for (int k = 0; k < 8; ++k) crc = (crc & 1) ? (kPoly ^ (crc >> 1)) : (crc >> 1);
    }
    return crc ^ 0xFFFFFFFFu;
}

int main() {
    const char* vec = "123456789";
    uint32_t selfTest = crcBitwise((const uint8_t*)vec, 9);
    std::vector<uint8_t> data((size_t)kChunks * kChunkBytes);
    uint32_t s = 0xDEADBEEFu;
    for (size_t i = 0; i < data.size(); ++i) {
        s ^= s << 13; s ^= s >> 17; s ^= s << 5;
        data[i] = (uint8_t)(s >> 24);
    }
    for (int i = 0; i < 9; ++i) data[i] = (uint8_t)vec[i];   // chunk 0 starts with the test vector
    uint8_t* dData; uint32_t* dCrc;
    CUDA_CHECK(cudaMalloc(&dData, data.size()));
    CUDA_CHECK(cudaMalloc(&dCrc, kChunks * sizeof(uint32_t)));
    CUDA_CHECK(cudaMemcpy(dData, data.data(), data.size(), cudaMemcpyHostToDevice));
    crcChunks<<<kChunks / 128, 128>>>(dData, dCrc, kChunks);
    CUDA_CHECK(cudaGetLastError());
    std::vector<uint32_t> crcs(kChunks);
    CUDA_CHECK(cudaMemcpy(crcs.data(), dCrc, kChunks * sizeof(uint32_t), cudaMemcpyDeviceToHost));

    int mismatches = 0;
    uint32_t folded = 0;
    for (int c = 0; c < kChunks; ++c) {
        mismatches += (crcs[c] != crcBitwise(&data[(size_t)c * kChunkBytes], kChunkBytes));
        folded = (folded << 5 | folded >> 27) ^ crcs[c];
    }
    printf("self-test crc32(\"123456789\") = %08x (expected cbf43926)\n", selfTest);
    printf("chunks %d x %d bytes\n", kChunks, kChunkBytes);
    printf("crc[0] %08x crc[1] %08x crc[2047] %08x folded %08x\n", crcs[0], crcs[1], crcs[kChunks - 1], folded);
    printf("mismatches %d\n", mismatches);
    bool ok = mismatches == 0 && selfTest == 0xCBF43926u;
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dData)); CUDA_CHECK(cudaFree(dCrc));
    return ok ? 0 : 1;
}
