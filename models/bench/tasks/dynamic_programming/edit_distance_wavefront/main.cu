// Edit distance by anti-diagonal wavefront: cells on one anti-diagonal of the DP table are independent, so
// a block of threads computes diagonal k from diagonals k-1 and k-2 (rolling buffers in shared memory).
// One block per string pair; block 0 reports its distance with device printf.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>
#include <vector>
#include <algorithm>
#include <utility>
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

constexpr int LEN = 256;
constexpr int PAIRS = 48;

__global__ void edit_distance(const char* a_all, const char* b_all, int* dist) {
    __shared__ char a[LEN], b[LEN];
    __shared__ int diag[3][LEN + 1];  // diag[k % 3][i] = D[i][k - i]
    const char* A = a_all + blockIdx.x * LEN;
    const char* B = b_all + blockIdx.x * LEN;
    for (int i = threadIdx.x; i < LEN; i += blockDim.x) { a[i] = A[i]; b[i] = B[i]; }
    __syncthreads();
    for (int k = 0; k <= 2 * LEN; ++k) {
        int* cur = diag[k % 3];
        const int* prev = diag[(k + 2) % 3];
        const int* prev2 = diag[(k + 1) % 3];
        const int lo = max(0, k - LEN), hi = min(k, LEN);
        for (int i = lo + threadIdx.x; i <= hi; i += blockDim.x) {
            const int j = k - i;
            int v;
            if (i == 0) v = j;
            else if (j == 0) v = i;
            else {
                const int sub = prev2[i - 1] + (a[i - 1] != b[j - 1]);
                const int del = prev[i - 1] + 1;  // D[i-1][j]
                const int ins = prev[i] + 1;      // D[i][j-1]
                v = min(sub, min(del, ins));
            }
            cur[i] = v;
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        dist[blockIdx.x] = diag[(2 * LEN) % 3][LEN];
        if (blockIdx.x == 0) printf("device: pair 0 edit distance %d\n", dist[0]);
    }
}

static int host_edit(const char* a, const char* b) {
    std::vector<int> prev(LEN + 1), cur(LEN + 1);
    for (int j = 0; j <= LEN; ++j) prev[j] = j;
    for (int i = 1; i <= LEN; ++i) {
        cur[0] = i;
        for (int j = 1; j <= LEN; ++j)
            cur[j] = std::min(prev[j - 1] + (a[i - 1] != b[j - 1]), std::min(prev[j] + 1, cur[j - 1] + 1));
        std::swap(prev, cur);
    }
    return prev[LEN];
}

int main() {
    g_seed = 1965u;
    std::vector<char> A(PAIRS * LEN), B(PAIRS * LEN);
    for (int p = 0; p < PAIRS; ++p) {
        // B is a mutated copy of A: the mutation rate grows with the pair index.
        const uint32_t rate = 4u + 4u * (uint32_t)p;
        for (int i = 0; i < LEN; ++i) A[p * LEN + i] = (char)('a' + (next_u32() >> 8) % 20u);
        int j = 0;
        for (int i = 0; i < LEN; ++i) {
            const uint32_t r = (next_u32() >> 8) % 256u;
            char c = A[p * LEN + (j < LEN ? j : LEN - 1)];
            if (r < rate / 3) ++j;                                       // deletion: skip a source char
            else if (r < 2 * rate / 3) c = (char)('a' + (r % 20u));     // substitution
            else if (r >= rate) ++j;                                     // copy
            B[p * LEN + i] = c;                                          // (insertion when rate*2/3 <= r < rate)
        }
    }
    char *d_a, *d_b;
    int* d_dist;
    CUDA_CHECK(cudaMalloc(&d_a, PAIRS * LEN));
    CUDA_CHECK(cudaMalloc(&d_b, PAIRS * LEN));
    CUDA_CHECK(cudaMalloc(&d_dist, PAIRS * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_a, A.data(), PAIRS * LEN, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_b, B.data(), PAIRS * LEN, cudaMemcpyHostToDevice));
    edit_distance<<<PAIRS, 128>>>(d_a, d_b, d_dist);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<int> dist(PAIRS);
    CUDA_CHECK(cudaMemcpy(dist.data(), d_dist, PAIRS * sizeof(int), cudaMemcpyDeviceToHost));

    bool ok = true;
    long long total = 0;
    for (int p = 0; p < PAIRS; ++p) {
        if (dist[p] != host_edit(&A[p * LEN], &B[p * LEN])) ok = false;
        total += dist[p];
    }
    printf("pairs %d length %d total_distance %lld\n", PAIRS, LEN, total);
    printf("distances p0 %d p10 %d p24 %d p47 %d\n", dist[0], dist[10], dist[24], dist[47]);
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(d_a));
    CUDA_CHECK(cudaFree(d_b));
    CUDA_CHECK(cudaFree(d_dist));
    return ok ? 0 : 1;
}
