// Builds a CSR adjacency structure from an unsorted edge list on the GPU:
// degree counting with atomics, row offsets with cub::DeviceScan, scatter with
// atomic cursors, then a per-row insertion sort so the layout is canonical.
// Finally computes each vertex's two-hop degree from the CSR.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#include <cub/cub.cuh>

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
static const int kEdges = 32768;

__global__ void countDegrees(const int* src, int numEdges, int* degree) {
    int e = blockIdx.x * blockDim.x + threadIdx.x;
    if (e < numEdges) atomicAdd(&degree[src[e]], 1);
}

__global__ void scatterEdges(const int* src, const int* dst, int numEdges,
                             const int* rowStart, int* cursor, int* colIdx) {
    int e = blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= numEdges) return;
    int u = src[e];
    int slot = atomicAdd(&cursor[u], 1);
    colIdx[rowStart[u] + slot] = dst[e];
}

__global__ void sortRows(const int* rowStart, int* colIdx, int n) {
    int u = blockIdx.x * blockDim.x + threadIdx.x;
    if (u >= n) return;
    int begin = rowStart[u], end = rowStart[u + 1];
    for (int i = begin + 1; i < end; ++i) {
        int key = colIdx[i];
        int j = i - 1;
        while (j >= begin && colIdx[j] > key) { colIdx[j + 1] = colIdx[j]; --j; }
        colIdx[j + 1] = key;
    }
}

__global__ void twoHopDegree(const int* rowStart, const int* colIdx, int n, int* twoHop) {
    int u = blockIdx.x * blockDim.x + threadIdx.x;
    if (u >= n) return;
    int total = 0;
    for (int e = rowStart[u]; e < rowStart[u + 1]; ++e) {
        int v = colIdx[e];
        total += rowStart[v + 1] - rowStart[v];
    }
    twoHop[u] = total;
}

int main() {
    std::vector<int> src(kEdges), dst(kEdges);
    uint64_t s = 0x12345678ABCDEFull;
    for (int e = 0; e < kEdges; ++e) {
        s ^= s << 13; s ^= s >> 7; s ^= s << 17;
        src[e] = (int)((s >> 20) % kNodes);
        dst[e] = (int)((s >> 40) % kNodes);
    }
    int *dSrc, *dDst, *dDeg, *dRow, *dCursor, *dCol, *dTwoHop;
    CUDA_CHECK(cudaMalloc(&dSrc, kEdges * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dDst, kEdges * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dDeg, (kNodes + 1) * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dRow, (kNodes + 1) * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dCursor, kNodes * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dCol, kEdges * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dTwoHop, kNodes * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(dSrc, src.data(), kEdges * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dDst, dst.data(), kEdges * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(dDeg, 0, (kNodes + 1) * sizeof(int)));
    CUDA_CHECK(cudaMemset(dCursor, 0, kNodes * sizeof(int)));

    const int threads = 256;
    countDegrees<<<(kEdges + threads - 1) / threads, threads>>>(dSrc, kEdges, dDeg);
    CUDA_CHECK(cudaGetLastError());
    // exclusive scan over kNodes + 1 entries gives rowStart[0..n] (last degree slot is zero)
    void* tempStorage = nullptr;
    size_t tempBytes = 0;
    CUDA_CHECK(cub::DeviceScan::ExclusiveSum(tempStorage, tempBytes, dDeg, dRow, kNodes + 1));
    CUDA_CHECK(cudaMalloc(&tempStorage, tempBytes));
    CUDA_CHECK(cub::DeviceScan::ExclusiveSum(tempStorage, tempBytes, dDeg, dRow, kNodes + 1));
    scatterEdges<<<(kEdges + threads - 1) / threads, threads>>>(dSrc, dDst, kEdges, dRow, dCursor, dCol);
    CUDA_CHECK(cudaGetLastError());
    sortRows<<<(kNodes + threads - 1) / threads, threads>>>(dRow, dCol, kNodes);
    CUDA_CHECK(cudaGetLastError());
    twoHopDegree<<<(kNodes + threads - 1) / threads, threads>>>(dRow, dCol, kNodes, dTwoHop);
    CUDA_CHECK(cudaGetLastError());

    std::vector<int> row(kNodes + 1), col(kEdges), twoHop(kNodes);
    CUDA_CHECK(cudaMemcpy(row.data(), dRow, (kNodes + 1) * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(col.data(), dCol, kEdges * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(twoHop.data(), dTwoHop, kNodes * sizeof(int), cudaMemcpyDeviceToHost));

    // CPU reference: counting sort by (src, dst)
    std::vector<int> refRow(kNodes + 1, 0), refCol(kEdges);
    for (int e = 0; e < kEdges; ++e) refRow[src[e] + 1]++;
    for (int u = 0; u < kNodes; ++u) refRow[u + 1] += refRow[u];
    std::vector<int> fill(refRow.begin(), refRow.end() - 1);
    for (int e = 0; e < kEdges; ++e) refCol[fill[src[e]]++] = dst[e];
    for (int u = 0; u < kNodes; ++u) std::sort(refCol.begin() + refRow[u], refCol.begin() + refRow[u + 1]);
    int mismatches = 0;
    for (int u = 0; u <= kNodes; ++u) mismatches += (row[u] != refRow[u]);
    for (int e = 0; e < kEdges; ++e) mismatches += (col[e] != refCol[e]);
    long long colChecksum = 0, twoHopSum = 0;
    int maxDegree = 0;
    for (int e = 0; e < kEdges; ++e) colChecksum += (long long)col[e] * (e % 13 + 1);
    for (int u = 0; u < kNodes; ++u) {
        int ref2 = 0;
        for (int e = refRow[u]; e < refRow[u + 1]; ++e) ref2 += refRow[refCol[e] + 1] - refRow[refCol[e]];
        mismatches += (ref2 != twoHop[u]);
        twoHopSum += twoHop[u];
        maxDegree = std::max(maxDegree, row[u + 1] - row[u]);
    }
    printf("nodes %d edges %d total offset %d max degree %d\n", kNodes, kEdges, row[kNodes], maxDegree);
    printf("column checksum %lld two-hop sum %lld\n", colChecksum, twoHopSum);
    printf("row[1000]=%d col[0]=%d col[%d]=%d\n", row[1000], col[0], kEdges - 1, col[kEdges - 1]);
    printf("mismatches %d\n", mismatches);
    bool ok = mismatches == 0;
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(tempStorage));
    CUDA_CHECK(cudaFree(dSrc)); CUDA_CHECK(cudaFree(dDst)); CUDA_CHECK(cudaFree(dDeg)); CUDA_CHECK(cudaFree(dRow));
    CUDA_CHECK(cudaFree(dCursor)); CUDA_CHECK(cudaFree(dCol)); CUDA_CHECK(cudaFree(dTwoHop));
    return ok ? 0 : 1;
}
