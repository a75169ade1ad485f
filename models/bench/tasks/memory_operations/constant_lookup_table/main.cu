// Byte substitution through a __constant__ S-box with uchar4 accesses, a __device__ counter read back with cudaMemcpyFromSymbol.
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

__constant__ unsigned char c_sbox[256];
__constant__ int c_weights[16];
__device__ unsigned int d_high_bytes;  // bytes >= 0x80 after substitution

__global__ void substitute(const uchar4* __restrict__ in, uchar4* __restrict__ out, int n4,
                           unsigned char key) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n4) return;
    const uchar4 v = in[i];
    uchar4 r;
    r.x = c_sbox[v.x] ^ key;
    r.y = c_sbox[v.y] ^ key;
    r.z = c_sbox[v.z] ^ key;
    r.w = c_sbox[v.w] ^ key;
    out[i] = r;
    const unsigned high = (r.x >> 7) + (r.y >> 7) + (r.z >> 7) + (r.w >> 7);
    if (high) atomicAdd(&d_high_bytes, high);
}

__global__ void weighted_checksum(const unsigned char* __restrict__ bytes, int n,
                                  unsigned long long* __restrict__ total) {
    __shared__ unsigned long long partial[256];
    unsigned long long s = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        s += (unsigned long long)bytes[i] * (unsigned long long)c_weights[i & 15];
    partial[threadIdx.x] = s;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(total, partial[0]);
}

int main() {
    g_seed = 2001u;
    const int n = 1 << 16;
    const unsigned char key = 0x5a;
    unsigned char sbox[256];
    int weights[16];
    for (int i = 0; i < 256; ++i) sbox[i] = (unsigned char)i;
    for (int i = 255; i > 0; --i) {
        const int j = (int)(next_u32() % (uint32_t)(i + 1));
        const unsigned char t = sbox[i]; sbox[i] = sbox[j]; sbox[j] = t;
    }
    for (int i = 0; i < 16; ++i) weights[i] = 2 * i + 1;
    std::vector<unsigned char> h(n), out(n);
    for (auto& b : h) b = (unsigned char)(next_u32() >> 24);
    CUDA_CHECK(cudaMemcpyToSymbol(c_sbox, sbox, sizeof(sbox)));
    CUDA_CHECK(cudaMemcpyToSymbol(c_weights, weights, sizeof(weights)));
    const unsigned int zero = 0;
    CUDA_CHECK(cudaMemcpyToSymbol(d_high_bytes, &zero, sizeof(zero)));
    unsigned char *d_in, *d_out;
    unsigned long long* d_total;
    CUDA_CHECK(cudaMalloc(&d_in, n));
    CUDA_CHECK(cudaMalloc(&d_out, n));
    CUDA_CHECK(cudaMalloc(&d_total, sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemset(d_total, 0, sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemcpy(d_in, h.data(), n, cudaMemcpyHostToDevice));
    substitute<<<n / 4 / 256, 256>>>(reinterpret_cast<uchar4*>(d_in), reinterpret_cast<uchar4*>(d_out), n / 4, key);
    CUDA_CHECK(cudaGetLastError());
    weighted_checksum<<<32, 256>>>(d_out, n, d_total);
    CUDA_CHECK(cudaGetLastError());
    unsigned int high = 0;
    unsigned long long total = 0;
    CUDA_CHECK(cudaMemcpyFromSymbol(&high, d_high_bytes, sizeof(high)));
    CUDA_CHECK(cudaMemcpy(&total, d_total, sizeof(total), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(out.data(), d_out, n, cudaMemcpyDeviceToHost));

    bool ok = true;
    unsigned int ref_high = 0;
    unsigned long long ref_total = 0;
    for (int i = 0; i < n; ++i) {
        const unsigned char r = sbox[h[i]] ^ key;
        if (out[i] != r) ok = false;
        ref_high += r >> 7;
        ref_total += (unsigned long long)r * weights[i & 15];
    }
    ok = ok && high == ref_high && total == ref_total;
    printf("sbox substitution n %d\n", n);
    printf("high_bytes %u weighted_checksum %llu\n", high, total);
    printf("out[0..3] %u %u %u %u\n", out[0], out[1], out[2], out[3]);
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    CUDA_CHECK(cudaFree(d_total));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
