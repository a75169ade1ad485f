// Spearman rank correlation with tied ranks: each element counts smaller and equal values (shared tiles), then Pearson on ranks.
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

constexpr int N = 2048, TILE = 256;

// rank = (#less) + (#equal + 1) / 2, the average 1-based rank of a tie group, stored times 2 as an integer.
__global__ void twice_ranks(const float* __restrict__ v, int* __restrict__ rank2) {
    __shared__ float tile[TILE];
    const int i = blockIdx.x * TILE + threadIdx.x;
    const float x = v[i];
    int less = 0, equal = 0;
    for (int base = 0; base < N; base += TILE) {
        tile[threadIdx.x] = v[base + threadIdx.x];
        __syncthreads();
        for (int k = 0; k < TILE; ++k) {
            less += tile[k] < x;
            equal += tile[k] == x;
        }
        __syncthreads();
    }
    rank2[i] = 2 * less + equal + 1;
}

__global__ void rank_moments(const int* __restrict__ ra, const int* __restrict__ rb, double* __restrict__ out) {
    __shared__ double s[3][TILE];
    double sab = 0.0, saa = 0.0, sbb = 0.0;
    const double mean = (N + 1) / 2.0;
    for (int i = threadIdx.x; i < N; i += TILE) {
        const double a = ra[i] / 2.0 - mean, b = rb[i] / 2.0 - mean;
        sab += a * b;
        saa += a * a;
        sbb += b * b;
    }
    s[0][threadIdx.x] = sab;
    s[1][threadIdx.x] = saa;
    s[2][threadIdx.x] = sbb;
    __syncthreads();
    for (int st = TILE / 2; st > 0; st >>= 1) {
        if (threadIdx.x < st)
            for (int m = 0; m < 3; ++m) s[m][threadIdx.x] += s[m][threadIdx.x + st];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[0] = s[0][0] / sqrt(s[1][0] * s[2][0]);
}

int main() {
    g_seed = 8448u;
    std::vector<float> a(N), b(N);
    for (int i = 0; i < N; ++i) {
        a[i] = (float)(next_u32() % 300u);                              // many ties
        b[i] = 0.6f * a[i] + (float)(next_u32() % 200u) + 0.5f * (i % 2);  // monotone-ish, noisy
    }
    float *da, *db;
    int *dra, *drb;
    double* drho;
    CUDA_CHECK(cudaMalloc(&da, N * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&db, N * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dra, N * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&drb, N * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&drho, sizeof(double)));
    CUDA_CHECK(cudaMemcpy(da, a.data(), N * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(db, b.data(), N * sizeof(float), cudaMemcpyHostToDevice));
    twice_ranks<<<N / TILE, TILE>>>(da, dra);
    twice_ranks<<<N / TILE, TILE>>>(db, drb);
    rank_moments<<<1, TILE>>>(dra, drb, drho);
    CUDA_CHECK(cudaGetLastError());
    std::vector<int> ra(N), rb(N);
    double rho = 0.0;
    CUDA_CHECK(cudaMemcpy(ra.data(), dra, N * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(rb.data(), drb, N * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&rho, drho, sizeof(double), cudaMemcpyDeviceToHost));

    bool ok = true;
    long long rank_sum = 0;
    for (int i = 0; i < N; ++i) {
        int la = 0, ea = 0, lb = 0, eb = 0;
        for (int j = 0; j < N; ++j) {
            la += a[j] < a[i]; ea += a[j] == a[i];
            lb += b[j] < b[i]; eb += b[j] == b[i];
        }
        if (ra[i] != 2 * la + ea + 1 || rb[i] != 2 * lb + eb + 1) ok = false;
        rank_sum += ra[i];
    }
    double sab = 0.0, saa = 0.0, sbb = 0.0;
    const double mean = (N + 1) / 2.0;
    for (int i = 0; i < N; ++i) {
        sab += (ra[i] / 2.0 - mean) * (rb[i] / 2.0 - mean);
        saa += (ra[i] / 2.0 - mean) * (ra[i] / 2.0 - mean);
        sbb += (rb[i] / 2.0 - mean) * (rb[i] / 2.0 - mean);
    }
    const double ref = sab / sqrt(saa * sbb);
    ok = ok && rank_sum == (long long)N * (N + 1) && fabs(ref - rho) < 1e-12;
    printf("spearman n %d\n", N);
    printf("rho %.12e\n", rho);
    printf("rank2[0] %d rank2[%d] %d\n", ra[0], N - 1, rb[N - 1]);
    CUDA_CHECK(cudaFree(da));
    CUDA_CHECK(cudaFree(db));
    CUDA_CHECK(cudaFree(dra));
    CUDA_CHECK(cudaFree(drb));
    CUDA_CHECK(cudaFree(drho));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
