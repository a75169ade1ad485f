// Streamed statistics with NVTX annotations: a long series is cut into chunks that alternate
// between two streams; each chunk's kernel reduces count, sum, sum of squares, minimum and
// maximum with warp shuffles and one atomic per warp. A process range spans the whole run, a
// push/pop range each chunk's enqueue, a mark each stream synchronization. The host checks the
// moments against its own.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cfloat>
#include <vector>
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

#define CUDA_CHECK(call)                                                              \
    do {                                                                              \
        cudaError_t e_ = (call);                                                      \
        if (e_ != cudaSuccess) {                                                      \
            fprintf(stderr, "CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__); \
            exit(2);                                                                  \
        }                                                                             \
    } while (0)

struct Moments {
    double sum, sum_sq;
    float lo, hi;
};

__device__ void atomic_min_float(float* addr, float v) {
    int* a = (int*)addr;
    int old = *a;
    while (__int_as_float(old) > v) {
        int seen = atomicCAS(a, old, __float_as_int(v));
        if (seen == old) break;
        old = seen;
    }
}

__device__ void atomic_max_float(float* addr, float v) {
    int* a = (int*)addr;
    int old = *a;
    while (__int_as_float(old) < v) {
        int seen = atomicCAS(a, old, __float_as_int(v));
        if (seen == old) break;
        old = seen;
    }
}

__global__ void chunk_moments(const float* x, int n, Moments* out) {
    double s = 0.0, s2 = 0.0;
    float lo = FLT_MAX, hi = -FLT_MAX;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        float v = x[i];
        s += v;
        s2 += (double)v * v;
        lo = fminf(lo, v);
        hi = fmaxf(hi, v);
    }
    for (int off = 16; off > 0; off >>= 1) {
        s += __shfl_down_sync(0xffffffffu, s, off);
        s2 += __shfl_down_sync(0xffffffffu, s2, off);
        lo = fminf(lo, __shfl_down_sync(0xffffffffu, lo, off));
        hi = fmaxf(hi, __shfl_down_sync(0xffffffffu, hi, off));
    }
    if ((threadIdx.x & 31) == 0) {
        atomicAdd(&out->sum, s);
        atomicAdd(&out->sum_sq, s2);
        atomic_min_float(&out->lo, lo);
        atomic_max_float(&out->hi, hi);
    }
}

int main() {
    const int chunks = 6, chunk = 40000, n = chunks * chunk;
    nvtxRangeId_t run = nvtxRangeStartA("streamed moments");
    std::vector<float> x(n);
    unsigned state = 12345u;
    for (int i = 0; i < n; ++i) {  // a drifting sine plus uniform noise
        state = state * 1664525u + 1013904223u;
        x[i] = 2.0f * sinf(i * 0.0005f) + 0.001f * i / chunk + (float)(state >> 8) / 16777216.0f - 0.5f;
    }
    float* h_x;
    CUDA_CHECK(cudaMallocHost(&h_x, n * sizeof(float)));
    for (int i = 0; i < n; ++i) h_x[i] = x[i];
    float* d_x;
    Moments* d_m;
    CUDA_CHECK(cudaMalloc(&d_x, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_m, chunks * sizeof(Moments)));
    std::vector<Moments> init(chunks, Moments{0.0, 0.0, FLT_MAX, -FLT_MAX});
    CUDA_CHECK(cudaMemcpy(d_m, init.data(), chunks * sizeof(Moments), cudaMemcpyHostToDevice));
    cudaStream_t streams[2];
    for (auto& s : streams) CUDA_CHECK(cudaStreamCreate(&s));
    for (int c = 0; c < chunks; ++c) {
        nvtxRangePushA("chunk enqueue");
        cudaStream_t s = streams[c % 2];
        CUDA_CHECK(cudaMemcpyAsync(d_x + c * chunk, h_x + c * chunk, chunk * sizeof(float),
                                   cudaMemcpyHostToDevice, s));
        chunk_moments<<<40, 256, 0, s>>>(d_x + c * chunk, chunk, d_m + c);
        CUDA_CHECK(cudaGetLastError());
        nvtxRangePop();
    }
    for (auto& s : streams) {
        CUDA_CHECK(cudaStreamSynchronize(s));
        nvtxMarkA("stream drained");
    }
    std::vector<Moments> m(chunks);
    CUDA_CHECK(cudaMemcpy(m.data(), d_m, chunks * sizeof(Moments), cudaMemcpyDeviceToHost));
    nvtxRangeEnd(run);

    bool ok = true;
    double total = 0, total_sq = 0;
    for (int c = 0; c < chunks; ++c) {
        double s = 0, s2 = 0;
        float lo = FLT_MAX, hi = -FLT_MAX;
        for (int i = c * chunk; i < (c + 1) * chunk; ++i) {
            s += x[i];
            s2 += (double)x[i] * x[i];
            lo = fminf(lo, x[i]);
            hi = fmaxf(hi, x[i]);
        }
        double mean = m[c].sum / chunk, var = m[c].sum_sq / chunk - mean * mean;
        bool chunk_ok = fabs(m[c].sum - s) < 1e-6 * (1 + fabs(s)) &&
                        fabs(m[c].sum_sq - s2) < 1e-9 * s2 && m[c].lo == lo && m[c].hi == hi;
        printf("chunk %d mean %.6f variance %.6f min %.6f max %.6f %s\n", c, mean, var, m[c].lo,
               m[c].hi, chunk_ok ? "ok" : "WRONG");
        ok &= chunk_ok;
        total += m[c].sum;
        total_sq += m[c].sum_sq;
    }
    double mean = total / n;
    printf("series n %d mean %.6f standard deviation %.6f\n", n, mean,
           sqrt(total_sq / n - mean * mean));
    for (auto& s : streams) CUDA_CHECK(cudaStreamDestroy(s));
    CUDA_CHECK(cudaFreeHost(h_x));
    CUDA_CHECK(cudaFree(d_x));
    CUDA_CHECK(cudaFree(d_m));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
