// Point-cloud statistics on integer (millimetre) coordinates: pass 1 reduces the axis-aligned bounding
// box and the coordinate sums over 32-thread tiles (cooperative_groups shuffles), then one atomic per tile;
// pass 2 finds the point farthest from the centroid by packing (squared distance, index) in a 64-bit key.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>
#include <vector>
#include <algorithm>
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

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

constexpr int N = 1 << 16;

struct Bounds {
    int lo[3], hi[3];
    long long sum[3];
};

__global__ void bounds_pass(const int4* pts, Bounds* b) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int4 p = i < N ? pts[i] : pts[0];
    int lo[3] = {p.x, p.y, p.z}, hi[3] = {p.x, p.y, p.z};
    long long s[3] = {i < N ? p.x : 0, i < N ? p.y : 0, i < N ? p.z : 0};
    for (int off = 16; off > 0; off >>= 1)
        for (int a = 0; a < 3; ++a) {
            lo[a] = min(lo[a], tile.shfl_down(lo[a], off));
            hi[a] = max(hi[a], tile.shfl_down(hi[a], off));
            s[a] += tile.shfl_down(s[a], off);
        }
    if (tile.thread_rank() == 0)
        for (int a = 0; a < 3; ++a) {
            atomicMin(&b->lo[a], lo[a]);
            atomicMax(&b->hi[a], hi[a]);
            atomicAdd((unsigned long long*)&b->sum[a], (unsigned long long)s[a]);
        }
}

__global__ void farthest_pass(const int4* pts, const Bounds* b, unsigned long long* best) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= N) return;
    // Centroid rounded down to whole millimetres (same integer arithmetic on host and device).
    const long long cx = b->sum[0] / N, cy = b->sum[1] / N, cz = b->sum[2] / N;
    const int4 p = pts[i];
    const unsigned long long d2 = (unsigned long long)((p.x - cx) * (p.x - cx) + (p.y - cy) * (p.y - cy) + (p.z - cz) * (p.z - cz));
    atomicMax(best, (d2 << 20) | (unsigned long long)(N - 1 - i));  // ties: smallest index wins
}

int main() {
    g_seed = 8088u;
    std::vector<int4> pts(N);
    for (int i = 0; i < N; ++i) {
        // An ellipsoidal shell with noise, offset from the origin.
        const int x = (int)(next_u32() % 40001u) - 20000;
        const int y = (int)(next_u32() % 20001u) - 10000;
        const int z = (int)(next_u32() % 8001u) - 4000;
        pts[i] = make_int4(x + 150000, y - 70000, z + 1000, 0);
    }
    int4* d_pts;
    Bounds* d_b;
    unsigned long long* d_best;
    Bounds init{{0x7fffffff, 0x7fffffff, 0x7fffffff}, {-0x7fffffff - 1, -0x7fffffff - 1, -0x7fffffff - 1}, {0, 0, 0}};
    CUDA_CHECK(cudaMalloc(&d_pts, N * sizeof(int4)));
    CUDA_CHECK(cudaMalloc(&d_b, sizeof(Bounds)));
    CUDA_CHECK(cudaMalloc(&d_best, sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemcpy(d_pts, pts.data(), N * sizeof(int4), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_b, &init, sizeof(Bounds), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_best, 0, sizeof(unsigned long long)));
    bounds_pass<<<N / 256, 256>>>(d_pts, d_b);
    CUDA_CHECK(cudaGetLastError());
    farthest_pass<<<N / 256, 256>>>(d_pts, d_b, d_best);
    CUDA_CHECK(cudaGetLastError());
    Bounds b;
    unsigned long long best;
    CUDA_CHECK(cudaMemcpy(&b, d_b, sizeof(Bounds), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&best, d_best, sizeof(best), cudaMemcpyDeviceToHost));

    Bounds r = init;
    for (const int4& p : pts) {
        const int c[3] = {p.x, p.y, p.z};
        for (int a = 0; a < 3; ++a) {
            r.lo[a] = std::min(r.lo[a], c[a]);
            r.hi[a] = std::max(r.hi[a], c[a]);
            r.sum[a] += c[a];
        }
    }
    const long long cx = r.sum[0] / N, cy = r.sum[1] / N, cz = r.sum[2] / N;
    unsigned long long rbest = 0;
    for (int i = 0; i < N; ++i) {
        const int4 p = pts[i];
        const unsigned long long d2 = (unsigned long long)((p.x - cx) * (p.x - cx) + (p.y - cy) * (p.y - cy) + (p.z - cz) * (p.z - cz));
        rbest = std::max(rbest, (d2 << 20) | (unsigned long long)(N - 1 - i));
    }
    bool ok = best == rbest;
    for (int a = 0; a < 3; ++a) ok = ok && b.lo[a] == r.lo[a] && b.hi[a] == r.hi[a] && b.sum[a] == r.sum[a];
    const int far_idx = N - 1 - (int)(best & 0xfffffu);
    printf("points %d\n", N);
    printf("aabb lo (%d, %d, %d) hi (%d, %d, %d)\n", b.lo[0], b.lo[1], b.lo[2], b.hi[0], b.hi[1], b.hi[2]);
    printf("centroid_mm (%lld, %lld, %lld)\n", cx, cy, cz);
    printf("farthest index %d distance_mm %.3f\n", far_idx, sqrt((double)(best >> 20)));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(d_pts));
    CUDA_CHECK(cudaFree(d_b));
    CUDA_CHECK(cudaFree(d_best));
    return ok ? 0 : 1;
}
