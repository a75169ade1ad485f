// Jaccard similarity of every edge (u, v) of an undirected graph with sorted
// adjacency lists: |N(u) & N(v)| / |N(u) | N(v)|. Each block handles a
// contiguous range of vertices and stages that range's row offsets into
// shared memory with cooperative_groups::memcpy_async before scanning.
// Similarities are floats from exact integer counts, so results are exact.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>

namespace cg = cooperative_groups;

#define CUDA_CHECK(call)                                                        \
    do {                                                                        \
        cudaError_t err_ = (call);                                              \
        if (err_ != cudaSuccess) {                                              \
            fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_), \
                    __FILE__, __LINE__);                                        \
            exit(2);                                                            \
        }                                                                       \
    } while (0)

#define THREADS 128
static const int kNodes = 4096;

__host__ __device__ inline int intersectSorted(const int* a, int na, const int* b, int nb) {
    int i = 0, j = 0, c = 0;
    while (i < na && j < nb) {
        if (a[i] < b[j]) ++i;
        else if (a[i] > b[j]) ++j;
        else { ++c; ++i; ++j; }
    }
    return c;
}

__global__ void edgeJaccard(const int* rowStart, const int* adj, int n, float* similarity, unsigned int* strongEdges) {
    __shared__ int rows[THREADS + 1];
    cg::thread_block block = cg::this_thread_block();
    int first = blockIdx.x * THREADS;
    int count = min(THREADS + 1, n + 1 - first);
    cg::memcpy_async(block, rows, rowStart + first, sizeof(int) * count);
    cg::wait(block);
    int u = first + threadIdx.x;
    if (u >= n) return;
    int begin = rows[threadIdx.x], end = rows[threadIdx.x + 1];
    int du = end - begin;
    for (int e = begin; e < end; ++e) {
        int v = adj[e];
        int dv = rowStart[v + 1] - rowStart[v];
        int common = intersectSorted(adj + begin, du, adj + rowStart[v], dv);
        float jac = (float)common / (float)(du + dv - common);
        similarity[e] = jac;
        if (4 * common >= du + dv - common) atomicAdd(strongEdges, 1u);   // Jaccard >= 0.25, decided in integers
    }
}

int main() {
    uint32_t s = 8128u;
    std::vector<std::vector<int>> lists(kNodes);
    for (int u = 0; u < kNodes; ++u)
        for (int k = 0; k < 5; ++k) {
            s = s * 1664525u + 1013904223u;
            int v = (u + 1 + (int)((s >> 12) % 24)) % kNodes;   // local neighbourhoods share many neighbours
            lists[u].push_back(v); lists[v].push_back(u);
        }
    std::vector<int> rowStart(kNodes + 1, 0), adj;
    for (int u = 0; u < kNodes; ++u) {
        std::sort(lists[u].begin(), lists[u].end());
        lists[u].erase(std::unique(lists[u].begin(), lists[u].end()), lists[u].end());
        rowStart[u + 1] = rowStart[u] + (int)lists[u].size();
        adj.insert(adj.end(), lists[u].begin(), lists[u].end());
    }
    int numAdj = (int)adj.size();
    int *dRow, *dAdj; float* dSim; unsigned int* dStrong;
    CUDA_CHECK(cudaMalloc(&dRow, (kNodes + 1) * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dAdj, numAdj * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dSim, numAdj * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dStrong, sizeof(unsigned int)));
    CUDA_CHECK(cudaMemcpy(dRow, rowStart.data(), (kNodes + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dAdj, adj.data(), numAdj * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(dStrong, 0, sizeof(unsigned int)));
    edgeJaccard<<<(kNodes + THREADS - 1) / THREADS, THREADS>>>(dRow, dAdj, kNodes, dSim, dStrong);
    CUDA_CHECK(cudaGetLastError());
    std::vector<float> sim(numAdj);
    unsigned int strong = 0;
    CUDA_CHECK(cudaMemcpy(sim.data(), dSim, numAdj * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&strong, dStrong, sizeof(strong), cudaMemcpyDeviceToHost));

    int mismatches = 0;
    unsigned int refStrong = 0;
    double simSum = 0.0;
    float simMax = 0.0f;
    for (int u = 0; u < kNodes; ++u) {
        int du = rowStart[u + 1] - rowStart[u];
        for (int e = rowStart[u]; e < rowStart[u + 1]; ++e) {
            int v = adj[e], dv = rowStart[v + 1] - rowStart[v];
            int common = intersectSorted(&adj[rowStart[u]], du, &adj[rowStart[v]], dv);
            float jac = (float)common / (float)(du + dv - common);
            mismatches += (jac != sim[e]);
            refStrong += (4 * common >= du + dv - common);
            simSum += sim[e];
            simMax = std::max(simMax, sim[e]);
        }
    }
    mismatches += (strong != refStrong);
    printf("nodes %d directed adjacency entries %d\n", kNodes, numAdj);
    printf("mean jaccard %.6e max %.6e edges with jaccard >= 0.25: %u\n", simSum / numAdj, simMax, strong);
    printf("sim[0] %.6e sim[1000] %.6e\n", sim[0], sim[1000]);
    printf("mismatches %d\n", mismatches);
    bool ok = mismatches == 0;
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dRow)); CUDA_CHECK(cudaFree(dAdj)); CUDA_CHECK(cudaFree(dSim)); CUDA_CHECK(cudaFree(dStrong));
    return ok ? 0 : 1;
}
