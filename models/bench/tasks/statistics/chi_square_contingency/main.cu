// Chi-square test of independence: a contingency table built with atomics, then expected counts and the statistic on the device.
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

constexpr int R = 8, C = 6;

struct Observation {
    unsigned char row_cat, col_cat;
    unsigned short weight;
};

__global__ void tabulate(const Observation* __restrict__ obs, int n, unsigned int* __restrict__ table) {
    __shared__ unsigned int local[R * C];
    if (threadIdx.x < R * C) local[threadIdx.x] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[obs[i].row_cat * C + obs[i].col_cat], (unsigned)obs[i].weight);
    __syncthreads();
    if (threadIdx.x < R * C) atomicAdd(&table[threadIdx.x], local[threadIdx.x]);
}

// Single block: margins, expected counts, and the per-cell contributions summed in fixed order.
__global__ void chi_square(const unsigned int* __restrict__ table, double* __restrict__ result) {
    __shared__ double row_sum[R], col_sum[C], contrib[R * C];
    const int t = threadIdx.x;
    if (t < R) {
        double s = 0.0;
        for (int j = 0; j < C; ++j) s += table[t * C + j];
        row_sum[t] = s;
    } else if (t < R + C) {
        double s = 0.0;
        for (int i = 0; i < R; ++i) s += table[i * C + (t - R)];
        col_sum[t - R] = s;
    }
    __syncthreads();
    double total = 0.0;
    for (int i = 0; i < R; ++i) total += row_sum[i];
    if (t < R * C) {
        const double expected = row_sum[t / C] * col_sum[t % C] / total;
        const double d = table[t] - expected;
        contrib[t] = d * d / expected;
    }
    __syncthreads();
    if (t == 0) {
        double chi2 = 0.0;
        for (int k = 0; k < R * C; ++k) chi2 += contrib[k];
        result[0] = chi2;
        result[1] = total;
        result[2] = sqrt(chi2 / (total * (C - 1)));  // Cramer's V (min(R, C) - 1 = C - 1)
    }
}

int main() {
    g_seed = 7777u;
    const int n = 60000;
    std::vector<Observation> obs(n);
    for (auto& o : obs) {
        // High bits only: the low bits of an LCG repeat with short periods.
        o.row_cat = (unsigned char)((next_u32() >> 16) % R);
        // Mild dependence: the column category leans towards row_cat % C.
        o.col_cat = (unsigned char)(((next_u32() >> 16) % 4u == 0) ? o.row_cat % C : (next_u32() >> 16) % C);
        o.weight = (unsigned short)(1 + (next_u32() >> 16) % 3u);
    }
    Observation* d_obs;
    unsigned int* d_table;
    double* d_result;
    CUDA_CHECK(cudaMalloc(&d_obs, n * sizeof(Observation)));
    CUDA_CHECK(cudaMalloc(&d_table, R * C * sizeof(unsigned int)));
    CUDA_CHECK(cudaMalloc(&d_result, 3 * sizeof(double)));
    CUDA_CHECK(cudaMemcpy(d_obs, obs.data(), n * sizeof(Observation), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_table, 0, R * C * sizeof(unsigned int)));
    tabulate<<<48, 256>>>(d_obs, n, d_table);
    chi_square<<<1, 64>>>(d_table, d_result);
    CUDA_CHECK(cudaGetLastError());
    unsigned int table[R * C];
    double result[3];
    CUDA_CHECK(cudaMemcpy(table, d_table, sizeof(table), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(result, d_result, sizeof(result), cudaMemcpyDeviceToHost));

    unsigned int ref[R * C] = {0};
    for (const auto& o : obs) ref[o.row_cat * C + o.col_cat] += o.weight;
    bool ok = true;
    double rows[R] = {0}, cols[C] = {0}, total = 0.0, chi2 = 0.0;
    for (int k = 0; k < R * C; ++k) {
        if (ref[k] != table[k]) ok = false;
        rows[k / C] += ref[k];
        cols[k % C] += ref[k];
        total += ref[k];
    }
    for (int k = 0; k < R * C; ++k) {
        const double e = rows[k / C] * cols[k % C] / total;
        chi2 += (ref[k] - e) * (ref[k] - e) / e;
    }
    ok = ok && fabs(chi2 - result[0]) < 1e-9 * chi2 && total == result[1];
    printf("contingency %dx%d observations %d weighted_total %.0f\n", R, C, n, result[1]);
    printf("table[0][0] %u table[7][5] %u\n", table[0], table[R * C - 1]);
    printf("chi2 %.9e dof %d cramers_v %.9e\n", result[0], (R - 1) * (C - 1), result[2]);
    CUDA_CHECK(cudaFree(d_obs));
    CUDA_CHECK(cudaFree(d_table));
    CUDA_CHECK(cudaFree(d_result));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
