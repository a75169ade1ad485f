// Pull-based PageRank over the transposed CSR of a random directed graph.
// Ranks live in managed memory; a struct carries the graph view to the kernel.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>
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

static const int kNodes = 8192;
static const int kIterations = 10;
static const float kDamping = 0.85f;

struct XorShift32 {
    uint32_t s;
    explicit XorShift32(uint32_t seed) : s(seed) {}
    uint32_t next() { s ^= s << 13; s ^= s >> 17; s ^= s << 5; return s; }
};

struct GraphView {
    const int* inStart;     // CSR over incoming edges
    const int* inSource;
    const float* invOutDegree;
    int numNodes;
};

__global__ void pagerankStep(GraphView g, const float* rankIn, float* rankOut, float damping) {
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= g.numNodes) return;
    float acc = 0.0f;
    for (int e = g.inStart[v]; e < g.inStart[v + 1]; ++e) {
        int u = g.inSource[e];
        acc += rankIn[u] * g.invOutDegree[u];
    }
    rankOut[v] = (1.0f - damping) / g.numNodes + damping * acc;
}

int main() {
    XorShift32 rng(2024u);
    std::vector<int> src, dst, outDeg(kNodes, 0), inDeg(kNodes, 0);
    for (int u = 0; u < kNodes; ++u) {
        int deg = 1 + (int)(rng.next() % 8);
        for (int k = 0; k < deg; ++k) {
            // bias toward low ids so some nodes become hubs
            uint32_t r = rng.next();
            int v = (int)((r % kNodes) * (uint64_t)(r % kNodes) / kNodes);
            src.push_back(u); dst.push_back(v);
            outDeg[u]++; inDeg[v]++;
        }
    }
    int numEdges = (int)src.size();
    int *inStart, *inSource;
    float *invOut, *rankA, *rankB;
    CUDA_CHECK(cudaMallocManaged(&inStart, (kNodes + 1) * sizeof(int)));
    CUDA_CHECK(cudaMallocManaged(&inSource, numEdges * sizeof(int)));
    CUDA_CHECK(cudaMallocManaged(&invOut, kNodes * sizeof(float)));
    CUDA_CHECK(cudaMallocManaged(&rankA, kNodes * sizeof(float)));
    CUDA_CHECK(cudaMallocManaged(&rankB, kNodes * sizeof(float)));
    inStart[0] = 0;
    for (int v = 0; v < kNodes; ++v) inStart[v + 1] = inStart[v] + inDeg[v];
    std::vector<int> cursor(inStart, inStart + kNodes);
    for (int e = 0; e < numEdges; ++e) inSource[cursor[dst[e]]++] = src[e];
    for (int v = 0; v < kNodes; ++v) {
        invOut[v] = 1.0f / outDeg[v];
        rankA[v] = 1.0f / kNodes;
    }

    GraphView g{inStart, inSource, invOut, kNodes};
    const int threads = 128, blocks = (kNodes + threads - 1) / threads;
    float* cur = rankA;
    float* nxt = rankB;
    for (int it = 0; it < kIterations; ++it) {
        pagerankStep<<<blocks, threads>>>(g, cur, nxt, kDamping);
        CUDA_CHECK(cudaGetLastError());
        float* t = cur; cur = nxt; nxt = t;
    }
    CUDA_CHECK(cudaDeviceSynchronize());

    // CPU reference in double precision, same update order
    std::vector<double> ref(kNodes, 1.0 / kNodes), tmp(kNodes);
    for (int it = 0; it < kIterations; ++it) {
        for (int v = 0; v < kNodes; ++v) {
            double acc = 0.0;
            for (int e = inStart[v]; e < inStart[v + 1]; ++e) acc += ref[inSource[e]] / outDeg[inSource[e]];
            tmp[v] = (1.0 - kDamping) / kNodes + kDamping * acc;
        }
        ref.swap(tmp);
    }
    double sum = 0.0, maxErr = 0.0, maxRank = 0.0;
    for (int v = 0; v < kNodes; ++v) {
        sum += cur[v];
        if (cur[v] > maxRank) maxRank = cur[v];
        double err = fabs(cur[v] - ref[v]) / ref[v];
        if (err > maxErr) maxErr = err;
    }
    printf("nodes %d edges %d iterations %d\n", kNodes, numEdges, kIterations);
    printf("rank sum %.6e max rank %.6e\n", sum, maxRank);
    printf("rank[0] %.6e rank[1] %.6e rank[100] %.6e rank[8000] %.6e\n",
           cur[0], cur[1], cur[100], cur[8000]);
    bool ok = maxErr < 1e-4;
    printf("max relative error below 1e-4: %s\n", ok ? "yes" : "no");
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(inStart)); CUDA_CHECK(cudaFree(inSource)); CUDA_CHECK(cudaFree(invOut));
    CUDA_CHECK(cudaFree(rankA)); CUDA_CHECK(cudaFree(rankB));
    return ok ? 0 : 1;
}
