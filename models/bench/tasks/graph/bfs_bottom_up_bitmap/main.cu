// Bottom-up breadth-first search with bitmap frontiers: in each level every
// unvisited vertex scans its neighbours and joins the next frontier as soon as
// one of them is in the current frontier bitmap (early exit). Frontier bits
// are set with atomicOr on 32-bit words; frontier sizes come from __popc over
// the words, reduced with warp shuffles.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <queue>
#include <algorithm>
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

static const int kNodes = 8192;
static const int kWords = kNodes / 32;
static const int kMaxLevels = 16;

__global__ void bottomUpStep(const int* rowStart, const int* adj, const uint32_t* frontier, uint32_t* nextFrontier,
                             int* level, int depth) {
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= kNodes || level[v] >= 0) return;
    for (int e = rowStart[v]; e < rowStart[v + 1]; ++e) {
        int u = adj[e];
        if ((frontier[u >> 5] >> (u & 31)) & 1u) {
            level[v] = depth + 1;
            atomicOr(&nextFrontier[v >> 5], 1u << (v & 31));
            break;
        }
    }
}

__global__ void countBits(const uint32_t* words, int n, int* count) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int c = i < n ? __popc(words[i]) : 0;
    for (int offset = 16; offset > 0; offset >>= 1) c += __shfl_down_sync(0xFFFFFFFFu, c, offset);
    if ((threadIdx.x & 31) == 0 && c) atomicAdd(count, c);
}

int main() {
    uint32_t s = 20250u;
    std::vector<std::vector<int>> lists(kNodes);
    for (int v = 0; v < kNodes; ++v)
        for (int k = 0; k < 3; ++k) {
            s = s * 1664525u + 1013904223u;
            int u = (int)((s >> 9) % kNodes);
            if (u != v) { lists[v].push_back(u); lists[u].push_back(v); }
        }
    std::vector<int> rowStart(kNodes + 1, 0), adj;
    for (int v = 0; v < kNodes; ++v) {
        std::sort(lists[v].begin(), lists[v].end());
        lists[v].erase(std::unique(lists[v].begin(), lists[v].end()), lists[v].end());
        rowStart[v + 1] = rowStart[v] + (int)lists[v].size();
        adj.insert(adj.end(), lists[v].begin(), lists[v].end());
    }
    std::vector<int> level(kNodes, -1);
    std::vector<uint32_t> frontier(kWords, 0u);
    level[0] = 0; frontier[0] = 1u;
    int *dRow, *dAdj, *dLevel, *dCount; uint32_t *dA, *dB;
    CUDA_CHECK(cudaMalloc(&dRow, (kNodes + 1) * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dAdj, adj.size() * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dLevel, kNodes * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dCount, sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dA, kWords * sizeof(uint32_t)));
    CUDA_CHECK(cudaMalloc(&dB, kWords * sizeof(uint32_t)));
    CUDA_CHECK(cudaMemcpy(dRow, rowStart.data(), (kNodes + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dAdj, adj.data(), adj.size() * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dLevel, level.data(), kNodes * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dA, frontier.data(), kWords * sizeof(uint32_t), cudaMemcpyHostToDevice));
    std::vector<int> sizes;
    uint32_t *cur = dA, *nxt = dB;
    for (int depth = 0; depth < kMaxLevels; ++depth) {
        CUDA_CHECK(cudaMemset(nxt, 0, kWords * sizeof(uint32_t)));
        CUDA_CHECK(cudaMemset(dCount, 0, sizeof(int)));
        bottomUpStep<<<kNodes / 256, 256>>>(dRow, dAdj, cur, nxt, dLevel, depth);
        CUDA_CHECK(cudaGetLastError());
        countBits<<<kWords / 128, 128>>>(nxt, kWords, dCount);
        CUDA_CHECK(cudaGetLastError());
        int count = 0;
        CUDA_CHECK(cudaMemcpy(&count, dCount, sizeof(int), cudaMemcpyDeviceToHost));
        if (count == 0) break;
        sizes.push_back(count);
        uint32_t* t = cur; cur = nxt; nxt = t;
    }
    CUDA_CHECK(cudaMemcpy(level.data(), dLevel, kNodes * sizeof(int), cudaMemcpyDeviceToHost));

    std::vector<int> ref(kNodes, -1);
    std::queue<int> q;
    ref[0] = 0; q.push(0);
    while (!q.empty()) {
        int v = q.front(); q.pop();
        for (int e = rowStart[v]; e < rowStart[v + 1]; ++e)
            if (ref[adj[e]] < 0) { ref[adj[e]] = ref[v] + 1; q.push(adj[e]); }
    }
    int mismatches = 0, reached = 0;
    long long levelSum = 0;
    for (int v = 0; v < kNodes; ++v) {
        mismatches += (level[v] != ref[v]);
        if (level[v] >= 0) { ++reached; levelSum += level[v]; }
    }
    printf("nodes %d adjacency entries %d reached %d level sum %lld\n", kNodes, (int)adj.size(), reached, levelSum);
    printf("frontier sizes:");
    for (int c : sizes) printf(" %d", c);
    printf("\nmismatches %d\n", mismatches);
    bool ok = mismatches == 0;
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dRow)); CUDA_CHECK(cudaFree(dAdj)); CUDA_CHECK(cudaFree(dLevel));
    CUDA_CHECK(cudaFree(dCount)); CUDA_CHECK(cudaFree(dA)); CUDA_CHECK(cudaFree(dB));
    return ok ? 0 : 1;
}
