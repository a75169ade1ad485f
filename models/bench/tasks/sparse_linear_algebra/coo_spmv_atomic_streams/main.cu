// COO sparse matrix-vector products with one thread per nonzero scattering into y with atomicAdd(float);
// two independent matrices are processed on two streams from pinned host buffers, joined with an event.
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

constexpr int N = 8192;
constexpr int NNZ = 65536;

struct CooEntry {
    int row, col;
    float val;
};

__global__ void zero_vector(float* y, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 0.0f;
}

__global__ void spmv_coo_atomic(const CooEntry* __restrict__ a, int nnz, const float* __restrict__ x, float* y) {
    for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < nnz; k += gridDim.x * blockDim.x) {
        const CooEntry e = a[k];
        atomicAdd(&y[e.row], e.val * x[e.col]);
    }
}

// y2 += y1 element-wise once both products are done (runs on stream 1 after waiting on stream 0's event).
__global__ void combine(const float* y0, float* y1, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y1[i] += 0.5f * y0[i];
}

int main() {
    g_seed = 99u;
    CooEntry *h_a[2];
    float* h_x;
    float* h_y;
    CUDA_CHECK(cudaMallocHost(&h_a[0], NNZ * sizeof(CooEntry)));
    CUDA_CHECK(cudaMallocHost(&h_a[1], NNZ * sizeof(CooEntry)));
    CUDA_CHECK(cudaMallocHost(&h_x, N * sizeof(float)));
    CUDA_CHECK(cudaMallocHost(&h_y, 2 * N * sizeof(float)));
    for (int m = 0; m < 2; ++m)
        for (int k = 0; k < NNZ; ++k) {
            // Skewed rows: the low bits of two draws pick a row, so some rows collect many entries.
            const int row = (int)((next_u32() >> 8) % N) & (m == 0 ? (N - 1) : (N / 4 - 1));
            h_a[m][k] = CooEntry{row, (int)((next_u32() >> 8) % N), next_uniform()};
        }
    for (int i = 0; i < N; ++i) h_x[i] = next_uniform();

    cudaStream_t s[2];
    cudaEvent_t done0;
    CUDA_CHECK(cudaStreamCreate(&s[0]));
    CUDA_CHECK(cudaStreamCreate(&s[1]));
    CUDA_CHECK(cudaEventCreateWithFlags(&done0, cudaEventDisableTiming));
    CooEntry* d_a[2];
    float *d_x, *d_y;
    CUDA_CHECK(cudaMalloc(&d_a[0], NNZ * sizeof(CooEntry)));
    CUDA_CHECK(cudaMalloc(&d_a[1], NNZ * sizeof(CooEntry)));
    CUDA_CHECK(cudaMalloc(&d_x, N * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_y, 2 * N * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_x, h_x, N * sizeof(float), cudaMemcpyHostToDevice));
    for (int m = 0; m < 2; ++m) {
        CUDA_CHECK(cudaMemcpyAsync(d_a[m], h_a[m], NNZ * sizeof(CooEntry), cudaMemcpyHostToDevice, s[m]));
        zero_vector<<<N / 256, 256, 0, s[m]>>>(d_y + m * N, N);
        CUDA_CHECK(cudaGetLastError());
        spmv_coo_atomic<<<64, 256, 0, s[m]>>>(d_a[m], NNZ, d_x, d_y + m * N);
        CUDA_CHECK(cudaGetLastError());
    }
    CUDA_CHECK(cudaEventRecord(done0, s[0]));
    CUDA_CHECK(cudaStreamWaitEvent(s[1], done0, 0));
    combine<<<N / 256, 256, 0, s[1]>>>(d_y, d_y + N, N);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpyAsync(h_y, d_y, 2 * N * sizeof(float), cudaMemcpyDeviceToHost, s[1]));
    CUDA_CHECK(cudaStreamSynchronize(s[1]));

    std::vector<double> ref(2 * N, 0.0), mag(2 * N, 0.0);
    for (int m = 0; m < 2; ++m)
        for (int k = 0; k < NNZ; ++k) {
            const CooEntry e = h_a[m][k];
            ref[m * N + e.row] += (double)e.val * h_x[e.col];
            mag[m * N + e.row] += fabs((double)e.val * h_x[e.col]);
        }
    for (int i = 0; i < N; ++i) {
        ref[N + i] += 0.5 * ref[i];
        mag[N + i] += 0.5 * mag[i];
    }
    bool ok = true;
    double sum0 = 0.0, sum1 = 0.0;
    int empty1 = 0;
    for (int i = 0; i < N; ++i) {
        if (fabs(ref[i] - h_y[i]) > 1e-5 * (mag[i] + 1.0)) ok = false;
        if (fabs(ref[N + i] - h_y[N + i]) > 1e-5 * (mag[N + i] + 1.0)) ok = false;
        sum0 += h_y[i];
        sum1 += h_y[N + i];
        if (mag[N + i] == 0.0) ++empty1;
    }
    // Atomic accumulation order varies run to run: print rounded aggregates only.
    printf("nnz %d per matrix, rows %d, rows of combined result with no entries %d\n", NNZ, N, empty1);
    printf("sum_y0 %.6e sum_y1 %.6e\n", sum0, sum1);
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaEventDestroy(done0));
    CUDA_CHECK(cudaStreamDestroy(s[0]));
    CUDA_CHECK(cudaStreamDestroy(s[1]));
    for (int m = 0; m < 2; ++m) {
        CUDA_CHECK(cudaFree(d_a[m]));
        CUDA_CHECK(cudaFreeHost(h_a[m]));
    }
    CUDA_CHECK(cudaFree(d_x));
    CUDA_CHECK(cudaFree(d_y));
    CUDA_CHECK(cudaFreeHost(h_x));
    CUDA_CHECK(cudaFreeHost(h_y));
    return ok ? 0 : 1;
}
