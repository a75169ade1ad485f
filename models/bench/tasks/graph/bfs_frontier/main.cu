// Level-synchronous breadth-first search over a CSR graph.
// Each launch expands one frontier; parents are resolved deterministically
// (smallest-index parent wins via atomicMin), and a one-thread summary kernel
// reports the reached set with device printf.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <climits>
#include <vector>
#include <queue>
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

static const int kNodes = 16384;
static const int kOutDegree = 4;
static const int kMaxLevels = 18;
static const int kUnvisited = -1;

struct Lcg {
    uint32_t state;
    explicit Lcg(uint32_t seed) : state(seed) {}
    uint32_t next() { state = state * 1664525u + 1013904223u; return state >> 8; }
};

struct CsrGraph {
    std::vector<int> rowStart;
    std::vector<int> adj;
};

static CsrGraph buildGraph() {
    Lcg rng(12345u);
    std::vector<int> src, dst;
    for (int v = 0; v < kNodes; ++v) {
        for (int k = 0; k < kOutDegree; ++k) {
            int u = (int)(rng.next() % kNodes);
            if (u == v) continue;
            src.push_back(v); dst.push_back(u);
            src.push_back(u); dst.push_back(v);
        }
    }
    CsrGraph g;
    g.rowStart.assign(kNodes + 1, 0);
    for (size_t e = 0; e < src.size(); ++e) g.rowStart[src[e] + 1]++;
    for (int v = 0; v < kNodes; ++v) g.rowStart[v + 1] += g.rowStart[v];
    g.adj.resize(src.size());
    std::vector<int> fill(g.rowStart.begin(), g.rowStart.end() - 1);
    for (size_t e = 0; e < src.size(); ++e) g.adj[fill[src[e]]++] = dst[e];
    return g;
}

__global__ void expandFrontier(const int* __restrict__ rowStart, const int* __restrict__ adj,
                               int* level, int* parent, int currentLevel, int* frontierSize) {
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= kNodes || level[v] != currentLevel) return;
    for (int e = rowStart[v]; e < rowStart[v + 1]; ++e) {
        int u = adj[e];
        int seen = level[u];
        if (seen == kUnvisited || seen == currentLevel + 1) {
            if (seen == kUnvisited) level[u] = currentLevel + 1;  // benign: all writers store the same value
            int old = atomicMin(&parent[u], v);
            if (old == INT_MAX) atomicAdd(frontierSize, 1);
        }
    }
}

__global__ void summarize(const int* level, int levels) {
    if (threadIdx.x != 0 || blockIdx.x != 0) return;
    int reached = 0;
    for (int v = 0; v < kNodes; ++v) reached += (level[v] != kUnvisited);
    printf("device summary: reached=%d levels=%d\n", reached, levels);
}

static void cpuBfs(const CsrGraph& g, std::vector<int>& level, std::vector<int>& parent) {
    level.assign(kNodes, kUnvisited);
    parent.assign(kNodes, INT_MAX);
    std::queue<int> q;
    level[0] = 0; parent[0] = 0; q.push(0);
    while (!q.empty()) {
        int v = q.front(); q.pop();
        for (int e = g.rowStart[v]; e < g.rowStart[v + 1]; ++e) {
            int u = g.adj[e];
            if (level[u] == kUnvisited) { level[u] = level[v] + 1; q.push(u); }
        }
    }
    for (int v = 1; v < kNodes; ++v) {
        if (level[v] == kUnvisited) continue;
        for (int e = g.rowStart[v]; e < g.rowStart[v + 1]; ++e) {
            int u = g.adj[e];
            if (level[u] == level[v] - 1 && u < parent[v]) parent[v] = u;
        }
    }
}

int main() {
    CsrGraph g = buildGraph();
    int numEdges = (int)g.adj.size();
    std::vector<int> hLevel(kNodes, kUnvisited), hParent(kNodes, INT_MAX);
    hLevel[0] = 0; hParent[0] = 0;

    int *dRow, *dAdj, *dLevel, *dParent, *dFrontier;
    CUDA_CHECK(cudaMalloc(&dRow, (kNodes + 1) * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dAdj, numEdges * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dLevel, kNodes * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dParent, kNodes * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dFrontier, sizeof(int)));
    CUDA_CHECK(cudaMemcpy(dRow, g.rowStart.data(), (kNodes + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dAdj, g.adj.data(), numEdges * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dLevel, hLevel.data(), kNodes * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dParent, hParent.data(), kNodes * sizeof(int), cudaMemcpyHostToDevice));

    const int threads = 256, blocks = (kNodes + threads - 1) / threads;
    int levels = 0;
    std::vector<int> frontierSizes;
    for (int cur = 0; cur < kMaxLevels; ++cur) {
        int zero = 0, next = 0;
        CUDA_CHECK(cudaMemcpy(dFrontier, &zero, sizeof(int), cudaMemcpyHostToDevice));
        expandFrontier<<<blocks, threads>>>(dRow, dAdj, dLevel, dParent, cur, dFrontier);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaMemcpy(&next, dFrontier, sizeof(int), cudaMemcpyDeviceToHost));
        levels = cur + 1;
        if (next == 0) break;
        frontierSizes.push_back(next);
    }
    fflush(stdout);
    summarize<<<1, 32>>>(dLevel, levels);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    fflush(stdout);

    CUDA_CHECK(cudaMemcpy(hLevel.data(), dLevel, kNodes * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(hParent.data(), dParent, kNodes * sizeof(int), cudaMemcpyDeviceToHost));

    std::vector<int> refLevel, refParent;
    cpuBfs(g, refLevel, refParent);
    int mismatches = 0;
    long long levelSum = 0, parentSum = 0;
    for (int v = 0; v < kNodes; ++v) {
        if (hLevel[v] != refLevel[v] || hParent[v] != refParent[v]) ++mismatches;
        levelSum += hLevel[v];
        if (hLevel[v] != kUnvisited) parentSum += hParent[v];
    }
    printf("nodes %d edges %d levels %d\n", kNodes, numEdges, levels);
    printf("frontier sizes:");
    for (size_t i = 0; i < frontierSizes.size(); ++i) printf(" %d", frontierSizes[i]);
    printf("\n");
    printf("level checksum %lld parent checksum %lld\n", levelSum, parentSum);
    printf("sample level[100]=%d parent[100]=%d level[9999]=%d parent[9999]=%d\n",
           hLevel[100], hParent[100], hLevel[9999], hParent[9999]);
    printf("mismatches %d\n", mismatches);
    bool ok = mismatches == 0;
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dRow)); CUDA_CHECK(cudaFree(dAdj)); CUDA_CHECK(cudaFree(dLevel));
    CUDA_CHECK(cudaFree(dParent)); CUDA_CHECK(cudaFree(dFrontier));
    return ok ? 0 : 1;
}
