// Row-wise sparse GEMM (Gustavson): one block per row of A builds the row of C = A*B in shared memory:
// a bitmask of touched columns (atomicOr + __popc gives the row's nonzero count) and a dense float accumulator.
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

constexpr int N = 1024;            // A, B are N x N
constexpr int MASK_WORDS = N / 32;

struct Csr {
    const int* rp;
    const int* ci;
    const float* v;
};

__global__ void spgemm_row(Csr A, Csr B, int* row_nnz, float* row_sum, float* c_dense_sample) {
    __shared__ unsigned mask[MASK_WORDS];
    __shared__ float acc[N];
    __shared__ int count;
    const int row = blockIdx.x;
    for (int i = threadIdx.x; i < N; i += blockDim.x) acc[i] = 0.0f;
    for (int i = threadIdx.x; i < MASK_WORDS; i += blockDim.x) mask[i] = 0u;
    if (threadIdx.x == 0) count = 0;
    __syncthreads();
    // Each thread takes nonzeros a_rk of row `row` and walks row k of B.
    for (int ka = A.rp[row] + threadIdx.x; ka < A.rp[row + 1]; ka += blockDim.x) {
        const int k = A.ci[ka];
        const float a = A.v[ka];
        for (int kb = B.rp[k]; kb < B.rp[k + 1]; ++kb) {
            const int c = B.ci[kb];
            atomicOr(&mask[c >> 5], 1u << (c & 31));
            atomicAdd(&acc[c], a * B.v[kb]);
        }
    }
    __syncthreads();
    for (int w = threadIdx.x; w < MASK_WORDS; w += blockDim.x) atomicAdd(&count, __popc(mask[w]));
    __syncthreads();
    if (threadIdx.x == 0) {
        row_nnz[row] = count;
        float s = 0.0f;
        for (int c = 0; c < N; ++c) s += acc[c];  // fixed order
        row_sum[row] = s;
    }
    if (row % 128 == 0)
        for (int c = threadIdx.x; c < N; c += blockDim.x) c_dense_sample[(row / 128) * N + c] = acc[c];
}

static void make_csr(int avg, std::vector<int>& rp, std::vector<int>& ci, std::vector<float>& v) {
    rp.assign(1, 0);
    for (int r = 0; r < N; ++r) {
        std::vector<int> cs;
        const int len = 1 + (int)(next_u32() % (uint32_t)(2 * avg));
        for (int k = 0; k < len; ++k) cs.push_back((int)((next_u32() >> 9) % N));
        std::sort(cs.begin(), cs.end());
        cs.erase(std::unique(cs.begin(), cs.end()), cs.end());
        for (int c : cs) { ci.push_back(c); v.push_back(next_uniform()); }
        rp.push_back((int)ci.size());
    }
}

int main() {
    g_seed = 8086u;
    std::vector<int> arp, aci, brp, bci;
    std::vector<float> av, bv;
    make_csr(6, arp, aci, av);
    make_csr(8, brp, bci, bv);
    int *d_arp, *d_aci, *d_brp, *d_bci, *d_nnz;
    float *d_av, *d_bv, *d_sum, *d_sample;
    auto upload_i = [](int** d, const std::vector<int>& h) {
        CUDA_CHECK(cudaMalloc(d, h.size() * sizeof(int)));
        CUDA_CHECK(cudaMemcpy(*d, h.data(), h.size() * sizeof(int), cudaMemcpyHostToDevice));
    };
    auto upload_f = [](float** d, const std::vector<float>& h) {
        CUDA_CHECK(cudaMalloc(d, h.size() * sizeof(float)));
        CUDA_CHECK(cudaMemcpy(*d, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice));
    };
    upload_i(&d_arp, arp); upload_i(&d_aci, aci); upload_f(&d_av, av);
    upload_i(&d_brp, brp); upload_i(&d_bci, bci); upload_f(&d_bv, bv);
    CUDA_CHECK(cudaMalloc(&d_nnz, N * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_sum, N * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_sample, (N / 128) * N * sizeof(float)));
    spgemm_row<<<N, 64>>>(Csr{d_arp, d_aci, d_av}, Csr{d_brp, d_bci, d_bv}, d_nnz, d_sum, d_sample);
    CUDA_CHECK(cudaGetLastError());
    std::vector<int> nnz(N);
    std::vector<float> sum(N), sample((N / 128) * N);
    CUDA_CHECK(cudaMemcpy(nnz.data(), d_nnz, N * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(sum.data(), d_sum, N * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(sample.data(), d_sample, sample.size() * sizeof(float), cudaMemcpyDeviceToHost));

    bool ok = true;
    long long total_nnz = 0;
    double total_sum = 0.0;
    std::vector<double> acc(N), mag(N);
    std::vector<char> seen(N);
    for (int r = 0; r < N; ++r) {
        std::fill(acc.begin(), acc.end(), 0.0);
        std::fill(mag.begin(), mag.end(), 0.0);
        std::fill(seen.begin(), seen.end(), 0);
        for (int ka = arp[r]; ka < arp[r + 1]; ++ka)
            for (int kb = brp[aci[ka]]; kb < brp[aci[ka] + 1]; ++kb) {
                acc[bci[kb]] += (double)av[ka] * bv[kb];
                mag[bci[kb]] += fabs((double)av[ka] * bv[kb]);
                seen[bci[kb]] = 1;
            }
        int cnt = 0;
        double s = 0.0, m = 0.0;
        for (int c = 0; c < N; ++c) { cnt += seen[c]; s += acc[c]; m += mag[c]; }
        if (cnt != nnz[r]) ok = false;
        if (fabs(s - sum[r]) > 1e-5 * (m + 1.0)) ok = false;
        if (r % 128 == 0)
            for (int c = 0; c < N; ++c)
                if (fabs(acc[c] - sample[(r / 128) * N + c]) > 1e-5 * (mag[c] + 1e-6)) ok = false;
        total_nnz += nnz[r];
        total_sum += sum[r];
    }
    printf("nnz(A) %d nnz(B) %d nnz(C) %lld\n", (int)aci.size(), (int)bci.size(), total_nnz);
    printf("nnz(C row 0) %d nnz(C row 1023) %d\n", nnz[0], nnz[N - 1]);
    printf("sum(C) %.6e\n", total_sum);
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(d_arp)); CUDA_CHECK(cudaFree(d_aci)); CUDA_CHECK(cudaFree(d_av));
    CUDA_CHECK(cudaFree(d_brp)); CUDA_CHECK(cudaFree(d_bci)); CUDA_CHECK(cudaFree(d_bv));
    CUDA_CHECK(cudaFree(d_nnz)); CUDA_CHECK(cudaFree(d_sum)); CUDA_CHECK(cudaFree(d_sample));
    return ok ? 0 : 1;
}
