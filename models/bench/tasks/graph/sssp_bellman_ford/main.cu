// Single-source shortest paths with Bellman-Ford relaxation inside one
// persistent block: distances live in shared memory, relaxations use shared
// atomicMin, and the block iterates until a sweep changes nothing.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <queue>
#include <functional>
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

#define NUM_NODES 2048
#define EDGES_PER_NODE 6
#define BLOCK_THREADS 1024
static const int kInf = 0x3fffffff;
static const int kMaxSweeps = 200;

struct Edge { int from; int to; int weight; };

__global__ void __launch_bounds__(BLOCK_THREADS)
bellmanFord(const Edge* edges, int numEdges, int source, int* distOut, int* sweepsOut) {
    __shared__ int dist[NUM_NODES];
    __shared__ int changed;
    for (int v = threadIdx.x; v < NUM_NODES; v += blockDim.x) dist[v] = (v == source) ? 0 : kInf;
    __syncthreads();
    int sweeps = 0;
    for (int iter = 0; iter < kMaxSweeps; ++iter) {
        if (threadIdx.x == 0) changed = 0;
        __syncthreads();
        for (int e = threadIdx.x; e < numEdges; e += blockDim.x) {
            Edge ed = edges[e];
            int du = dist[ed.from];
            if (du != kInf) {
                int cand = du + ed.weight;
                if (cand < dist[ed.to]) {
                    int old = atomicMin(&dist[ed.to], cand);
                    if (cand < old) changed = 1;
                }
            }
        }
        __syncthreads();
        sweeps = iter + 1;
        int done = (changed == 0);
        __syncthreads();
        if (done) break;
    }
    for (int v = threadIdx.x; v < NUM_NODES; v += blockDim.x) distOut[v] = dist[v];
    if (threadIdx.x == 0) *sweepsOut = sweeps;
}

int main() {
    uint32_t s = 4242u;
    auto next = [&s]() { s ^= s << 13; s ^= s >> 17; s ^= s << 5; return s; };
    std::vector<Edge> edges;
    for (int u = 0; u < NUM_NODES; ++u)
        for (int k = 0; k < EDGES_PER_NODE; ++k) {
            int v = (int)(next() % NUM_NODES);
            int w = 1 + (int)(next() % 100);
            if (v != u) edges.push_back(Edge{u, v, w});
        }
    int numEdges = (int)edges.size();

    Edge* dEdges; int* dDist; int* dSweeps;
    CUDA_CHECK(cudaMalloc(&dEdges, numEdges * sizeof(Edge)));
    CUDA_CHECK(cudaMalloc(&dDist, NUM_NODES * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dSweeps, sizeof(int)));
    CUDA_CHECK(cudaMemcpy(dEdges, edges.data(), numEdges * sizeof(Edge), cudaMemcpyHostToDevice));
    bellmanFord<<<1, BLOCK_THREADS>>>(dEdges, numEdges, 0, dDist, dSweeps);
    CUDA_CHECK(cudaGetLastError());
    std::vector<int> dist(NUM_NODES);
    int sweeps = 0;
    CUDA_CHECK(cudaMemcpy(dist.data(), dDist, NUM_NODES * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&sweeps, dSweeps, sizeof(int), cudaMemcpyDeviceToHost));

    // CPU reference: Dijkstra with a binary heap
    std::vector<std::vector<std::pair<int, int>>> out(NUM_NODES);
    for (const Edge& e : edges) out[e.from].push_back({e.to, e.weight});
    std::vector<int> ref(NUM_NODES, kInf);
    typedef std::pair<int, int> Item;
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> pq;
    ref[0] = 0; pq.push({0, 0});
    while (!pq.empty()) {
        Item it = pq.top(); pq.pop();
        if (it.first != ref[it.second]) continue;
        for (auto& nb : out[it.second]) {
            int c = it.first + nb.second;
            if (c < ref[nb.first]) { ref[nb.first] = c; pq.push({c, nb.first}); }
        }
    }
    int mismatches = 0, reachable = 0, maxDist = 0;
    long long sum = 0;
    for (int v = 0; v < NUM_NODES; ++v) {
        if (dist[v] != ref[v]) ++mismatches;
        if (dist[v] != kInf) { ++reachable; sum += dist[v]; if (dist[v] > maxDist) maxDist = dist[v]; }
    }
    printf("nodes %d edges %d\n", NUM_NODES, numEdges);
    printf("reachable %d max distance %d distance sum %lld\n", reachable, maxDist, sum);
    printf("dist[1]=%d dist[777]=%d dist[2047]=%d\n", dist[1], dist[777], dist[2047]);
    printf("converged within sweep limit: %s\n", sweeps < kMaxSweeps ? "yes" : "no");
    bool ok = mismatches == 0 && sweeps < kMaxSweeps;
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dEdges)); CUDA_CHECK(cudaFree(dDist)); CUDA_CHECK(cudaFree(dSweeps));
    return ok ? 0 : 1;
}
