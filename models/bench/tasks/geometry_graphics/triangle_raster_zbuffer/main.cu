// Software rasteriser: one block per triangle walks its bounding box and tests pixel centres with exact
// integer edge functions (top-left fill rule); depth (24-bit fixed point) and triangle id are packed in a
// 64-bit key and resolved with atomicMin, so the visible triangle per pixel is order-independent.
// A 2D-grid resolve pass turns the z-buffer into per-triangle visible-pixel counts and a shaded image sum.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>
#include <vector>
#include <utility>
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

constexpr int W = 256, H = 256;
constexpr int NTRI = 300;
constexpr unsigned long long CLEAR = ~0ull;

struct Tri {
    int x[3], y[3];   // pixel coordinates in 1/16 sub-pixel units
    unsigned depth;   // constant depth per triangle (flat), 24-bit
};

__host__ __device__ inline long long edge(int ax, int ay, int bx, int by, int px, int py) {
    return (long long)(bx - ax) * (py - ay) - (long long)(by - ay) * (px - ax);
}

__host__ __device__ inline bool top_left(int ax, int ay, int bx, int by) {
    return (ay == by && bx < ax) || (by < ay);  // for counter-clockwise triangles in y-down space
}

__host__ __device__ inline bool covers(const Tri& t, int px, int py) {
    for (int e = 0; e < 3; ++e) {
        const int a = e, b = (e + 1) % 3;
        const long long v = edge(t.x[a], t.y[a], t.x[b], t.y[b], px, py);
        if (v < 0 || (v == 0 && !top_left(t.x[a], t.y[a], t.x[b], t.y[b]))) return false;
    }
    return true;
}

// One block per triangle: its threads stride over the pixels of the triangle's bounding box.
__global__ void rasterise(const Tri* tris, unsigned long long* zbuf) {
    const int id = blockIdx.x;
    const Tri t = tris[id];
    const int x0 = max(0, min(t.x[0], min(t.x[1], t.x[2])) >> 4), x1 = min(W - 1, max(t.x[0], max(t.x[1], t.x[2])) >> 4);
    const int y0 = max(0, min(t.y[0], min(t.y[1], t.y[2])) >> 4), y1 = min(H - 1, max(t.y[0], max(t.y[1], t.y[2])) >> 4);
    const unsigned long long key = ((unsigned long long)t.depth << 32) | (unsigned)id;
    const int bw = x1 - x0 + 1, bh = y1 - y0 + 1;
    if (bw <= 0 || bh <= 0) return;  // bounding box entirely off screen
    const int count = bw * bh;
    for (int k = threadIdx.x; k < count; k += blockDim.x) {
        const int x = x0 + k % bw, y = y0 + k / bw;
        if (covers(t, x * 16 + 8, y * 16 + 8)) atomicMin(&zbuf[y * W + x], key);
    }
}

__global__ void resolve(const unsigned long long* zbuf, unsigned* visible, unsigned* shade) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= W || y >= H) return;
    const unsigned long long k = zbuf[y * W + x];
    unsigned s = 0;
    if (k != CLEAR) {
        const unsigned id = (unsigned)(k & 0xffffffffu);
        atomicAdd(&visible[id], 1u);
        s = 255u - (unsigned)((k >> 32) >> 16);  // brighter when nearer
    }
    shade[y * W + x] = s;
}

int main() {
    g_seed = 1982u;
    std::vector<Tri> tris(NTRI);
    for (auto& t : tris) {
        const int cx = (int)(next_u32() % (W * 16)), cy = (int)(next_u32() % (H * 16));
        const int r = 48 + (int)(next_u32() % 400u);
        for (int v = 0; v < 3; ++v) {
            t.x[v] = cx + (int)(next_u32() % (2u * r)) - r;
            t.y[v] = cy + (int)(next_u32() % (2u * r)) - r;
        }
        if (edge(t.x[0], t.y[0], t.x[1], t.y[1], t.x[2], t.y[2]) < 0) {  // make counter-clockwise
            std::swap(t.x[1], t.x[2]);
            std::swap(t.y[1], t.y[2]);
        }
        t.depth = next_u32() & 0xffffffu;
    }
    Tri* d_tris;
    unsigned long long* d_z;
    unsigned *d_vis, *d_shade;
    CUDA_CHECK(cudaMalloc(&d_tris, NTRI * sizeof(Tri)));
    CUDA_CHECK(cudaMalloc(&d_z, W * H * sizeof(unsigned long long)));
    CUDA_CHECK(cudaMalloc(&d_vis, NTRI * sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&d_shade, W * H * sizeof(unsigned)));
    CUDA_CHECK(cudaMemcpy(d_tris, tris.data(), NTRI * sizeof(Tri), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_z, 0xff, W * H * sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemset(d_vis, 0, NTRI * sizeof(unsigned)));
    rasterise<<<NTRI, 128>>>(d_tris, d_z);
    CUDA_CHECK(cudaGetLastError());
    resolve<<<dim3(W / 16, H / 16), dim3(16, 16)>>>(d_z, d_vis, d_shade);
    CUDA_CHECK(cudaGetLastError());
    std::vector<unsigned long long> z(W * H);
    std::vector<unsigned> vis(NTRI), shade(W * H);
    CUDA_CHECK(cudaMemcpy(z.data(), d_z, W * H * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(vis.data(), d_vis, NTRI * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(shade.data(), d_shade, W * H * sizeof(unsigned), cudaMemcpyDeviceToHost));

    std::vector<unsigned long long> rz(W * H, CLEAR);
    for (int id = 0; id < NTRI; ++id) {
        const unsigned long long key = ((unsigned long long)tris[id].depth << 32) | (unsigned)id;
        for (int y = 0; y < H; ++y)
            for (int x = 0; x < W; ++x)
                if (covers(tris[id], x * 16 + 8, y * 16 + 8) && key < rz[y * W + x]) rz[y * W + x] = key;
    }
    bool ok = rz == z;
    int covered = 0, visible_tris = 0;
    unsigned long long shade_sum = 0, weighted = 0;
    for (int i = 0; i < W * H; ++i) { covered += z[i] != CLEAR; shade_sum += shade[i]; }
    for (int id = 0; id < NTRI; ++id) { visible_tris += vis[id] > 0; weighted += (unsigned long long)vis[id] * (id + 1); }
    if ((unsigned long long)covered != [&] { unsigned long long s = 0; for (unsigned v : vis) s += v; return s; }()) ok = false;
    printf("triangles %d covered_pixels %d visible_triangles %d\n", NTRI, covered, visible_tris);
    printf("shade_sum %llu visible_weighted %llu\n", shade_sum, weighted);
    printf("pixel(128,128) triangle %d\n", z[128 * W + 128] == CLEAR ? -1 : (int)(z[128 * W + 128] & 0xffffffffu));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(d_tris));
    CUDA_CHECK(cudaFree(d_z));
    CUDA_CHECK(cudaFree(d_vis));
    CUDA_CHECK(cudaFree(d_shade));
    return ok ? 0 : 1;
}
