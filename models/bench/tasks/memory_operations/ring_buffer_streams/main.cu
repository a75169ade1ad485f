// A producer stream fills ring-buffer slots, a consumer stream reduces them; per-slot events order the two streams.
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

constexpr int SLOTS = 3;
constexpr int SLOT_ELEMS = 4096;
constexpr int BATCHES = 8;

__global__ void produce(int* slot, int batch) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < SLOT_ELEMS) slot[i] = (int)(((unsigned)(i * 2654435761u) >> 20) % 1000u) + batch * 3;
}

__global__ void consume(const int* __restrict__ slot, long long* __restrict__ totals, int batch) {
    __shared__ long long part[256];
    long long s = 0;
    for (int i = threadIdx.x; i < SLOT_ELEMS; i += blockDim.x) s += (long long)slot[i] * ((i % 5) + 1);
    part[threadIdx.x] = s;
    __syncthreads();
    for (int stride = 128; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride) part[threadIdx.x] += part[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) totals[batch] = part[0];
}

int main() {
    int* ring;
    long long *d_totals, *h_totals;
    CUDA_CHECK(cudaMalloc(&ring, SLOTS * SLOT_ELEMS * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_totals, BATCHES * sizeof(long long)));
    CUDA_CHECK(cudaMallocHost(&h_totals, BATCHES * sizeof(long long)));
    cudaStream_t producer, consumer;
    CUDA_CHECK(cudaStreamCreateWithFlags(&producer, cudaStreamNonBlocking));
    CUDA_CHECK(cudaStreamCreateWithFlags(&consumer, cudaStreamNonBlocking));
    cudaEvent_t filled[SLOTS], drained[SLOTS];
    for (int s = 0; s < SLOTS; ++s) {
        CUDA_CHECK(cudaEventCreateWithFlags(&filled[s], cudaEventDisableTiming));
        CUDA_CHECK(cudaEventCreateWithFlags(&drained[s], cudaEventDisableTiming));
    }
    for (int b = 0; b < BATCHES; ++b) {
        const int s = b % SLOTS;
        int* slot = ring + s * SLOT_ELEMS;
        if (b >= SLOTS) CUDA_CHECK(cudaStreamWaitEvent(producer, drained[s], 0));  // slot free again?
        produce<<<SLOT_ELEMS / 256, 256, 0, producer>>>(slot, b);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaEventRecord(filled[s], producer));
        CUDA_CHECK(cudaStreamWaitEvent(consumer, filled[s], 0));  // slot ready?
        consume<<<1, 256, 0, consumer>>>(slot, d_totals, b);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaEventRecord(drained[s], consumer));
    }
    CUDA_CHECK(cudaMemcpyAsync(h_totals, d_totals, BATCHES * sizeof(long long), cudaMemcpyDeviceToHost, consumer));
    CUDA_CHECK(cudaStreamSynchronize(consumer));

    bool ok = true;
    long long grand = 0;
    for (int b = 0; b < BATCHES; ++b) {
        long long ref = 0;
        for (int i = 0; i < SLOT_ELEMS; ++i) {
            const int v = (int)(((unsigned)(i * 2654435761u) >> 20) % 1000u) + b * 3;
            ref += (long long)v * ((i % 5) + 1);
        }
        if (ref != h_totals[b]) ok = false;
        grand += h_totals[b];
        if (b % 3 == 0) printf("batch %d total %lld\n", b, h_totals[b]);
    }
    printf("ring slots %d batches %d grand_total %lld\n", SLOTS, BATCHES, grand);
    for (int s = 0; s < SLOTS; ++s) {
        CUDA_CHECK(cudaEventDestroy(filled[s]));
        CUDA_CHECK(cudaEventDestroy(drained[s]));
    }
    CUDA_CHECK(cudaStreamDestroy(producer));
    CUDA_CHECK(cudaStreamDestroy(consumer));
    CUDA_CHECK(cudaFree(ring));
    CUDA_CHECK(cudaFree(d_totals));
    CUDA_CHECK(cudaFreeHost(h_totals));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
