// Triangle counting on an undirected graph with sorted adjacency lists.
// One 32-thread tile per vertex (cooperative groups); lanes intersect the
// vertex's list with each higher neighbour's list and reduce with shuffles.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#include <cooperative_groups.h>

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

static const int kNodes = 4096;
static const int kEdgesPerNode = 6;
static const int kLocality = 64;   // neighbours drawn near the vertex -> many triangles

__device__ __host__ inline int countCommonAbove(const int* a, int na, const int* b, int nb, int floor) {
    int i = 0, j = 0, c = 0;
    while (i < na && j < nb) {
        if (a[i] < b[j]) ++i;
        else if (a[i] > b[j]) ++j;
        else { if (a[i] > floor) ++c; ++i; ++j; }
    }
    return c;
}

__global__ void countTriangles(const int* rowStart, const int* adj, int n,
                               unsigned int* perVertex, unsigned long long* total) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    int u = blockIdx.x * (blockDim.x / 32) + tile.meta_group_rank();
    if (u >= n) return;   // whole tile exits together
    const int* au = adj + rowStart[u];
    int du = rowStart[u + 1] - rowStart[u];
    unsigned int local = 0;
    for (int k = tile.thread_rank(); k < du; k += tile.size()) {
        int v = au[k];
        if (v <= u) continue;
        const int* av = adj + rowStart[v];
        int dv = rowStart[v + 1] - rowStart[v];
        local += countCommonAbove(au, du, av, dv, v);
    }
    for (int offset = tile.size() / 2; offset > 0; offset /= 2)
        local += tile.shfl_down(local, offset);
    if (tile.thread_rank() == 0) {
        perVertex[u] = local;
        atomicAdd(total, (unsigned long long)local);
    }
}

int main() {
    uint32_t s = 99991u;
    std::vector<std::vector<int>> lists(kNodes);
    for (int u = 0; u < kNodes; ++u) {
        for (int k = 0; k < kEdgesPerNode; ++k) {
            s = s * 1103515245u + 12345u;
            int off = 1 + (int)((s >> 16) % kLocality);
            int v = (u + off) % kNodes;
            lists[u].push_back(v);
            lists[v].push_back(u);
        }
    }
    std::vector<int> rowStart(kNodes + 1, 0), adj;
    for (int u = 0; u < kNodes; ++u) {
        std::sort(lists[u].begin(), lists[u].end());
        lists[u].erase(std::unique(lists[u].begin(), lists[u].end()), lists[u].end());
        rowStart[u + 1] = rowStart[u] + (int)lists[u].size();
        adj.insert(adj.end(), lists[u].begin(), lists[u].end());
    }
    int numAdj = (int)adj.size();

    int *dRow, *dAdj; unsigned int* dPer; unsigned long long* dTotal;
    CUDA_CHECK(cudaMalloc(&dRow, (kNodes + 1) * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dAdj, numAdj * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dPer, kNodes * sizeof(unsigned int)));
    CUDA_CHECK(cudaMalloc(&dTotal, sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemcpy(dRow, rowStart.data(), (kNodes + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dAdj, adj.data(), numAdj * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(dTotal, 0, sizeof(unsigned long long)));

    const int threads = 256, tilesPerBlock = threads / 32;
    countTriangles<<<(kNodes + tilesPerBlock - 1) / tilesPerBlock, threads>>>(dRow, dAdj, kNodes, dPer, dTotal);
    CUDA_CHECK(cudaGetLastError());
    std::vector<unsigned int> per(kNodes);
    unsigned long long total = 0;
    CUDA_CHECK(cudaMemcpy(per.data(), dPer, kNodes * sizeof(unsigned int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&total, dTotal, sizeof(unsigned long long), cudaMemcpyDeviceToHost));

    unsigned long long refTotal = 0;
    int mismatches = 0;
    unsigned long long weighted = 0;
    for (int u = 0; u < kNodes; ++u) {
        unsigned int c = 0;
        const int* au = adj.data() + rowStart[u];
        int du = rowStart[u + 1] - rowStart[u];
        for (int k = 0; k < du; ++k) {
            int v = au[k];
            if (v <= u) continue;
            c += countCommonAbove(au, du, adj.data() + rowStart[v], rowStart[v + 1] - rowStart[v], v);
        }
        refTotal += c;
        if (c != per[u]) ++mismatches;
        weighted += (unsigned long long)per[u] * (u % 97 + 1);
    }
    printf("nodes %d undirected edges %d\n", kNodes, numAdj / 2);
    printf("triangles %llu reference %llu\n", total, refTotal);
    printf("weighted per-vertex checksum %llu\n", weighted);
    printf("per[0]=%u per[1234]=%u per[4000]=%u\n", per[0], per[1234], per[4000]);
    bool ok = mismatches == 0 && total == refTotal;
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dRow)); CUDA_CHECK(cudaFree(dAdj)); CUDA_CHECK(cudaFree(dPer)); CUDA_CHECK(cudaFree(dTotal));
    return ok ? 0 : 1;
}
