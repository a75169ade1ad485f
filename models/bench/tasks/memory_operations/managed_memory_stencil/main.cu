// Ping-pong 1D smoothing stencil on managed (unified) memory, host reads results directly after synchronisation.
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

__global__ void smooth(const int* __restrict__ in, int* __restrict__ out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const int left = in[i > 0 ? i - 1 : 0];
    const int right = in[i < n - 1 ? i + 1 : n - 1];
    out[i] = (left + 2 * in[i] + right + 2) >> 2;
}

int main() {
    g_seed = 4711u;
    const int n = 1 << 15, steps = 6;
    int *a, *b;
    CUDA_CHECK(cudaMallocManaged(&a, n * sizeof(int)));
    CUDA_CHECK(cudaMallocManaged(&b, n * sizeof(int)));
    std::vector<int> ref(n), tmp(n);
    for (int i = 0; i < n; ++i) {
        a[i] = (int)(next_u32() % 4096u) - ((i % 1000) < 10 ? 20000 : 0);  // a few deep spikes
        ref[i] = a[i];
    }
    for (int s = 0; s < steps; ++s) {
        smooth<<<(n + 255) / 256, 256>>>(a, b, n);
        CUDA_CHECK(cudaGetLastError());
        int* t = a;
        a = b;
        b = t;
    }
    CUDA_CHECK(cudaDeviceSynchronize());  // required before the host touches managed memory

    for (int s = 0; s < steps; ++s) {
        for (int i = 0; i < n; ++i) {
            const int l = ref[i > 0 ? i - 1 : 0], r = ref[i < n - 1 ? i + 1 : n - 1];
            tmp[i] = (l + 2 * ref[i] + r + 2) >> 2;
        }
        ref.swap(tmp);
    }
    bool ok = true;
    long long sum = 0;
    int lo = a[0], hi = a[0];
    for (int i = 0; i < n; ++i) {
        if (a[i] != ref[i]) ok = false;
        sum += a[i];
        lo = a[i] < lo ? a[i] : lo;
        hi = a[i] > hi ? a[i] : hi;
    }
    printf("managed stencil n %d steps %d\n", n, steps);
    printf("sum %lld min %d max %d\n", sum, lo, hi);
    printf("a[0] %d a[5] %d a[%d] %d\n", a[0], a[5], n / 2, a[n / 2]);
    CUDA_CHECK(cudaFree(a));
    CUDA_CHECK(cudaFree(b));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
