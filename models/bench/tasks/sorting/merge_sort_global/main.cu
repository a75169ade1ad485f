// Merge sort: bitonic-sorted 256-key runs, then log2(runs) global merge passes using co-rank binary searches.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>
#include <vector>
#include <algorithm>
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

constexpr int RUN = 256;

__global__ void sort_runs(int* keys) {
    __shared__ int s[RUN];
    const int t = threadIdx.x;  // RUN / 2 threads
    int* run = keys + blockIdx.x * RUN;
    s[t] = run[t];
    s[t + RUN / 2] = run[t + RUN / 2];
    __syncthreads();
    for (int size = 2; size <= RUN; size <<= 1)
        for (int stride = size >> 1; stride > 0; stride >>= 1) {
            const int i = 2 * t - (t & (stride - 1));
            const bool up = (i & size) == 0;
            if ((s[i] > s[i + stride]) == up) {
                const int tmp = s[i];
                s[i] = s[i + stride];
                s[i + stride] = tmp;
            }
            __syncthreads();
        }
    run[t] = s[t];
    run[t + RUN / 2] = s[t + RUN / 2];
}

// First index in [lo, hi) whose value is >= v (strict=false) or > v (strict=true).
__device__ int search(const int* a, int lo, int hi, int v, bool strict) {
    while (lo < hi) {
        const int mid = (lo + hi) >> 1;
        if (strict ? a[mid] <= v : a[mid] < v) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

// Each element finds its output slot: own rank in its run + co-rank in the partner run.
__global__ void merge_pass(const int* __restrict__ in, int* __restrict__ out, int n, int width) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const int pair_start = (i / (2 * width)) * 2 * width;
    const int mid = min(pair_start + width, n), end = min(pair_start + 2 * width, n);
    const int v = in[i];
    int dst;
    if (i < mid) dst = pair_start + (i - pair_start) + (search(in, mid, end, v, false) - mid);
    else dst = pair_start + (i - mid) + (search(in, pair_start, mid, v, true) - pair_start);
    out[dst] = v;
}

int main() {
    g_seed = 4040u;
    const int n = 1 << 14, runs = n / RUN;
    std::vector<int> h(n), out(n);
    for (auto& v : h) v = (int)(next_u32() % 50000u) - 25000;
    int *da, *db;
    CUDA_CHECK(cudaMalloc(&da, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&db, n * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(da, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    sort_runs<<<runs, RUN / 2>>>(da);
    CUDA_CHECK(cudaGetLastError());
    int passes = 0;
    for (int width = RUN; width < n; width *= 2, ++passes) {
        merge_pass<<<(n + 255) / 256, 256>>>(da, db, n, width);
        CUDA_CHECK(cudaGetLastError());
        int* tmp = da;
        da = db;
        db = tmp;
    }
    CUDA_CHECK(cudaMemcpy(out.data(), da, n * sizeof(int), cudaMemcpyDeviceToHost));

    std::vector<int> ref = h;
    std::sort(ref.begin(), ref.end());
    bool ok = out == ref;
    long long checksum = 0;
    for (int i = 0; i < n; ++i) checksum += (long long)out[i] * (i % 101);
    printf("merge sort n %d runs %d merge_passes %d\n", n, runs, passes);
    printf("min %d q1 %d median %d q3 %d max %d\n", out[0], out[n / 4], out[n / 2], out[3 * n / 4],
           out[n - 1]);
    printf("checksum %lld\n", checksum);
    CUDA_CHECK(cudaFree(da));
    CUDA_CHECK(cudaFree(db));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
