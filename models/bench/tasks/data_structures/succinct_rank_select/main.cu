// Succinct rank/select bitvector: a warp turns 32 predicates into one word with __ballot_sync, a
// rank directory (prefix popcounts) is built per 1024-word superblock with a warp-shuffle scan, and
// rank(i) / select(j) queries run against it.
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

constexpr int NBITS = 1 << 18;
constexpr int NWORDS = NBITS / 32;
constexpr int SUPER = 1024;               // words per superblock (one block of 1024 threads)
constexpr int NSUPER = NWORDS / SUPER;

__global__ void build_words(const uint8_t* values, uint32_t* words) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;  // one bit per thread, blockDim multiple of 32
    const bool bit = values[i] % 3 == 0;
    const uint32_t w = __ballot_sync(0xffffffffu, bit);
    if ((threadIdx.x & 31) == 0) words[i >> 5] = w;
}

// Exclusive prefix of popcounts within each superblock; superblock totals out.
__global__ void build_rank_directory(const uint32_t* words, uint32_t* word_rank, uint32_t* super_total) {
    __shared__ uint32_t warp_tot[32];
    const int w = blockIdx.x * SUPER + threadIdx.x;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const uint32_t c = __popc(words[w]);
    uint32_t incl = c;
    for (int off = 1; off < 32; off <<= 1) {
        const uint32_t up = __shfl_up_sync(0xffffffffu, incl, off);
        if (lane >= off) incl += up;
    }
    if (lane == 31) warp_tot[warp] = incl;
    __syncthreads();
    if (warp == 0) {
        uint32_t t = warp_tot[lane];
        for (int off = 1; off < 32; off <<= 1) {
            const uint32_t up = __shfl_up_sync(0xffffffffu, t, off);
            if (lane >= off) t += up;
        }
        warp_tot[lane] = t;  // inclusive over warps
    }
    __syncthreads();
    word_rank[w] = (warp ? warp_tot[warp - 1] : 0u) + incl - c;
    if (threadIdx.x == SUPER - 1) super_total[blockIdx.x] = warp_tot[31];
}

__device__ uint32_t rank1(const uint32_t* words, const uint32_t* word_rank, const uint32_t* super_base, int i) {
    const int w = i >> 5, b = i & 31;
    const uint32_t below = b ? __popc(words[w] & ((1u << b) - 1u)) : 0u;
    return super_base[w / SUPER] + word_rank[w] + below;
}

__global__ void queries(const uint32_t* words, const uint32_t* word_rank, const uint32_t* super_total,
                        const int* rank_q, const uint32_t* select_q, int nq, uint32_t* rank_out, int* select_out) {
    __shared__ uint32_t super_base[NSUPER];
    if (threadIdx.x == 0) {
        uint32_t s = 0;
        for (int k = 0; k < NSUPER; ++k) { super_base[k] = s; s += super_total[k]; }
    }
    __syncthreads();
    const int q = blockIdx.x * blockDim.x + threadIdx.x;
    if (q >= nq) return;
    rank_out[q] = rank1(words, word_rank, super_base, rank_q[q]);
    // select(j): position of the j-th one (0-based) by binary search over rank.
    const uint32_t j = select_q[q];
    int lo = 0, hi = NBITS - 1;
    while (lo < hi) {
        const int mid = (lo + hi) >> 1;
        const uint32_t incl = rank1(words, word_rank, super_base, mid) + ((words[mid >> 5] >> (mid & 31)) & 1u);
        if (incl > j) hi = mid;
        else lo = mid + 1;
    }
    select_out[q] = lo;
}

int main() {
    g_seed = 1618u;
    const int NQ = 4096;
    std::vector<uint8_t> values(NBITS);
    for (auto& v : values) v = (uint8_t)(next_u32() >> 24);
    std::vector<int> bits(NBITS), prefix(NBITS + 1, 0);
    for (int i = 0; i < NBITS; ++i) { bits[i] = values[i] % 3 == 0; prefix[i + 1] = prefix[i] + bits[i]; }
    const int ones = prefix[NBITS];
    std::vector<int> rank_q(NQ);
    std::vector<uint32_t> select_q(NQ);
    for (int q = 0; q < NQ; ++q) {
        rank_q[q] = (int)(next_u32() % NBITS);
        select_q[q] = next_u32() % (uint32_t)ones;
    }
    uint8_t* d_vals;
    uint32_t *d_words, *d_wr, *d_st, *d_sq, *d_rank;
    int *d_rq, *d_sel;
    CUDA_CHECK(cudaMalloc(&d_vals, NBITS));
    CUDA_CHECK(cudaMalloc(&d_words, NWORDS * 4));
    CUDA_CHECK(cudaMalloc(&d_wr, NWORDS * 4));
    CUDA_CHECK(cudaMalloc(&d_st, NSUPER * 4));
    CUDA_CHECK(cudaMalloc(&d_rq, NQ * 4));
    CUDA_CHECK(cudaMalloc(&d_sq, NQ * 4));
    CUDA_CHECK(cudaMalloc(&d_rank, NQ * 4));
    CUDA_CHECK(cudaMalloc(&d_sel, NQ * 4));
    CUDA_CHECK(cudaMemcpy(d_vals, values.data(), NBITS, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_rq, rank_q.data(), NQ * 4, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_sq, select_q.data(), NQ * 4, cudaMemcpyHostToDevice));
    build_words<<<NBITS / 256, 256>>>(d_vals, d_words);
    CUDA_CHECK(cudaGetLastError());
    build_rank_directory<<<NSUPER, SUPER>>>(d_words, d_wr, d_st);
    CUDA_CHECK(cudaGetLastError());
    queries<<<NQ / 128, 128>>>(d_words, d_wr, d_st, d_rq, d_sq, NQ, d_rank, d_sel);
    CUDA_CHECK(cudaGetLastError());
    std::vector<uint32_t> words(NWORDS), rank_out(NQ);
    std::vector<int> sel(NQ);
    CUDA_CHECK(cudaMemcpy(words.data(), d_words, NWORDS * 4, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(rank_out.data(), d_rank, NQ * 4, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(sel.data(), d_sel, NQ * 4, cudaMemcpyDeviceToHost));

    bool ok = true;
    for (int w = 0; w < NWORDS && ok; ++w) {
        uint32_t ref = 0;
        for (int b = 0; b < 32; ++b) ref |= (uint32_t)bits[w * 32 + b] << b;
        if (ref != words[w]) ok = false;
    }
    uint64_t rsum = 0, ssum = 0;
    for (int q = 0; q < NQ; ++q) {
        if (rank_out[q] != (uint32_t)prefix[rank_q[q]]) ok = false;
        // reference select: first position p with prefix[p+1] > j
        const int p = (int)(std::upper_bound(prefix.begin() + 1, prefix.end(), (int)select_q[q]) - (prefix.begin() + 1));
        if (sel[q] != p) ok = false;
        rsum += rank_out[q];
        ssum += (uint64_t)sel[q];
    }
    printf("bits %d ones %d words %d\n", NBITS, ones, NWORDS);
    printf("rank_sum %llu select_sum %llu\n", (unsigned long long)rsum, (unsigned long long)ssum);
    printf("rank(%d) %u select(%u) %d\n", rank_q[0], rank_out[0], select_q[0], sel[0]);
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(d_vals)); CUDA_CHECK(cudaFree(d_words)); CUDA_CHECK(cudaFree(d_wr));
    CUDA_CHECK(cudaFree(d_st)); CUDA_CHECK(cudaFree(d_rq)); CUDA_CHECK(cudaFree(d_sq));
    CUDA_CHECK(cudaFree(d_rank)); CUDA_CHECK(cudaFree(d_sel));
    return ok ? 0 : 1;
}
