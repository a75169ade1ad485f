// Longest common subsequence lengths with the bit-parallel row recurrence: the DP row for a 64-character
// string A lives in one 64-bit word V; for each character of B, U = V & match[c], V = (V + U) | (V - U);
// the LCS length is the number of zero bits of V. One thread per pair; the 2-bit alphabet decode table
// sits in constant memory. Results are also summed with a 64-bit atomic.
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

constexpr int LEN = 64;
constexpr int PAIRS = 8192;

__constant__ char c_alphabet[4];

__host__ __device__ inline int code_of(char c) { return c == 'A' ? 0 : c == 'C' ? 1 : c == 'G' ? 2 : 3; }

__host__ __device__ inline int lcs_bits(const char* a, const char* b) {
    unsigned long long match[4] = {0ull, 0ull, 0ull, 0ull};
    for (int i = 0; i < LEN; ++i) match[code_of(a[i])] |= 1ull << i;
    unsigned long long v = ~0ull;
    for (int j = 0; j < LEN; ++j) {
        const unsigned long long u = v & match[code_of(b[j])];
        v = (v + u) | (v - u);
    }
#ifdef __CUDA_ARCH__
    return __popcll(~v);
#else
    return __builtin_popcountll(~v);
#endif
}

// Sequences arrive 2-bit packed (one 128-bit record per string: two 64-bit words).
__global__ void __launch_bounds__(128) lcs_pairs(const unsigned long long* packed_a, const unsigned long long* packed_b,
                                                 int* lcs, unsigned long long* total) {
    const int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= PAIRS) return;
    char a[LEN], b[LEN];
    for (int i = 0; i < LEN; ++i) {
        a[i] = c_alphabet[(packed_a[2 * p + i / 32] >> (2 * (i % 32))) & 3ull];
        b[i] = c_alphabet[(packed_b[2 * p + i / 32] >> (2 * (i % 32))) & 3ull];
    }
    const int l = lcs_bits(a, b);
    lcs[p] = l;
    atomicAdd(total, (unsigned long long)l);
}

static int lcs_classic(const char* a, const char* b) {
    std::vector<int> prev(LEN + 1, 0), cur(LEN + 1, 0);
    for (int i = 1; i <= LEN; ++i) {
        for (int j = 1; j <= LEN; ++j)
            cur[j] = a[i - 1] == b[j - 1] ? prev[j - 1] + 1 : std::max(prev[j], cur[j - 1]);
        std::swap(prev, cur);
    }
    return prev[LEN];
}

int main() {
    g_seed = 1977u;
    const char alphabet[4] = {'A', 'C', 'G', 'T'};
    std::vector<unsigned long long> pa(2 * PAIRS), pb(2 * PAIRS);
    std::vector<char> A(PAIRS * LEN), B(PAIRS * LEN);
    for (int p = 0; p < PAIRS; ++p) {
        const int related = p % 2;  // odd pairs share most characters
        for (int i = 0; i < LEN; ++i) {
            const int ca = (int)(next_u32() >> 30);
            const uint32_t r = next_u32();
            const int cb = (related && (r >> 28) != 0u) ? ca : (int)(r & 3u);
            A[p * LEN + i] = alphabet[ca];
            B[p * LEN + i] = alphabet[cb];
            pa[2 * p + i / 32] |= (unsigned long long)ca << (2 * (i % 32));
            pb[2 * p + i / 32] |= (unsigned long long)cb << (2 * (i % 32));
        }
    }
    CUDA_CHECK(cudaMemcpyToSymbol(c_alphabet, alphabet, sizeof(alphabet)));
    unsigned long long *d_pa, *d_pb, *d_total;
    int* d_lcs;
    CUDA_CHECK(cudaMalloc(&d_pa, pa.size() * sizeof(unsigned long long)));
    CUDA_CHECK(cudaMalloc(&d_pb, pb.size() * sizeof(unsigned long long)));
    CUDA_CHECK(cudaMalloc(&d_lcs, PAIRS * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_total, sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemset(d_total, 0, sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemcpy(d_pa, pa.data(), pa.size() * sizeof(unsigned long long), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_pb, pb.data(), pb.size() * sizeof(unsigned long long), cudaMemcpyHostToDevice));
    lcs_pairs<<<PAIRS / 128, 128>>>(d_pa, d_pb, d_lcs, d_total);
    CUDA_CHECK(cudaGetLastError());
    std::vector<int> lcs(PAIRS);
    unsigned long long total = 0;
    CUDA_CHECK(cudaMemcpy(lcs.data(), d_lcs, PAIRS * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&total, d_total, sizeof(total), cudaMemcpyDeviceToHost));

    bool ok = true;
    unsigned long long rtotal = 0;
    int hist[LEN + 1] = {0};
    for (int p = 0; p < PAIRS; ++p) {
        const int ref = p < 512 ? lcs_classic(&A[p * LEN], &B[p * LEN]) : lcs_bits(&A[p * LEN], &B[p * LEN]);
        if (ref != lcs[p]) ok = false;
        rtotal += lcs[p];
        hist[lcs[p]]++;
    }
    if (rtotal != total) ok = false;
    long long unrelated = 0, related = 0;
    for (int p = 0; p < PAIRS; ++p) (p % 2 ? related : unrelated) += lcs[p];
    printf("pairs %d length %d total_lcs %llu\n", PAIRS, LEN, total);
    printf("mean unrelated %.4f related %.4f\n", unrelated / (PAIRS / 2.0), related / (PAIRS / 2.0));
    printf("lcs p0 %d p1 %d p8191 %d; count with lcs>=60 %d\n", lcs[0], lcs[1], lcs[PAIRS - 1], hist[60] + hist[61] + hist[62] + hist[63] + hist[64]);
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(d_pa));
    CUDA_CHECK(cudaFree(d_pb));
    CUDA_CHECK(cudaFree(d_lcs));
    CUDA_CHECK(cudaFree(d_total));
    return ok ? 0 : 1;
}
