// k-core decomposition by batch peeling in one persistent block: for k = 0,
// 1, 2, ... every live vertex whose remaining degree is at most k is removed
// (core number k) and its live neighbours lose one degree (shared-memory
// atomicSub), until no vertex is left. The host checks the core numbers with
// a sequential one-vertex-at-a-time peeling.
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

#define NODES 2048
#define THREADS 1024
#define PER_THREAD (NODES / THREADS)

__global__ void __launch_bounds__(THREADS) peelCores(const int* rowStart, const int* adj, int* coreOut, int* maxCoreOut) {
    __shared__ int degree[NODES];
    __shared__ int core[NODES];          // -1 while alive
    int t = threadIdx.x;
    for (int v = t; v < NODES; v += THREADS) { degree[v] = rowStart[v + 1] - rowStart[v]; core[v] = -1; }
    __syncthreads();
    int k = 0;
    int alive = 1;
    while (__syncthreads_or(alive)) {
        int removed = 1;
        while (__syncthreads_or(removed)) {
            bool take[PER_THREAD];
            removed = 0;
            for (int i = 0; i < PER_THREAD; ++i) {
                int v = t + i * THREADS;
                take[i] = core[v] < 0 && degree[v] <= k;
            }
            __syncthreads();                                   // decisions use degrees from before this batch
            for (int i = 0; i < PER_THREAD; ++i) if (take[i]) core[t + i * THREADS] = k;
            __syncthreads();
            for (int i = 0; i < PER_THREAD; ++i) {
                if (!take[i]) continue;
                int v = t + i * THREADS;
                removed = 1;
                for (int e = rowStart[v]; e < rowStart[v + 1]; ++e)
                    if (core[adj[e]] < 0) atomicSub(&degree[adj[e]], 1);
            }
        }
        alive = 0;
        for (int v = t; v < NODES; v += THREADS) alive |= core[v] < 0;
        ++k;
    }
    for (int v = t; v < NODES; v += THREADS) coreOut[v] = core[v];
    if (t == 0) *maxCoreOut = k - 1;
}

int main() {
    uint32_t s = 5772156u;
    std::vector<std::vector<int>> lists(NODES);
    for (int u = 0; u < NODES; ++u) {
        int extra = (u % 64 == 0) ? 24 : 3;                    // a few hubs deepen the cores
        for (int k = 0; k < extra; ++k) {
            s = s * 1664525u + 1013904223u;
            int v = (int)((s >> 9) % (u % 64 == 0 ? 256 : NODES));
            if (v == u) continue;
            lists[u].push_back(v); lists[v].push_back(u);
        }
    }
    std::vector<int> rowStart(NODES + 1, 0), adj;
    for (int u = 0; u < NODES; ++u) {
        std::sort(lists[u].begin(), lists[u].end());
        lists[u].erase(std::unique(lists[u].begin(), lists[u].end()), lists[u].end());
        rowStart[u + 1] = rowStart[u] + (int)lists[u].size();
        adj.insert(adj.end(), lists[u].begin(), lists[u].end());
    }
    int *dRow, *dAdj, *dCore, *dMax;
    CUDA_CHECK(cudaMalloc(&dRow, (NODES + 1) * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dAdj, adj.size() * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dCore, NODES * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dMax, sizeof(int)));
    CUDA_CHECK(cudaMemcpy(dRow, rowStart.data(), (NODES + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dAdj, adj.data(), adj.size() * sizeof(int), cudaMemcpyHostToDevice));
    peelCores<<<1, THREADS>>>(dRow, dAdj, dCore, dMax);
    CUDA_CHECK(cudaGetLastError());
    std::vector<int> core(NODES);
    int maxCore = 0;
    CUDA_CHECK(cudaMemcpy(core.data(), dCore, NODES * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&maxCore, dMax, sizeof(int), cudaMemcpyDeviceToHost));

    // host: sequential peeling, always removing a vertex of minimum remaining degree
    std::vector<int> deg(NODES), ref(NODES, -1);
    for (int v = 0; v < NODES; ++v) deg[v] = rowStart[v + 1] - rowStart[v];
    int current = 0;
    for (int removedCount = 0; removedCount < NODES; ++removedCount) {
        int pick = -1;
        for (int v = 0; v < NODES; ++v) if (ref[v] < 0 && (pick < 0 || deg[v] < deg[pick])) pick = v;
        current = std::max(current, deg[pick]);
        ref[pick] = current;
        for (int e = rowStart[pick]; e < rowStart[pick + 1]; ++e) if (ref[adj[e]] < 0) deg[adj[e]]--;
    }
    int mismatches = 0;
    std::vector<int> hist(maxCore + 2 > 0 ? maxCore + 2 : 1, 0);
    long long checksum = 0;
    for (int v = 0; v < NODES; ++v) {
        mismatches += (core[v] != ref[v]);
        if (core[v] >= 0 && core[v] <= maxCore) hist[core[v]]++;
        checksum += (long long)core[v] * (v % 89 + 1);
    }
    printf("nodes %d adjacency entries %d max core %d\n", NODES, (int)adj.size(), maxCore);
    printf("vertices per core number:");
    for (int k = 0; k <= maxCore; ++k) printf(" %d", hist[k]);
    printf("\ncore checksum %lld\nmismatches %d\n", checksum, mismatches);
    bool ok = mismatches == 0;
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dRow)); CUDA_CHECK(cudaFree(dAdj)); CUDA_CHECK(cudaFree(dCore)); CUDA_CHECK(cudaFree(dMax));
    return ok ? 0 : 1;
}
