// Two-pass tree reduction (sum, max, min) of 64-bit integers with dynamic shared memory and operator functors.
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

#include <climits>

struct SumOp {
    static constexpr long long identity = 0;
    __device__ long long operator()(long long a, long long b) const { return a + b; }
};
struct MaxOp {
    static constexpr long long identity = LLONG_MIN;
    __device__ long long operator()(long long a, long long b) const { return a > b ? a : b; }
};
struct MinOp {
    static constexpr long long identity = LLONG_MAX;
    __device__ long long operator()(long long a, long long b) const { return a < b ? a : b; }
};

template <typename Op>
__global__ void reduce_pass(const long long* __restrict__ in, long long* __restrict__ out, int n) {
    extern __shared__ long long sdata[];
    Op op;
    const int tid = threadIdx.x;
    long long acc = Op::identity;
    for (int i = blockIdx.x * blockDim.x * 2 + tid; i < n; i += gridDim.x * blockDim.x * 2) {
        acc = op(acc, in[i]);
        if (i + (int)blockDim.x < n) acc = op(acc, in[i + blockDim.x]);
    }
    sdata[tid] = acc;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] = op(sdata[tid], sdata[tid + s]);
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

template <typename Op>
long long device_reduce(const long long* d_in, long long* d_partial, int n) {
    const int threads = 256, blocks = 128;
    reduce_pass<Op><<<blocks, threads, threads * sizeof(long long)>>>(d_in, d_partial, n);
    CUDA_CHECK(cudaGetLastError());
    reduce_pass<Op><<<1, blocks, blocks * sizeof(long long)>>>(d_partial, d_partial + blocks, blocks);
    CUDA_CHECK(cudaGetLastError());
    long long result = 0;
    CUDA_CHECK(cudaMemcpy(&result, d_partial + blocks, sizeof(long long), cudaMemcpyDeviceToHost));
    return result;
}

int main() {
    g_seed = 1234567u;
    const int n = 1 << 17;
    std::vector<long long> h(n);
    for (auto& v : h) v = (long long)(int32_t)next_u32() * 3 + (long long)(next_u32() & 0xffff);
    long long *d_in, *d_partial;
    CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(long long)));
    CUDA_CHECK(cudaMalloc(&d_partial, 256 * sizeof(long long)));
    CUDA_CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(long long), cudaMemcpyHostToDevice));
    const long long sum = device_reduce<SumOp>(d_in, d_partial, n);
    const long long mx = device_reduce<MaxOp>(d_in, d_partial, n);
    const long long mn = device_reduce<MinOp>(d_in, d_partial, n);

    long long rsum = 0, rmax = LLONG_MIN, rmin = LLONG_MAX;
    for (long long v : h) {
        rsum += v;
        rmax = v > rmax ? v : rmax;
        rmin = v < rmin ? v : rmin;
    }
    printf("reduce n %d\n", n);
    printf("sum %lld\n", sum);
    printf("max %lld\n", mx);
    printf("min %lld\n", mn);
    const bool ok = sum == rsum && mx == rmax && mn == rmin;
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_partial));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
