// Iterative (bottom-up) segment trees built one level per launch and queried in parallel, templated on
// the combine operation (min and sum); query results are also accumulated with 64-bit atomics.
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

constexpr int LEAVES = 1 << 14;  // power of two
constexpr int NQ = 8192;

struct MinOp {
    static constexpr long long identity = 0x7fffffffffffffffll;
    __host__ __device__ static long long apply(long long a, long long b) { return a < b ? a : b; }
};
struct SumOp {
    static constexpr long long identity = 0;
    __host__ __device__ static long long apply(long long a, long long b) { return a + b; }
};

// tree[1] is the root; tree[LEAVES + i] holds leaf i; level [lo, 2*lo) is built from [2*lo, 4*lo).
template <typename Op>
__global__ void build_level(long long* tree, int lo) {
    const int i = lo + blockIdx.x * blockDim.x + threadIdx.x;
    if (i < 2 * lo) tree[i] = Op::apply(tree[2 * i], tree[2 * i + 1]);
}

// The top levels (lo <= 256) are small: one block builds them all, syncing between levels.
template <typename Op>
__global__ void build_top_levels(long long* tree) {
    for (int lo = 256; lo >= 1; lo >>= 1) {
        const int i = lo + threadIdx.x;
        if (threadIdx.x < lo) tree[i] = Op::apply(tree[2 * i], tree[2 * i + 1]);
        __syncthreads();
    }
}

template <typename Op>
__device__ long long range_query(const long long* tree, int l, int r) {  // [l, r)
    long long acc = Op::identity;
    for (l += LEAVES, r += LEAVES; l < r; l >>= 1, r >>= 1) {
        if (l & 1) acc = Op::apply(acc, tree[l++]);
        if (r & 1) acc = Op::apply(acc, tree[--r]);
    }
    return acc;
}

template <typename Op>
__global__ void run_queries(const long long* tree, const int2* ranges, long long* out, unsigned long long* total) {
    const int q = blockIdx.x * blockDim.x + threadIdx.x;
    if (q >= NQ) return;
    const long long v = range_query<Op>(tree, ranges[q].x, ranges[q].y);
    out[q] = v;
    atomicAdd(total, (unsigned long long)v);
}

template <typename Op>
static bool build_and_query(const char* name, const std::vector<long long>& leaves, const std::vector<int2>& ranges,
                            const int2* d_ranges) {
    long long *d_tree, *d_out;
    unsigned long long* d_total;
    CUDA_CHECK(cudaMalloc(&d_tree, 2 * LEAVES * sizeof(long long)));
    CUDA_CHECK(cudaMalloc(&d_out, NQ * sizeof(long long)));
    CUDA_CHECK(cudaMalloc(&d_total, sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemset(d_total, 0, sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemcpy(d_tree + LEAVES, leaves.data(), LEAVES * sizeof(long long), cudaMemcpyHostToDevice));
    for (int lo = LEAVES / 2; lo > 256; lo /= 2) {
        build_level<Op><<<(lo + 255) / 256, 256>>>(d_tree, lo);
        CUDA_CHECK(cudaGetLastError());
    }
    build_top_levels<Op><<<1, 256>>>(d_tree);
    CUDA_CHECK(cudaGetLastError());
    run_queries<Op><<<NQ / 256, 256>>>(d_tree, d_ranges, d_out, d_total);
    CUDA_CHECK(cudaGetLastError());
    std::vector<long long> out(NQ);
    long long root = 0;
    unsigned long long total = 0;
    CUDA_CHECK(cudaMemcpy(out.data(), d_out, NQ * sizeof(long long), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&root, d_tree + 1, sizeof(long long), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&total, d_total, sizeof(total), cudaMemcpyDeviceToHost));
    bool ok = true;
    unsigned long long ref_total = 0;
    for (int q = 0; q < NQ; ++q) {
        long long ref = Op::identity;
        for (int i = ranges[q].x; i < ranges[q].y; ++i) ref = Op::apply(ref, leaves[i]);
        if (ref != out[q]) ok = false;
        ref_total += (unsigned long long)ref;
    }
    if (ref_total != total) ok = false;
    printf("%s root %lld total %llu q0 %lld q%d %lld\n", name, root, total, out[0], NQ - 1, out[NQ - 1]);
    CUDA_CHECK(cudaFree(d_tree));
    CUDA_CHECK(cudaFree(d_out));
    CUDA_CHECK(cudaFree(d_total));
    return ok;
}

int main() {
    g_seed = 65537u;
    std::vector<long long> leaves(LEAVES);
    for (auto& v : leaves) v = (long long)(next_u32() % 2000000u) - 1000000;
    std::vector<int2> ranges(NQ);
    for (auto& r : ranges) {
        const int a = (int)(next_u32() % LEAVES), len = 1 + (int)(next_u32() % 600u);
        r = make_int2(a, std::min(LEAVES, a + len));
    }
    int2* d_ranges;
    CUDA_CHECK(cudaMalloc(&d_ranges, NQ * sizeof(int2)));
    CUDA_CHECK(cudaMemcpy(d_ranges, ranges.data(), NQ * sizeof(int2), cudaMemcpyHostToDevice));
    bool ok = build_and_query<MinOp>("min", leaves, ranges, d_ranges);
    ok = build_and_query<SumOp>("sum", leaves, ranges, d_ranges) && ok;
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(d_ranges));
    return ok ? 0 : 1;
}
