// A binary search tree built on the host in flat arrays (balanced: depth ~ log2 n); the device answers range-count and
// floor queries with recursive functions. The query window widths live in constant memory.
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

constexpr int NKEYS = 4096;
constexpr int NQ = 1024;
constexpr int NIL = -1;

struct Node {
    int key;
    int left, right;
    int subtree_size;
};

__constant__ int c_widths[4];

__device__ int range_count(const Node* t, int n, int lo, int hi) {  // keys in [lo, hi]
    if (n == NIL) return 0;
    const Node nd = t[n];
    if (nd.key < lo) return range_count(t, nd.right, lo, hi);
    if (nd.key > hi) return range_count(t, nd.left, lo, hi);
    return 1 + range_count(t, nd.left, lo, hi) + range_count(t, nd.right, lo, hi);
}

__device__ int floor_key(const Node* t, int n, int x, int best) {  // largest key <= x, or best
    if (n == NIL) return best;
    const Node nd = t[n];
    if (nd.key == x) return x;
    if (nd.key > x) return floor_key(t, nd.left, x, best);
    return floor_key(t, nd.right, x, nd.key);
}

__device__ int depth_of(const Node* t, int n, int x, int d) {
    if (n == NIL) return -1;
    if (t[n].key == x) return d;
    return depth_of(t, x < t[n].key ? t[n].left : t[n].right, x, d + 1);
}

__global__ void bst_queries(const Node* tree, int root, const int* qs, int4* out) {
    const int q = blockIdx.x * blockDim.x + threadIdx.x;
    if (q >= NQ) return;
    const int x = qs[q];
    const int w = c_widths[q & 3];
    out[q] = make_int4(range_count(tree, root, x - w, x + w), floor_key(tree, root, x, -1),
                       depth_of(tree, root, x, 0), 0);
}

// Balanced BST from sorted keys (median as root), so recursion depth stays near log2(NKEYS).
static int host_build(std::vector<Node>& t, const std::vector<int>& sorted, int lo, int hi) {
    if (lo >= hi) return NIL;
    const int mid = (lo + hi) / 2;
    const int id = (int)t.size();
    t.push_back(Node{sorted[mid], NIL, NIL, hi - lo});
    const int l = host_build(t, sorted, lo, mid);
    const int r = host_build(t, sorted, mid + 1, hi);
    t[id].left = l;
    t[id].right = r;
    return id;
}

int main() {
    g_seed = 314159u;
    std::vector<Node> tree;
    std::vector<int> keys;
    while ((int)keys.size() < NKEYS) {
        const int k = (int)(next_u32() % 1000000u);
        if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
    }
    std::vector<int> sorted_keys(keys);
    std::sort(sorted_keys.begin(), sorted_keys.end());
    const int root = host_build(tree, sorted_keys, 0, NKEYS);
    std::vector<int> qs(NQ);
    for (int q = 0; q < NQ; ++q) qs[q] = (q % 5 == 0) ? keys[next_u32() % NKEYS] : (int)(next_u32() % 1000000u);
    const int widths[4] = {0, 200, 2000, 10000};
    Node* d_tree;
    int* d_qs;
    int4* d_out;
    CUDA_CHECK(cudaMalloc(&d_tree, NKEYS * sizeof(Node)));
    CUDA_CHECK(cudaMalloc(&d_qs, NQ * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_out, NQ * sizeof(int4)));
    CUDA_CHECK(cudaMemcpy(d_tree, tree.data(), NKEYS * sizeof(Node), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_qs, qs.data(), NQ * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpyToSymbol(c_widths, widths, sizeof(widths)));
    bst_queries<<<NQ / 64, 64>>>(d_tree, root, d_qs, d_out);
    CUDA_CHECK(cudaGetLastError());
    std::vector<int4> out(NQ);
    CUDA_CHECK(cudaMemcpy(out.data(), d_out, NQ * sizeof(int4), cudaMemcpyDeviceToHost));

    std::vector<int> sorted(keys);
    std::sort(sorted.begin(), sorted.end());
    bool ok = true;
    long long count_sum = 0, floor_sum = 0, depth_sum = 0;
    int found = 0;
    for (int q = 0; q < NQ; ++q) {
        const int x = qs[q], w = widths[q & 3];
        const int cnt = (int)(std::upper_bound(sorted.begin(), sorted.end(), x + w) -
                              std::lower_bound(sorted.begin(), sorted.end(), x - w));
        const auto it = std::upper_bound(sorted.begin(), sorted.end(), x);
        const int fl = it == sorted.begin() ? -1 : *(it - 1);
        int d = 0, n = root;
        while (n != NIL && tree[n].key != x) { n = x < tree[n].key ? tree[n].left : tree[n].right; ++d; }
        if (n == NIL) d = -1;
        if (out[q].x != cnt || out[q].y != fl || out[q].z != d) ok = false;
        count_sum += out[q].x;
        floor_sum += out[q].y;
        depth_sum += out[q].z;
        found += out[q].z >= 0;
    }
    printf("keys %d queries %d found %d\n", NKEYS, NQ, found);
    printf("range_count_sum %lld floor_sum %lld depth_sum %lld\n", count_sum, floor_sum, depth_sum);
    printf("q0: x %d count %d floor %d depth %d\n", qs[0], out[0].x, out[0].y, out[0].z);
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(d_tree));
    CUDA_CHECK(cudaFree(d_qs));
    CUDA_CHECK(cudaFree(d_out));
    return ok ? 0 : 1;
}
