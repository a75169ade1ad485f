// Histogram equalisation of an 8-bit image in three kernels: a shared-memory
// histogram, a single-block CDF scan that builds the lookup table, and a remap
// that stages the table in shared memory. Buffers use managed memory.
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

static const int kWidth = 256;
static const int kHeight = 256;
static const int kLevels = 256;

__global__ void histogram256(const unsigned char* img, int n, unsigned int* hist) {
    __shared__ unsigned int local[kLevels];
    local[threadIdx.x] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[img[i]], 1u);
    __syncthreads();
    if (local[threadIdx.x]) atomicAdd(&hist[threadIdx.x], local[threadIdx.x]);
}

// one block of 256 threads: Hillis-Steele inclusive scan, then the LUT
__global__ void buildLut(const unsigned int* hist, unsigned char* lut, unsigned int total) {
    __shared__ unsigned int cdf[kLevels];
    __shared__ unsigned int cdfMin;
    int t = threadIdx.x;
    cdf[t] = hist[t];
    __syncthreads();
    for (int offset = 1; offset < kLevels; offset <<= 1) {
        unsigned int add = t >= offset ? cdf[t - offset] : 0u;
        __syncthreads();
        cdf[t] += add;
        __syncthreads();
    }
    if (t == 0) {
        unsigned int m = 0;
        for (int i = 0; i < kLevels; ++i) if (cdf[i] != 0) { m = cdf[i]; break; }
        cdfMin = m;
    }
    __syncthreads();
    unsigned int denom = total - cdfMin;
    unsigned int num = cdf[t] > cdfMin ? cdf[t] - cdfMin : 0u;
    lut[t] = denom ? (unsigned char)((num * 255u + denom / 2) / denom) : (unsigned char)t;
}

__global__ void applyLut(const unsigned char* img, unsigned char* out, int n, const unsigned char* lut) {
    __shared__ unsigned char table[kLevels];
    table[threadIdx.x] = lut[threadIdx.x];
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = table[img[i]];
}

int main() {
    const int n = kWidth * kHeight;
    unsigned char *img, *out, *lut;
    unsigned int* hist;
    CUDA_CHECK(cudaMallocManaged(&img, n));
    CUDA_CHECK(cudaMallocManaged(&out, n));
    CUDA_CHECK(cudaMallocManaged(&lut, kLevels));
    CUDA_CHECK(cudaMallocManaged(&hist, kLevels * sizeof(unsigned int)));
    uint32_t s = 424242u;
    for (int i = 0; i < n; ++i) {
        s ^= s << 13; s ^= s >> 17; s ^= s << 5;
        // low-contrast image: values squeezed into [70, 130)
        img[i] = (unsigned char)(70 + ((s & 63) + ((s >> 8) & 63) + (i % kWidth) / 8) / 2 % 60);
    }
    for (int i = 0; i < kLevels; ++i) hist[i] = 0;

    histogram256<<<32, kLevels>>>(img, n, hist);
    CUDA_CHECK(cudaGetLastError());
    buildLut<<<1, kLevels>>>(hist, lut, (unsigned int)n);
    CUDA_CHECK(cudaGetLastError());
    applyLut<<<(n + kLevels - 1) / kLevels, kLevels>>>(img, out, n, lut);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    unsigned int refHist[kLevels] = {0};
    for (int i = 0; i < n; ++i) refHist[img[i]]++;
    unsigned int cdf[kLevels], acc = 0, cdfMin = 0;
    for (int i = 0; i < kLevels; ++i) { acc += refHist[i]; cdf[i] = acc; }
    for (int i = 0; i < kLevels; ++i) if (cdf[i]) { cdfMin = cdf[i]; break; }
    unsigned char refLut[kLevels];
    unsigned int denom = (unsigned int)n - cdfMin;
    for (int i = 0; i < kLevels; ++i) {
        unsigned int num = cdf[i] > cdfMin ? cdf[i] - cdfMin : 0u;
        refLut[i] = denom ? (unsigned char)((num * 255u + denom / 2) / denom) : (unsigned char)i;
    }
    int mismatches = 0, inMin = 255, inMax = 0, outMin = 255, outMax = 0;
    unsigned long long checksum = 0;
    for (int i = 0; i < kLevels; ++i) mismatches += (hist[i] != refHist[i]) + (lut[i] != refLut[i]);
    for (int i = 0; i < n; ++i) {
        mismatches += (out[i] != refLut[img[i]]);
        inMin = img[i] < inMin ? img[i] : inMin; inMax = img[i] > inMax ? img[i] : inMax;
        outMin = out[i] < outMin ? out[i] : outMin; outMax = out[i] > outMax ? out[i] : outMax;
        checksum += (unsigned long long)out[i] * (unsigned)(i % 251 + 1);
    }
    printf("input range [%d, %d] output range [%d, %d]\n", inMin, inMax, outMin, outMax);
    printf("lut[80]=%d lut[100]=%d lut[120]=%d\n", lut[80], lut[100], lut[120]);
    printf("equalised checksum %llu\n", checksum);
    printf("mismatches %d\n", mismatches);
    bool ok = mismatches == 0;
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(img)); CUDA_CHECK(cudaFree(out)); CUDA_CHECK(cudaFree(lut)); CUDA_CHECK(cudaFree(hist));
    return ok ? 0 : 1;
}
