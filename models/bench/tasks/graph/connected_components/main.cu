// Connected components by min-label hooking and pointer jumping.
// The hooking kernel reports progress with one warp-vote per warp.
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

static const int kNodes = 8192;
static const int kEdges = 6000;
static const int kMaxRounds = 10;

static uint32_t lcgNext(uint32_t& s) { s = s * 22695477u + 1u; return s >> 7; }

__global__ void hookEdges(const int2* edges, int numEdges, int* label, int* changed) {
    int e = blockIdx.x * blockDim.x + threadIdx.x;
    bool hooked = false;
    if (e < numEdges) {
        int2 ed = edges[e];
        int lu = label[ed.x];
        int lv = label[ed.y];
        if (lu != lv) {
            int lo = min(lu, lv), hi = max(lu, lv);
            int old = atomicMin(&label[hi], lo);
            hooked = old > lo;
        }
    }
    unsigned anyHooked = __ballot_sync(0xffffffffu, hooked);
    if ((threadIdx.x & 31) == 0 && anyHooked != 0) atomicOr(changed, 1);
}

__global__ void compressLabels(int* label, int n) {
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n) return;
    int l = label[v];
    while (label[l] != l) l = label[l];
    label[v] = l;
}

static int findRoot(std::vector<int>& p, int v) {
    while (p[v] != v) { p[v] = p[p[v]]; v = p[v]; }
    return v;
}

int main() {
    uint32_t seed = 777u;
    std::vector<int2> edges(kEdges);
    for (int e = 0; e < kEdges; ++e) {
        edges[e].x = (int)(lcgNext(seed) % kNodes);
        edges[e].y = (int)(lcgNext(seed) % kNodes);
    }
    std::vector<int> label(kNodes);
    for (int v = 0; v < kNodes; ++v) label[v] = v;

    int2* dEdges; int* dLabel; int* dChanged;
    CUDA_CHECK(cudaMalloc(&dEdges, kEdges * sizeof(int2)));
    CUDA_CHECK(cudaMalloc(&dLabel, kNodes * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dChanged, sizeof(int)));
    CUDA_CHECK(cudaMemcpy(dEdges, edges.data(), kEdges * sizeof(int2), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dLabel, label.data(), kNodes * sizeof(int), cudaMemcpyHostToDevice));

    const int threads = 256;
    bool converged = false;
    for (int round = 0; round < kMaxRounds; ++round) {
        int changed = 0;
        CUDA_CHECK(cudaMemset(dChanged, 0, sizeof(int)));
        hookEdges<<<(kEdges + threads - 1) / threads, threads>>>(dEdges, kEdges, dLabel, dChanged);
        CUDA_CHECK(cudaGetLastError());
        compressLabels<<<(kNodes + threads - 1) / threads, threads>>>(dLabel, kNodes);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaMemcpy(&changed, dChanged, sizeof(int), cudaMemcpyDeviceToHost));
        if (!changed) { converged = true; break; }
    }
    CUDA_CHECK(cudaMemcpy(label.data(), dLabel, kNodes * sizeof(int), cudaMemcpyDeviceToHost));

    // CPU reference: union-find, representative = smallest vertex of the component
    std::vector<int> parent(kNodes);
    for (int v = 0; v < kNodes; ++v) parent[v] = v;
    for (int e = 0; e < kEdges; ++e) {
        int a = findRoot(parent, edges[e].x), b = findRoot(parent, edges[e].y);
        if (a != b) parent[std::max(a, b)] = std::min(a, b);
    }
    std::vector<int> size(kNodes, 0);
    int mismatches = 0, components = 0, largest = 0;
    long long labelSum = 0;
    for (int v = 0; v < kNodes; ++v) {
        int r = findRoot(parent, v);
        if (r != label[v]) ++mismatches;
        size[label[v] >= 0 && label[v] < kNodes ? label[v] : 0]++;
        labelSum += label[v];
    }
    for (int v = 0; v < kNodes; ++v) {
        if (size[v] > 0) ++components;
        largest = std::max(largest, size[v]);
    }
    int isolated = 0;
    for (int v = 0; v < kNodes; ++v) isolated += (size[v] == 1);
    printf("nodes %d edges %d converged %s\n", kNodes, kEdges, converged ? "yes" : "no");
    printf("components %d largest %d isolated %d\n", components, largest, isolated);
    printf("label checksum %lld label[4095]=%d label[8191]=%d\n", labelSum, label[4095], label[8191]);
    printf("mismatches %d\n", mismatches);
    bool ok = converged && mismatches == 0;
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dEdges)); CUDA_CHECK(cudaFree(dLabel)); CUDA_CHECK(cudaFree(dChanged));
    return ok ? 0 : 1;
}
