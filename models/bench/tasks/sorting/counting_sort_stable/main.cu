// Stable counting sort of 4-bit keys with payloads: per-thread chunk counts, a key-major scan, ordered per-thread scatter.
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

constexpr int KEYS = 16;
constexpr int THREADS = 256;

// counts is key-major: counts[key * THREADS + t] = how many of thread t's chunk have that key.
__global__ void chunk_counts(const unsigned char* __restrict__ keys, int n, int chunk, int* __restrict__ counts) {
    const int t = threadIdx.x;
    int local[KEYS];
    for (int k = 0; k < KEYS; ++k) local[k] = 0;
    for (int i = t * chunk; i < (t + 1) * chunk && i < n; ++i) local[keys[i]]++;
    for (int k = 0; k < KEYS; ++k) counts[k * THREADS + t] = local[k];
}

// Exclusive scan of the KEYS * THREADS table in key-major order (one block, two levels).
__global__ void scan_counts(int* counts) {
    __shared__ int key_totals[KEYS];
    const int k = threadIdx.x;  // KEYS threads
    int running = 0;
    for (int t = 0; t < THREADS; ++t) {
        const int c = counts[k * THREADS + t];
        counts[k * THREADS + t] = running;
        running += c;
    }
    key_totals[k] = running;
    __syncthreads();
    int base = 0;
    for (int j = 0; j < k; ++j) base += key_totals[j];
    for (int t = 0; t < THREADS; ++t) counts[k * THREADS + t] += base;
}

// Each thread walks its chunk in order, so equal keys keep their input order (stable).
__global__ void scatter_chunks(const unsigned char* __restrict__ keys, const int* __restrict__ payload, int n,
                               int chunk, const int* __restrict__ offsets, unsigned char* __restrict__ keys_out,
                               int* __restrict__ payload_out) {
    const int t = threadIdx.x;
    int cursor[KEYS];
    for (int k = 0; k < KEYS; ++k) cursor[k] = offsets[k * THREADS + t];
    for (int i = t * chunk; i < (t + 1) * chunk && i < n; ++i) {
        const int dst = cursor[keys[i]]++;
        keys_out[dst] = keys[i];
        payload_out[dst] = payload[i];
    }
}

int main() {
    g_seed = 1616u;
    const int n = 40000, chunk = (n + THREADS - 1) / THREADS;
    std::vector<unsigned char> keys(n), sorted_keys(n);
    std::vector<int> payload(n), sorted_payload(n);
    for (int i = 0; i < n; ++i) {
        keys[i] = (unsigned char)((next_u32() >> 7) % KEYS);
        payload[i] = i;
    }
    unsigned char *d_keys, *d_keys_out;
    int *d_payload, *d_payload_out, *d_counts;
    CUDA_CHECK(cudaMalloc(&d_keys, n));
    CUDA_CHECK(cudaMalloc(&d_keys_out, n));
    CUDA_CHECK(cudaMalloc(&d_payload, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_payload_out, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_counts, KEYS * THREADS * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_keys, keys.data(), n, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_payload, payload.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    chunk_counts<<<1, THREADS>>>(d_keys, n, chunk, d_counts);
    scan_counts<<<1, KEYS>>>(d_counts);
    scatter_chunks<<<1, THREADS>>>(d_keys, d_payload, n, chunk, d_counts, d_keys_out, d_payload_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(sorted_keys.data(), d_keys_out, n, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(sorted_payload.data(), d_payload_out, n * sizeof(int), cudaMemcpyDeviceToHost));

    bool ok = true;
    int histogram[KEYS] = {0};
    uint64_t hash = 0;
    for (int i = 0; i < n; ++i) {
        const int p = sorted_payload[i];
        if (p < 0 || p >= n || keys[p] != sorted_keys[i]) { ok = false; break; }
        if (i > 0 && (sorted_keys[i - 1] > sorted_keys[i] ||
                      (sorted_keys[i - 1] == sorted_keys[i] && sorted_payload[i - 1] >= p))) ok = false;
        histogram[sorted_keys[i]]++;
        hash = hash * 2654435761ull + (uint64_t)p;
    }
    printf("counting sort n %d keys %d\n", n, KEYS);
    printf("count[0] %d count[7] %d count[15] %d\n", histogram[0], histogram[7], histogram[15]);
    printf("payload_hash %llu\n", (unsigned long long)hash);
    CUDA_CHECK(cudaFree(d_keys));
    CUDA_CHECK(cudaFree(d_keys_out));
    CUDA_CHECK(cudaFree(d_payload));
    CUDA_CHECK(cudaFree(d_payload_out));
    CUDA_CHECK(cudaFree(d_counts));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
