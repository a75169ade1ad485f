// Per-row top-k selection: one warp per row, each lane keeps a sorted pair, k rounds of warp argmax.
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

#include <algorithm>

constexpr int COLS = 64;  // two candidates per lane of a 32-lane warp
constexpr int K = 8;

struct Cand {
    float value;
    int index;
};

__host__ __device__ inline bool ahead(const Cand& a, const Cand& b) {  // larger value, then lower index
    return a.value > b.value || (a.value == b.value && a.index < b.index);
}

__global__ void topk_rows(const float* __restrict__ x, int rows, float* __restrict__ top_vals,
                          int* __restrict__ top_idx) {
    const int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const int lane = threadIdx.x & 31;
    if (row >= rows) return;
    Cand a{x[row * COLS + lane], lane}, b{x[row * COLS + lane + 32], lane + 32};
    if (ahead(b, a)) {
        const Cand t = a;
        a = b;
        b = t;
    }
    for (int k = 0; k < K; ++k) {
        Cand best = a;
        for (int offset = 16; offset > 0; offset >>= 1) {
            Cand other;
            other.value = __shfl_xor_sync(0xffffffffu, best.value, offset);
            other.index = __shfl_xor_sync(0xffffffffu, best.index, offset);
            if (ahead(other, best)) best = other;
        }
        if (lane == 0) {
            top_vals[row * K + k] = best.value;
            top_idx[row * K + k] = best.index;
        }
        if (a.index == best.index) {  // the winning lane pops its head
            a = b;
            b = Cand{-INFINITY, 1 << 30};
        }
    }
}

int main() {
    g_seed = 8888u;
    const int rows = 1024;
    std::vector<float> x(rows * COLS), vals(rows * K);
    std::vector<int> idx(rows * K);
    for (auto& v : x) v = (float)(next_u32() % 2000u) * 0.05f;  // ties on purpose
    float *dx, *dv;
    int* di;
    CUDA_CHECK(cudaMalloc(&dx, x.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dv, vals.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&di, idx.size() * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(dx, x.data(), x.size() * sizeof(float), cudaMemcpyHostToDevice));
    topk_rows<<<rows * 32 / 128, 128>>>(dx, rows, dv, di);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(vals.data(), dv, vals.size() * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(idx.data(), di, idx.size() * sizeof(int), cudaMemcpyDeviceToHost));

    bool ok = true;
    double sum_top = 0.0;
    uint64_t idx_hash = 0;
    for (int r = 0; r < rows; ++r) {
        std::vector<Cand> c(COLS);
        for (int j = 0; j < COLS; ++j) c[j] = Cand{x[r * COLS + j], j};
        std::partial_sort(c.begin(), c.begin() + K, c.end(), ahead);
        for (int k = 0; k < K; ++k) {
            if (c[k].value != vals[r * K + k] || c[k].index != idx[r * K + k]) ok = false;
            sum_top += vals[r * K + k];
            idx_hash = idx_hash * 67ull + (uint64_t)idx[r * K + k];
        }
    }
    printf("top-%d of %d rows x %d\n", K, rows, COLS);
    printf("row0:");
    for (int k = 0; k < K; ++k) printf(" %.2f@%d", vals[k], idx[k]);
    printf("\nsum_top %.6e index_hash %llu\n", sum_top, (unsigned long long)idx_hash);
    CUDA_CHECK(cudaFree(dx));
    CUDA_CHECK(cudaFree(dv));
    CUDA_CHECK(cudaFree(di));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
