// Jones-Plassmann graph colouring in one persistent block. A vertex is
// coloured in the round where all higher-priority neighbours are coloured; it
// takes the smallest colour missing from a 64-bit mask of neighbour colours.
// The result equals sequential greedy colouring in priority order.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
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

#define NUM_NODES 4096
#define BLOCK_THREADS 1024
#define NODES_PER_THREAD (NUM_NODES / BLOCK_THREADS)
static const int kUncolored = -1;

__host__ __device__ inline uint32_t priorityOf(uint32_t v) {
    uint32_t h = v * 0x9E3779B1u;
    h ^= h >> 15; h *= 0x85EBCA77u; h ^= h >> 13;
    return h;
}

__host__ __device__ inline bool outranks(int a, int b) {  // does a come before b?
    uint32_t pa = priorityOf(a), pb = priorityOf(b);
    return pa > pb || (pa == pb && a > b);
}

__global__ void __launch_bounds__(BLOCK_THREADS)
colorGraph(const int* rowStart, const int* adj, int* colorOut, int* roundsOut) {
    __shared__ int color[NUM_NODES];
    for (int v = threadIdx.x; v < NUM_NODES; v += blockDim.x) color[v] = kUncolored;
    __syncthreads();
    int rounds = 0;
    int pending = 1;
    while (pending) {
        int chosen[NODES_PER_THREAD];
        for (int k = 0; k < NODES_PER_THREAD; ++k) {
            int v = threadIdx.x + k * BLOCK_THREADS;
            chosen[k] = kUncolored;
            if (color[v] != kUncolored) continue;
            unsigned long long used = 0ull;
            bool ready = true;
            for (int e = rowStart[v]; e < rowStart[v + 1] && ready; ++e) {
                int u = adj[e];
                int cu = color[u];
                if (cu == kUncolored) { if (outranks(u, v)) ready = false; }
                else if (cu < 64) used |= 1ull << cu;
            }
            if (ready) chosen[k] = __ffsll((long long)~used) - 1;
        }
        __syncthreads();
        int stillOpen = 0;
        for (int k = 0; k < NODES_PER_THREAD; ++k) {
            int v = threadIdx.x + k * BLOCK_THREADS;
            if (chosen[k] != kUncolored) color[v] = chosen[k];
            else if (color[v] == kUncolored) stillOpen = 1;
        }
        ++rounds;
        pending = __syncthreads_or(stillOpen);
    }
    for (int v = threadIdx.x; v < NUM_NODES; v += blockDim.x) colorOut[v] = color[v];
    if (threadIdx.x == 0) *roundsOut = rounds;
}

int main() {
    uint32_t s = 31337u;
    std::vector<std::vector<int>> lists(NUM_NODES);
    for (int u = 0; u < NUM_NODES; ++u)
        for (int k = 0; k < 4; ++k) {
            s = s * 1664525u + 1013904223u;
            int v = (int)((s >> 10) % NUM_NODES);
            if (v == u) continue;
            lists[u].push_back(v); lists[v].push_back(u);
        }
    std::vector<int> rowStart(NUM_NODES + 1, 0), adj;
    for (int u = 0; u < NUM_NODES; ++u) {
        std::sort(lists[u].begin(), lists[u].end());
        lists[u].erase(std::unique(lists[u].begin(), lists[u].end()), lists[u].end());
        rowStart[u + 1] = rowStart[u] + (int)lists[u].size();
        adj.insert(adj.end(), lists[u].begin(), lists[u].end());
    }
    int *dRow, *dAdj, *dColor, *dRounds;
    CUDA_CHECK(cudaMalloc(&dRow, (NUM_NODES + 1) * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dAdj, adj.size() * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dColor, NUM_NODES * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dRounds, sizeof(int)));
    CUDA_CHECK(cudaMemcpy(dRow, rowStart.data(), (NUM_NODES + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dAdj, adj.data(), adj.size() * sizeof(int), cudaMemcpyHostToDevice));
    colorGraph<<<1, BLOCK_THREADS>>>(dRow, dAdj, dColor, dRounds);
    CUDA_CHECK(cudaGetLastError());
    std::vector<int> color(NUM_NODES);
    int rounds = 0;
    CUDA_CHECK(cudaMemcpy(color.data(), dColor, NUM_NODES * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&rounds, dRounds, sizeof(int), cudaMemcpyDeviceToHost));

    // CPU reference: greedy colouring in priority order
    std::vector<int> order(NUM_NODES);
    for (int v = 0; v < NUM_NODES; ++v) order[v] = v;
    std::sort(order.begin(), order.end(), [](int a, int b) { return outranks(a, b); });
    std::vector<int> ref(NUM_NODES, kUncolored);
    for (int v : order) {
        unsigned long long used = 0ull;
        for (int e = rowStart[v]; e < rowStart[v + 1]; ++e)
            if (ref[adj[e]] != kUncolored && ref[adj[e]] < 64) used |= 1ull << ref[adj[e]];
        int c = 0;
        while (used & (1ull << c)) ++c;
        ref[v] = c;
    }
    int mismatches = 0, conflicts = 0, numColors = 0;
    long long checksum = 0;
    std::vector<int> hist(64, 0);
    for (int v = 0; v < NUM_NODES; ++v) {
        if (color[v] != ref[v]) ++mismatches;
        for (int e = rowStart[v]; e < rowStart[v + 1]; ++e) conflicts += (color[adj[e]] == color[v]);
        if (color[v] >= 0 && color[v] < 64) hist[color[v]]++;
        numColors = std::max(numColors, color[v] + 1);
        checksum += (long long)color[v] * (v + 1);
    }
    printf("nodes %d adjacency entries %d\n", NUM_NODES, (int)adj.size());
    printf("colors %d conflicts %d rounds %d\n", numColors, conflicts, rounds);
    printf("histogram:");
    for (int c = 0; c < numColors && c < 64; ++c) printf(" %d", hist[c]);
    printf("\ncolor checksum %lld\n", checksum);
    bool ok = mismatches == 0 && conflicts == 0;
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dRow)); CUDA_CHECK(cudaFree(dAdj)); CUDA_CHECK(cudaFree(dColor)); CUDA_CHECK(cudaFree(dRounds));
    return ok ? 0 : 1;
}
