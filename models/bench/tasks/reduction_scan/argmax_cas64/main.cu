// Global argmax via 64-bit packed atomicMax, a double minimum via an atomicCAS loop, and a 64-bit integer sum.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>
#include <vector>
#include <cstring>
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

// Order-preserving map from float to unsigned int (so unsigned comparison orders the floats).
__device__ __forceinline__ unsigned int float_to_ordered(float f) {
    const unsigned int u = __float_as_uint(f);
    return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}
__host__ __device__ inline float ordered_to_float(unsigned int u) {
    const unsigned int bits = (u & 0x80000000u) ? (u & 0x7fffffffu) : ~u;
    float f;
    memcpy(&f, &bits, sizeof(f));
    return f;
}

__device__ double atomic_min_double(double* address, double value) {
    unsigned long long* as_ull = reinterpret_cast<unsigned long long*>(address);
    unsigned long long old = *as_ull, assumed;
    do {
        assumed = old;
        if (__longlong_as_double((long long)assumed) <= value) break;
        old = atomicCAS(as_ull, assumed, (unsigned long long)__double_as_longlong(value));
    } while (assumed != old);
    return __longlong_as_double((long long)old);
}

__global__ void extremes(const float* __restrict__ x, const double* __restrict__ d, int n,
                         unsigned long long* packed_max, double* min_d,
                         unsigned long long* fixed_sum) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    // High word: ordered value; low word: inverted index so ties prefer the lowest index.
    const unsigned long long key =
        ((unsigned long long)float_to_ordered(x[i]) << 32) | (unsigned long long)(0xffffffffu - (unsigned)i);
    atomicMax(packed_max, key);
    atomic_min_double(min_d, d[i]);
    atomicAdd(fixed_sum, (unsigned long long)llround(fabs(d[i]) * 1e6));
}

int main() {
    g_seed = 8675309u;
    const int n = 32768;
    std::vector<float> x(n);
    std::vector<double> d(n);
    for (int i = 0; i < n; ++i) {
        x[i] = (float)((int)(next_u32() % 20001u) - 10000) * 0.01f;  // ties are likely
        d[i] = (double)next_uniform() * 1000.0 + (double)next_uniform();
    }
    float* dx;
    double *dd, *dmin;
    unsigned long long *dmax, *dsum;
    CUDA_CHECK(cudaMalloc(&dx, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dd, n * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&dmin, sizeof(double)));
    CUDA_CHECK(cudaMalloc(&dmax, sizeof(unsigned long long)));
    CUDA_CHECK(cudaMalloc(&dsum, sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dd, d.data(), n * sizeof(double), cudaMemcpyHostToDevice));
    const double big = 1e300;
    CUDA_CHECK(cudaMemcpy(dmin, &big, sizeof(double), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(dmax, 0, sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemset(dsum, 0, sizeof(unsigned long long)));
    extremes<<<(n + 255) / 256, 256>>>(dx, dd, n, dmax, dmin, dsum);
    CUDA_CHECK(cudaGetLastError());
    unsigned long long packed = 0, fsum = 0;
    double mind = 0.0;
    CUDA_CHECK(cudaMemcpy(&packed, dmax, sizeof(packed), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&fsum, dsum, sizeof(fsum), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&mind, dmin, sizeof(mind), cudaMemcpyDeviceToHost));
    const float max_value = ordered_to_float((unsigned int)(packed >> 32));
    const int max_index = (int)(0xffffffffu - (unsigned int)(packed & 0xffffffffu));

    float rmax = x[0];
    int rarg = 0;
    double rmin = d[0];
    unsigned long long rsum = 0;
    for (int i = 0; i < n; ++i) {
        if (x[i] > rmax) {
            rmax = x[i];
            rarg = i;
        }
        rmin = d[i] < rmin ? d[i] : rmin;
        rsum += (unsigned long long)llround(fabs(d[i]) * 1e6);
    }
    printf("n %d\n", n);
    printf("argmax %d value %.4f\n", max_index, max_value);
    printf("min_double %.12e\n", mind);
    printf("fixed_point_sum %llu\n", fsum);
    const bool ok = max_value == rmax && max_index == rarg && mind == rmin && fsum == rsum;
    CUDA_CHECK(cudaFree(dx));
    CUDA_CHECK(cudaFree(dd));
    CUDA_CHECK(cudaFree(dmin));
    CUDA_CHECK(cudaFree(dmax));
    CUDA_CHECK(cudaFree(dsum));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
