// Chunked host->device->host pipeline over four streams with pinned buffers and event dependencies.
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

constexpr int STREAMS = 4;

__global__ void transform_chunk(const int* __restrict__ in, int* __restrict__ out, int n, int salt) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const int v = in[i];
        out[i] = (v * 7 + salt) ^ (v >> 3);
    }
}

__global__ void combine(const int* __restrict__ a, int* __restrict__ b, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) b[i] = b[i] - a[i] / 2;
}

int main() {
    g_seed = 31u;
    const int chunk = 8192, chunks = 8, n = chunk * chunks;
    int *h_in, *h_out;
    CUDA_CHECK(cudaHostAlloc(&h_in, n * sizeof(int), cudaHostAllocDefault));
    CUDA_CHECK(cudaMallocHost(&h_out, n * sizeof(int)));
    for (int i = 0; i < n; ++i) h_in[i] = (int)(next_u32() % 100000u);
    int *d_in, *d_out;
    CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(int)));
    cudaStream_t streams[STREAMS];
    cudaEvent_t uploaded[STREAMS];
    for (int s = 0; s < STREAMS; ++s) {
        CUDA_CHECK(cudaStreamCreateWithFlags(&streams[s], cudaStreamNonBlocking));
        CUDA_CHECK(cudaEventCreateWithFlags(&uploaded[s], cudaEventDisableTiming));
    }
    // Chunk c goes to stream c % STREAMS; two chunks per stream, kernels overlap with copies.
    for (int c = 0; c < chunks; ++c) {
        cudaStream_t st = streams[c % STREAMS];
        const size_t off = (size_t)c * chunk;
        CUDA_CHECK(cudaMemcpyAsync(d_in + off, h_in + off, chunk * sizeof(int), cudaMemcpyHostToDevice, st));
        transform_chunk<<<chunk / 256, 256, 0, st>>>(d_in + off, d_out + off, chunk, c);
        CUDA_CHECK(cudaGetLastError());
    }
    for (int s = 0; s < STREAMS; ++s) CUDA_CHECK(cudaEventRecord(uploaded[s], streams[s]));
    // The combine pass on stream 0 needs every stream's work: wait on all events.
    for (int s = 1; s < STREAMS; ++s) CUDA_CHECK(cudaStreamWaitEvent(streams[0], uploaded[s], 0));
    combine<<<n / 256, 256, 0, streams[0]>>>(d_in, d_out, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpyAsync(h_out, d_out, n * sizeof(int), cudaMemcpyDeviceToHost, streams[0]));
    CUDA_CHECK(cudaEventRecord(uploaded[0], streams[0]));
    CUDA_CHECK(cudaEventSynchronize(uploaded[0]));
    const cudaError_t q = cudaEventQuery(uploaded[0]);

    bool ok = q == cudaSuccess;
    long long sum = 0;
    uint32_t hash = 0;
    for (int i = 0; i < n; ++i) {
        const int v = h_in[i];
        const int ref = ((v * 7 + i / chunk) ^ (v >> 3)) - v / 2;
        if (h_out[i] != ref) ok = false;
        sum += h_out[i];
        hash = hash * 31u + (uint32_t)h_out[i];
    }
    printf("pipeline chunks %d chunk %d streams %d\n", chunks, chunk, STREAMS);
    printf("sum %lld hash %u\n", sum, hash);
    printf("out[0] %d out[%d] %d\n", h_out[0], n - 1, h_out[n - 1]);
    for (int s = 0; s < STREAMS; ++s) {
        CUDA_CHECK(cudaEventDestroy(uploaded[s]));
        CUDA_CHECK(cudaStreamDestroy(streams[s]));
    }
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    CUDA_CHECK(cudaFreeHost(h_in));
    CUDA_CHECK(cudaFreeHost(h_out));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
