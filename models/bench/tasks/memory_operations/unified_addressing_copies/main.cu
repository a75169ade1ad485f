// Unified virtual addressing: cudaPointerGetAttributes, cudaMemcpyDefault copies, mapped zero-copy host memory, async memsets.
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

__global__ void accumulate_from_host(const int* __restrict__ mapped_host, const int* __restrict__ dev,
                                     int* __restrict__ out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = mapped_host[i] * 3 + __ldg(dev + i);
}

static const char* kind(cudaMemoryType t) {
    switch (t) {
        case cudaMemoryTypeHost: return "host";
        case cudaMemoryTypeDevice: return "device";
        case cudaMemoryTypeManaged: return "managed";
        default: return "unregistered";
    }
}

int main() {
    g_seed = 8086u;
    const int n = 20000;
    CUDA_CHECK(cudaSetDeviceFlags(cudaDeviceMapHost));
    int* h_mapped;
    CUDA_CHECK(cudaHostAlloc(&h_mapped, n * sizeof(int), cudaHostAllocMapped));
    std::vector<int> pageable(n), out(n);
    for (int i = 0; i < n; ++i) {
        h_mapped[i] = (int)(next_u32() % 1000u);
        pageable[i] = (int)(next_u32() % 1000u) - 500;
    }
    int *d_a, *d_b, *d_out, *d_mapped;
    CUDA_CHECK(cudaMalloc(&d_a, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_b, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(int)));
    CUDA_CHECK(cudaHostGetDevicePointer(&d_mapped, h_mapped, 0));

    cudaPointerAttributes attr_dev, attr_host;
    CUDA_CHECK(cudaPointerGetAttributes(&attr_dev, d_a));
    CUDA_CHECK(cudaPointerGetAttributes(&attr_host, h_mapped));
    printf("d_a is %s memory, h_mapped is %s memory\n", kind(attr_dev.type), kind(attr_host.type));

    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreate(&stream));
    // With UVA the runtime infers each copy's direction from the pointers (cudaMemcpyDefault).
    CUDA_CHECK(cudaMemcpy(d_a, pageable.data(), n * sizeof(int), cudaMemcpyDefault));
    CUDA_CHECK(cudaMemsetAsync(d_b, 0, n * sizeof(int), stream));
    CUDA_CHECK(cudaMemcpyAsync(d_b, d_a, (n / 2) * sizeof(int), cudaMemcpyDefault, stream));  // D2D
    accumulate_from_host<<<(n + 255) / 256, 256, 0, stream>>>(d_mapped, d_b, d_out, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpyAsync(out.data(), d_out, n * sizeof(int), cudaMemcpyDefault, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));

    bool ok = attr_dev.type == cudaMemoryTypeDevice && attr_host.type == cudaMemoryTypeHost;
    long long sum = 0;
    for (int i = 0; i < n; ++i) {
        const int ref = h_mapped[i] * 3 + (i < n / 2 ? pageable[i] : 0);
        if (out[i] != ref) ok = false;
        sum += out[i];
    }
    printf("uva n %d\n", n);
    printf("sum %lld out[0] %d out[%d] %d\n", sum, out[0], n - 1, out[n - 1]);
    CUDA_CHECK(cudaStreamDestroy(stream));
    CUDA_CHECK(cudaFree(d_a));
    CUDA_CHECK(cudaFree(d_b));
    CUDA_CHECK(cudaFree(d_out));
    CUDA_CHECK(cudaFreeHost(h_mapped));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
