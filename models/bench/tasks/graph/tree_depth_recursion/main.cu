// Rooted-tree queries on a random recursive tree (parent[v] < v): every
// thread computes its node's depth and root-path label hash with a recursive
// device function, then adds 1 to the subtree size of each ancestor with
// atomicAdd. A one-thread kernel reports the height via device printf.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
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

static const int kNodes = 4096;

struct PathInfo { int depth; uint32_t hash; };

// depth and FNV-style hash of the labels on the path root -> v
__host__ __device__ PathInfo pathTo(const int* parent, const uint32_t* labels, int v) {
    if (parent[v] < 0) return PathInfo{0, (2166136261u ^ labels[v]) * 16777619u};
    PathInfo up = pathTo(parent, labels, parent[v]);
    return PathInfo{up.depth + 1, (up.hash ^ labels[v]) * 16777619u};
}

__global__ void treeQueries(const int* parent, const uint32_t* labels, int* depth, uint32_t* pathHash, int* subtree, int n) {
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n) return;
    PathInfo info = pathTo(parent, labels, v);
    depth[v] = info.depth;
    pathHash[v] = info.hash;
    for (int a = v; a >= 0; a = parent[a]) atomicAdd(&subtree[a], 1);   // v counts in every ancestor's subtree
}

__global__ void reportHeight(const int* depth, const int* subtree, int n) {
    if (threadIdx.x != 0 || blockIdx.x != 0) return;
    int height = 0, leaves = 0;
    for (int v = 0; v < n; ++v) {
        height = depth[v] > height ? depth[v] : height;
        leaves += subtree[v] == 1;
    }
    printf("device: height %d leaves %d root subtree %d\n", height, leaves, subtree[0]);
}

int main() {
    std::vector<int> parent(kNodes);
    std::vector<uint32_t> labels(kNodes);
    uint32_t s = 1618u;
    parent[0] = -1;
    for (int v = 0; v < kNodes; ++v) {
        s = s * 1664525u + 1013904223u;
        if (v > 0) parent[v] = (int)((s >> 8) % (uint32_t)v);
        // bias towards recent nodes so the tree gets deeper than a plain recursive tree
        if (v > 16 && (s & 3) == 0) parent[v] = v - 1 - (int)((s >> 20) % 8);
        labels[v] = s ^ (s >> 13);
    }
    int *dParent, *dDepth, *dSubtree; uint32_t *dLabels, *dHash;
    CUDA_CHECK(cudaMalloc(&dParent, kNodes * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dLabels, kNodes * sizeof(uint32_t)));
    CUDA_CHECK(cudaMalloc(&dDepth, kNodes * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dHash, kNodes * sizeof(uint32_t)));
    CUDA_CHECK(cudaMalloc(&dSubtree, kNodes * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(dParent, parent.data(), kNodes * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dLabels, labels.data(), kNodes * sizeof(uint32_t), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(dSubtree, 0, kNodes * sizeof(int)));
    CUDA_CHECK(cudaDeviceSetLimit(cudaLimitStackSize, 16384));   // recursion depth follows the tree height
    treeQueries<<<kNodes / 128, 128>>>(dParent, dLabels, dDepth, dHash, dSubtree, kNodes);
    CUDA_CHECK(cudaGetLastError());
    fflush(stdout);
    reportHeight<<<1, 32>>>(dDepth, dSubtree, kNodes);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    fflush(stdout);
    std::vector<int> depth(kNodes), subtree(kNodes);
    std::vector<uint32_t> hash(kNodes);
    CUDA_CHECK(cudaMemcpy(depth.data(), dDepth, kNodes * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(hash.data(), dHash, kNodes * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(subtree.data(), dSubtree, kNodes * sizeof(int), cudaMemcpyDeviceToHost));

    // host: depths and hashes in index order (parents come first), sizes bottom-up
    std::vector<int> refDepth(kNodes), refSize(kNodes, 1);
    std::vector<uint32_t> refHash(kNodes);
    for (int v = 0; v < kNodes; ++v) {
        refDepth[v] = v == 0 ? 0 : refDepth[parent[v]] + 1;
        refHash[v] = ((v == 0 ? 2166136261u : refHash[parent[v]]) ^ labels[v]) * 16777619u;
    }
    for (int v = kNodes - 1; v > 0; --v) refSize[parent[v]] += refSize[v];
    int mismatches = 0, height = 0;
    long long depthSum = 0;
    uint32_t hashFold = 0;
    for (int v = 0; v < kNodes; ++v) {
        mismatches += (depth[v] != refDepth[v]) + (hash[v] != refHash[v]) + (subtree[v] != refSize[v]);
        height = depth[v] > height ? depth[v] : height;
        depthSum += depth[v];
        hashFold ^= hash[v] + (uint32_t)v;
    }
    printf("nodes %d height %d total depth %lld\n", kNodes, height, depthSum);
    printf("path hash fold %08x subtree[1] %d subtree[100] %d\n", hashFold, subtree[1], subtree[100]);
    printf("mismatches %d\n", mismatches);
    bool ok = mismatches == 0;
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dParent)); CUDA_CHECK(cudaFree(dLabels)); CUDA_CHECK(cudaFree(dDepth));
    CUDA_CHECK(cudaFree(dHash)); CUDA_CHECK(cudaFree(dSubtree));
    return ok ? 0 : 1;
}
