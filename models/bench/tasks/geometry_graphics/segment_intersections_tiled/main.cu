// Counting intersecting pairs among 2D line segments (a map-overlay style workload): each thread owns one
// segment and sweeps all later segments tile by tile through shared memory, using exact 64-bit integer
// orientation tests (collinear overlaps count). Per-segment crossing counts plus a 64-bit atomic total.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                          \
    do {                                                                          \
        cudaError_t err_ = (call);                                                \
        if (err_ != cudaSuccess) {                                                \
            fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_), \
                    __FILE__, __LINE__);                                          \
            exit(2);                                                              \
        }                                                                         \
    } while (0)

// Deterministic input generator (LCG); never rand() or the clock.
static uint32_t g_seed = 12345u;
inline uint32_t next_u32() {
    g_seed = g_seed * 1664525u + 1013904223u;
    return g_seed;
}
inline float next_uniform() {  // uniform in [-1, 1)
    return (float)(next_u32() >> 8) * (2.0f / 16777216.0f) - 1.0f;
}

constexpr int N = 1536;
constexpr int TILE = 128;

struct Seg {
    int x0, y0, x1, y1;
};

__host__ __device__ inline int sgn(long long v) { return (v > 0) - (v < 0); }
__host__ __device__ inline int orient(int ax, int ay, int bx, int by, int cx, int cy) {
    return sgn((long long)(bx - ax) * (cy - ay) - (long long)(by - ay) * (cx - ax));
}
__host__ __device__ inline bool on_segment(int ax, int ay, int bx, int by, int px, int py) {
    return min(ax, bx) <= px && px <= max(ax, bx) && min(ay, by) <= py && py <= max(ay, by);
}
__host__ __device__ inline bool intersects(const Seg& a, const Seg& b) {
    const int o1 = orient(a.x0, a.y0, a.x1, a.y1, b.x0, b.y0), o2 = orient(a.x0, a.y0, a.x1, a.y1, b.x1, b.y1);
    const int o3 = orient(b.x0, b.y0, b.x1, b.y1, a.x0, a.y0), o4 = orient(b.x0, b.y0, b.x1, b.y1, a.x1, a.y1);
    if (o1 != o2 && o3 != o4) return true;
    if (o1 == 0 && on_segment(a.x0, a.y0, a.x1, a.y1, b.x0, b.y0)) return true;
    if (o2 == 0 && on_segment(a.x0, a.y0, a.x1, a.y1, b.x1, b.y1)) return true;
    if (o3 == 0 && on_segment(b.x0, b.y0, b.x1, b.y1, a.x0, a.y0)) return true;
    if (o4 == 0 && on_segment(b.x0, b.y0, b.x1, b.y1, a.x1, a.y1)) return true;
    return false;
}

__global__ void __launch_bounds__(TILE) count_pairs(const Seg* segs, int* per_seg, unsigned long long* total) {
    __shared__ Seg tile[TILE];
    const int i = blockIdx.x * TILE + threadIdx.x;
    const Seg mine = segs[i];
    int count = 0;
    for (int base = blockIdx.x * TILE; base < N; base += TILE) {  // tiles at or after this block's own
        tile[threadIdx.x] = segs[base + threadIdx.x];
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            if (base + k > i && intersects(mine, tile[k])) ++count;
        __syncthreads();
    }
    per_seg[i] = count;
    atomicAdd(total, (unsigned long long)count);
}

int main() {
    g_seed = 2024u;
    std::vector<Seg> segs(N);
    for (int i = 0; i < N; ++i) {
        const int x = (int)(next_u32() % 10000u), y = (int)(next_u32() % 10000u);
        const int len = 50 + (int)(next_u32() % 900u);
        const uint32_t dir = next_u32() % 8u;  // includes axis-aligned and diagonal directions: collinear cases
        const int dx[8] = {1, 0, 1, 1, -1, 2, 1, 3}, dy[8] = {0, 1, 1, -1, 2, 1, -3, 1};
        segs[i] = Seg{x, y, x + dx[dir] * len / 2, y + dy[dir] * len / 2};
    }
    Seg* d_segs;
    int* d_per;
    unsigned long long* d_total;
    CUDA_CHECK(cudaMalloc(&d_segs, N * sizeof(Seg)));
    CUDA_CHECK(cudaMalloc(&d_per, N * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_total, sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemset(d_total, 0, sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemcpy(d_segs, segs.data(), N * sizeof(Seg), cudaMemcpyHostToDevice));
    count_pairs<<<N / TILE, TILE>>>(d_segs, d_per, d_total);
    CUDA_CHECK(cudaGetLastError());
    std::vector<int> per(N);
    unsigned long long total = 0;
    CUDA_CHECK(cudaMemcpy(per.data(), d_per, N * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&total, d_total, sizeof(total), cudaMemcpyDeviceToHost));

    bool ok = true;
    unsigned long long rtotal = 0, weighted = 0;
    int busiest = 0;
    for (int i = 0; i < N; ++i) {
        int c = 0;
        for (int j = i + 1; j < N; ++j) c += intersects(segs[i], segs[j]);
        if (c != per[i]) ok = false;
        rtotal += c;
        weighted += (unsigned long long)per[i] * (i + 1);
        if (per[i] > per[busiest]) busiest = i;
    }
    if (rtotal != total) ok = false;
    printf("segments %d intersecting_pairs %llu\n", N, total);
    printf("weighted %llu busiest_segment %d forward_crossings %d\n", weighted, busiest, per[busiest]);
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(d_segs));
    CUDA_CHECK(cudaFree(d_per));
    CUDA_CHECK(cudaFree(d_total));
    return ok ? 0 : 1;
}
