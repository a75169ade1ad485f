// Minimum spanning forest by Boruvka's algorithm in one persistent block.
// Each round every component picks its lightest outgoing edge with a 64-bit
// shared-memory atomicMin on (weight << 32 | edge id) - the id breaks ties so
// the forest is unique - then components hook and pointer-jump. The result
// must equal Kruskal's forest edge for edge.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <algorithm>
#include <numeric>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                        \
    do {                                                                        \
        cudaError_t err_ = (call);                                              \
        if (err_ != cudaSuccess) {                                              \
            fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_), \
                    __FILE__, __LINE__);                                        \
            exit(2);                                                            \
        }                                                                       \
    } while (0)

#define NODES 1024
#define THREADS 1024
static const int kEdges = 3000;
static const unsigned long long kNone = ~0ull;

struct Edge { int u, v, w; };

__global__ void __launch_bounds__(THREADS) boruvka(const Edge* edges, int numEdges, unsigned char* inForest, int* roundsOut) {
    __shared__ int label[NODES];
    __shared__ int parent[NODES];
    __shared__ unsigned long long best[NODES];
    int t = threadIdx.x;
    for (int v = t; v < NODES; v += THREADS) label[v] = v;
    for (int e = t; e < numEdges; e += THREADS) inForest[e] = 0;
    int rounds = 0;
    for (;;) {
        for (int v = t; v < NODES; v += THREADS) best[v] = kNone;
        __syncthreads();
        for (int e = t; e < numEdges; e += THREADS) {
            int cu = label[edges[e].u], cv = label[edges[e].v];
            if (cu == cv) continue;
            unsigned long long key = ((unsigned long long)edges[e].w << 32) | (unsigned)e;
            atomicMin(&best[cu], key);
            atomicMin(&best[cv], key);
        }
        __syncthreads();
        int hooked = 0;
        for (int c = t; c < NODES; c += THREADS) {
            parent[c] = c;
            if (label[c] != c || best[c] == kNone) continue;      // only roots with an outgoing edge
            int e = (int)(best[c] & 0xffffffffu);
            int cu = label[edges[e].u], cv = label[edges[e].v];
            int other = (cu == c) ? cv : cu;
            inForest[e] = 1;
            hooked = 1;
            if (!(best[other] == best[c] && c < other)) parent[c] = other;   // mutual choice: smaller id stays root
        }
        if (!__syncthreads_or(hooked)) break;
        ++rounds;
        int moving = 1;
        while (__syncthreads_or(moving)) {                       // pointer jumping over the hook forest
            moving = 0;
            int next[NODES / THREADS];
            for (int k = 0, c = t; c < NODES; c += THREADS, ++k) next[k] = parent[parent[c]];
            __syncthreads();
            for (int k = 0, c = t; c < NODES; c += THREADS, ++k)
                if (next[k] != parent[c]) { parent[c] = next[k]; moving = 1; }
        }
        for (int v = t; v < NODES; v += THREADS) label[v] = parent[label[v]];
        __syncthreads();
    }
    if (t == 0) *roundsOut = rounds;
}

static int findSet(std::vector<int>& p, int x) {
    while (p[x] != x) { p[x] = p[p[x]]; x = p[x]; }
    return x;
}

int main() {
    std::vector<Edge> edges(kEdges);
    uint32_t s = 27182818u;
    for (int e = 0; e < kEdges; ++e) {
        s = s * 1664525u + 1013904223u; int u = (int)((s >> 8) % NODES);
        s = s * 1664525u + 1013904223u; int v = (int)((s >> 8) % NODES);
        s = s * 1664525u + 1013904223u; int w = 1 + (int)((s >> 8) % 500);
        if (u == v) v = (v + 1) % NODES;
        edges[e] = Edge{u, v, w};
    }
    Edge* dEdges; unsigned char* dIn; int* dRounds;
    CUDA_CHECK(cudaMalloc(&dEdges, kEdges * sizeof(Edge)));
    CUDA_CHECK(cudaMalloc(&dIn, kEdges));
    CUDA_CHECK(cudaMalloc(&dRounds, sizeof(int)));
    CUDA_CHECK(cudaMemcpy(dEdges, edges.data(), kEdges * sizeof(Edge), cudaMemcpyHostToDevice));
    boruvka<<<1, THREADS>>>(dEdges, kEdges, dIn, dRounds);
    CUDA_CHECK(cudaGetLastError());
    std::vector<unsigned char> inForest(kEdges);
    int rounds = 0;
    CUDA_CHECK(cudaMemcpy(inForest.data(), dIn, kEdges, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&rounds, dRounds, sizeof(int), cudaMemcpyDeviceToHost));

    // Kruskal with the same (weight, id) order
    std::vector<int> order(kEdges), p(NODES);
    std::iota(order.begin(), order.end(), 0);
    std::iota(p.begin(), p.end(), 0);
    std::sort(order.begin(), order.end(), [&](int a, int b) {
        return edges[a].w != edges[b].w ? edges[a].w < edges[b].w : a < b;
    });
    std::vector<unsigned char> ref(kEdges, 0);
    for (int e : order) {
        int a = findSet(p, edges[e].u), b = findSet(p, edges[e].v);
        if (a != b) { p[a] = b; ref[e] = 1; }
    }
    int mismatches = 0, forestEdges = 0, components = 0;
    long long weight = 0, idChecksum = 0;
    for (int e = 0; e < kEdges; ++e) {
        mismatches += (inForest[e] != ref[e]);
        if (inForest[e]) { ++forestEdges; weight += edges[e].w; idChecksum += e; }
    }
    for (int v = 0; v < NODES; ++v) components += (findSet(p, v) == v);
    printf("nodes %d edges %d boruvka rounds %d\n", NODES, kEdges, rounds);
    printf("forest edges %d components %d total weight %lld edge-id checksum %lld\n", forestEdges, components, weight, idChecksum);
    printf("mismatches %d\n", mismatches);
    bool ok = mismatches == 0 && forestEdges == NODES - components;
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dEdges)); CUDA_CHECK(cudaFree(dIn)); CUDA_CHECK(cudaFree(dRounds));
    return ok ? 0 : 1;
}
