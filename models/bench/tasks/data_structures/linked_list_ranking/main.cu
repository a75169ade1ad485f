// List ranking: the distance of every node of a randomly permuted singly linked list to the tail, by
// pointer jumping (Wyllie): each round, rank += rank[next]; next = next[next], double-buffered.
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

constexpr int N = 1 << 14;
constexpr int NIL = -1;

__global__ void init_nodes(const int* succ, int2* nodes) {  // node = (next, rank)
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) nodes[i] = make_int2(succ[i], succ[i] == NIL ? 0 : 1);
}

__global__ void jump(const int2* __restrict__ in, int2* __restrict__ out, int* changed) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= N) return;
    int2 me = in[i];
    if (me.x != NIL) {
        const int2 nx = in[me.x];
        me.y += nx.y;
        me.x = nx.x;
        if (me.x != NIL) *changed = 1;  // benign race: every writer stores 1
    }
    out[i] = me;
}

int main() {
    g_seed = 1234567u;
    // Random order of nodes: perm[k] is the k-th node of the list from the head.
    std::vector<int> perm(N);
    for (int i = 0; i < N; ++i) perm[i] = i;
    for (int i = N - 1; i > 0; --i) std::swap(perm[i], perm[next_u32() % (uint32_t)(i + 1)]);
    std::vector<int> succ(N);
    for (int k = 0; k < N; ++k) succ[perm[k]] = k + 1 < N ? perm[k + 1] : NIL;

    int *d_succ, *d_changed;
    int2 *d_a, *d_b;
    CUDA_CHECK(cudaMalloc(&d_succ, N * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_a, N * sizeof(int2)));
    CUDA_CHECK(cudaMalloc(&d_b, N * sizeof(int2)));
    CUDA_CHECK(cudaMalloc(&d_changed, sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_succ, succ.data(), N * sizeof(int), cudaMemcpyHostToDevice));
    init_nodes<<<N / 256, 256>>>(d_succ, d_a);
    CUDA_CHECK(cudaGetLastError());
    int rounds = 0, changed = 1;
    while (changed && rounds < 20) {
        CUDA_CHECK(cudaMemset(d_changed, 0, sizeof(int)));
        jump<<<N / 256, 256>>>(d_a, d_b, d_changed);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost));
        std::swap(d_a, d_b);
        ++rounds;
    }
    std::vector<int2> nodes(N);
    CUDA_CHECK(cudaMemcpy(nodes.data(), d_a, N * sizeof(int2), cudaMemcpyDeviceToHost));

    bool ok = rounds == 14;  // ceil(log2(N)) rounds until every pointer reaches the tail
    uint64_t weighted = 0;
    for (int k = 0; k < N; ++k) {
        const int node = perm[k];
        const int expect = N - 1 - k;
        if (nodes[node].y != expect || nodes[node].x != NIL) ok = false;
        weighted += (uint64_t)nodes[node].y * (uint64_t)(node % 97 + 1);
    }
    printf("nodes %d rounds %d\n", N, rounds);
    printf("head %d rank %d, node0 rank %d, node%d rank %d\n", perm[0], nodes[perm[0]].y, nodes[0].y, N - 1,
           nodes[N - 1].y);
    printf("weighted_rank_sum %llu\n", (unsigned long long)weighted);
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(d_succ));
    CUDA_CHECK(cudaFree(d_a));
    CUDA_CHECK(cudaFree(d_b));
    CUDA_CHECK(cudaFree(d_changed));
    return ok ? 0 : 1;
}
