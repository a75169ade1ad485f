// Community detection by synchronous label propagation on a graph with
// planted communities: in each of 8 rounds every vertex takes the most
// frequent label among its neighbours (ties: the smallest label; its own label
// counts once), reading the previous round's labels (ping-pong buffers).
// Synchronous updates make the result deterministic.
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

#define MAX_DEGREE 48
static const int kNodes = 2048;
static const int kCommunitySize = 64;
static const int kRounds = 8;

struct Csr { const int* rowStart; const int* adj; };

__host__ __device__ inline int modeLabel(const Csr g, const int* labels, int v) {
    int cand[MAX_DEGREE + 1];
    int n = 0;
    cand[n++] = labels[v];
    for (int e = g.rowStart[v]; e < g.rowStart[v + 1] && n <= MAX_DEGREE; ++e) cand[n++] = labels[g.adj[e]];
    for (int i = 1; i < n; ++i) {                 // insertion sort of the candidate labels
        int key = cand[i], j = i - 1;
        while (j >= 0 && cand[j] > key) { cand[j + 1] = cand[j]; --j; }
        cand[j + 1] = key;
    }
    int best = cand[0], bestCount = 0;
    for (int i = 0; i < n;) {
        int j = i;
        while (j < n && cand[j] == cand[i]) ++j;
        if (j - i > bestCount) { bestCount = j - i; best = cand[i]; }   // strict: the smallest label wins ties
        i = j;
    }
    return best;
}

__global__ void propagate(Csr g, const int* labelsIn, int* labelsOut, int n) {
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n) labelsOut[v] = modeLabel(g, labelsIn, v);
}

int main() {
    uint32_t s = 1123581u;
    std::vector<std::vector<int>> lists(kNodes);
    auto link = [&](int a, int b) { if (a != b) { lists[a].push_back(b); lists[b].push_back(a); } };
    for (int v = 0; v < kNodes; ++v) {
        int base = v / kCommunitySize * kCommunitySize;
        for (int k = 0; k < 5; ++k) { s = s * 1664525u + 1013904223u; link(v, base + (int)((s >> 10) % kCommunitySize)); }
        s = s * 1664525u + 1013904223u;
        if ((s >> 28) < 3) { s = s * 1664525u + 1013904223u; link(v, (int)((s >> 8) % kNodes)); }   // sparse noise edges
    }
    std::vector<int> rowStart(kNodes + 1, 0), adj;
    for (int v = 0; v < kNodes; ++v) {
        std::sort(lists[v].begin(), lists[v].end());
        lists[v].erase(std::unique(lists[v].begin(), lists[v].end()), lists[v].end());
        if ((int)lists[v].size() > MAX_DEGREE) lists[v].resize(MAX_DEGREE);
        rowStart[v + 1] = rowStart[v] + (int)lists[v].size();
        adj.insert(adj.end(), lists[v].begin(), lists[v].end());
    }
    std::vector<int> labels(kNodes);
    for (int v = 0; v < kNodes; ++v) labels[v] = v;
    int *dRow, *dAdj, *dA, *dB;
    CUDA_CHECK(cudaMalloc(&dRow, (kNodes + 1) * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dAdj, adj.size() * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dA, kNodes * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dB, kNodes * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(dRow, rowStart.data(), (kNodes + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dAdj, adj.data(), adj.size() * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dA, labels.data(), kNodes * sizeof(int), cudaMemcpyHostToDevice));
    Csr g{dRow, dAdj};
    int *cur = dA, *nxt = dB;
    for (int r = 0; r < kRounds; ++r) {
        propagate<<<kNodes / 128, 128>>>(g, cur, nxt, kNodes);
        CUDA_CHECK(cudaGetLastError());
        int* t = cur; cur = nxt; nxt = t;
    }
    std::vector<int> out(kNodes);
    CUDA_CHECK(cudaMemcpy(out.data(), cur, kNodes * sizeof(int), cudaMemcpyDeviceToHost));

    Csr hg{rowStart.data(), adj.data()};
    std::vector<int> a(labels), b(kNodes);
    for (int r = 0; r < kRounds; ++r) {
        for (int v = 0; v < kNodes; ++v) b[v] = modeLabel(hg, a.data(), v);
        a.swap(b);
    }
    int mismatches = 0, communities = 0, pure = 0;
    std::vector<int> size(kNodes, 0);
    for (int v = 0; v < kNodes; ++v) { mismatches += (out[v] != a[v]); size[out[v]]++; }
    for (int l = 0; l < kNodes; ++l) communities += size[l] > 0;
    for (int c = 0; c < kNodes / kCommunitySize; ++c) {   // planted blocks that ended with one label
        bool same = true;
        for (int v = c * kCommunitySize; v < (c + 1) * kCommunitySize; ++v) same = same && out[v] == out[c * kCommunitySize];
        pure += same;
    }
    long long checksum = 0;
    for (int v = 0; v < kNodes; ++v) checksum += (long long)out[v] * (v % 7 + 1);
    printf("nodes %d planted communities %d rounds %d\n", kNodes, kNodes / kCommunitySize, kRounds);
    printf("labels left %d planted blocks with a single label %d label checksum %lld\n", communities, pure, checksum);
    printf("mismatches %d\n", mismatches);
    bool ok = mismatches == 0;
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dRow)); CUDA_CHECK(cudaFree(dAdj)); CUDA_CHECK(cudaFree(dA)); CUDA_CHECK(cudaFree(dB));
    return ok ? 0 : 1;
}
