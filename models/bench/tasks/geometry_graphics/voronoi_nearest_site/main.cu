// Discrete Voronoi diagram: every pixel of a 256x256 image finds its nearest site (squared integer
// distance, smaller site index on ties) among sites staged in shared memory; a second 2D pass marks
// boundary pixels (a 4-neighbour belongs to another cell) and counts cell areas with atomics.
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

constexpr int W = 256, H = 256;
constexpr int NSITES = 96;

__global__ void nearest_site(const int2* sites, int* label) {
    __shared__ int2 s[NSITES];
    const int tid = threadIdx.y * blockDim.x + threadIdx.x;
    for (int k = tid; k < NSITES; k += blockDim.x * blockDim.y) s[k] = sites[k];
    __syncthreads();
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= W || y >= H) return;
    int best = 0, best_d = 0x7fffffff;
    for (int k = 0; k < NSITES; ++k) {
        const int dx = x - s[k].x, dy = y - s[k].y;
        const int d = dx * dx + dy * dy;
        if (d < best_d) { best_d = d; best = k; }
    }
    label[y * W + x] = best;
}

__global__ void cell_stats(const int* label, unsigned* area, unsigned* boundary_count, unsigned char* boundary) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= W || y >= H) return;
    const int l = label[y * W + x];
    atomicAdd(&area[l], 1u);
    const bool edge = (x > 0 && label[y * W + x - 1] != l) || (x < W - 1 && label[y * W + x + 1] != l) ||
                      (y > 0 && label[(y - 1) * W + x] != l) || (y < H - 1 && label[(y + 1) * W + x] != l);
    boundary[y * W + x] = edge;
    if (edge) atomicAdd(boundary_count, 1u);
}

int main() {
    g_seed = 1908u;
    std::vector<int2> sites(NSITES);
    for (int k = 0; k < NSITES; ++k) {
        const int x = (int)(next_u32() % W);
        const int y = (int)(next_u32() % H);
        sites[k] = make_int2(x, y);
    }
    sites[NSITES - 1] = sites[3];  // a duplicate site: its cell must be empty (tie goes to index 3)
    int2* d_sites;
    int* d_label;
    unsigned *d_area, *d_bcount;
    unsigned char* d_boundary;
    CUDA_CHECK(cudaMalloc(&d_sites, NSITES * sizeof(int2)));
    CUDA_CHECK(cudaMalloc(&d_label, W * H * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_area, NSITES * sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&d_bcount, sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&d_boundary, W * H));
    CUDA_CHECK(cudaMemcpy(d_sites, sites.data(), NSITES * sizeof(int2), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_area, 0, NSITES * sizeof(unsigned)));
    CUDA_CHECK(cudaMemset(d_bcount, 0, sizeof(unsigned)));
    const dim3 block(16, 16), grid(W / 16, H / 16);
    nearest_site<<<grid, block>>>(d_sites, d_label);
    CUDA_CHECK(cudaGetLastError());
    cell_stats<<<grid, block>>>(d_label, d_area, d_bcount, d_boundary);
    CUDA_CHECK(cudaGetLastError());
    std::vector<int> label(W * H);
    std::vector<unsigned> area(NSITES);
    std::vector<unsigned char> boundary(W * H);
    unsigned bcount = 0;
    CUDA_CHECK(cudaMemcpy(label.data(), d_label, W * H * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(area.data(), d_area, NSITES * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(boundary.data(), d_boundary, W * H, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&bcount, d_bcount, sizeof(unsigned), cudaMemcpyDeviceToHost));

    bool ok = true;
    std::vector<unsigned> rarea(NSITES, 0u);
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
            int best = 0, bd = 0x7fffffff;
            for (int k = 0; k < NSITES; ++k) {
                const int dx = x - sites[k].x, dy = y - sites[k].y;
                if (dx * dx + dy * dy < bd) { bd = dx * dx + dy * dy; best = k; }
            }
            if (label[y * W + x] != best) ok = false;
            rarea[best]++;
        }
    unsigned rb = 0;
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
            const int l = label[y * W + x];
            rb += (x > 0 && label[y * W + x - 1] != l) || (x < W - 1 && label[y * W + x + 1] != l) ||
                  (y > 0 && label[(y - 1) * W + x] != l) || (y < H - 1 && label[(y + 1) * W + x] != l);
        }
    ok = ok && rarea == area && rb == bcount && area[NSITES - 1] == 0;
    int biggest = 0;
    for (int k = 1; k < NSITES; ++k) if (area[k] > area[biggest]) biggest = k;
    unsigned long long label_hash = 0;
    for (int i = 0; i < W * H; ++i) label_hash = label_hash * 1099511628211ull + (unsigned)label[i];
    printf("sites %d image %dx%d boundary_pixels %u\n", NSITES, W, H, bcount);
    printf("largest_cell %d area %u; cell3 area %u; duplicate site area %u\n", biggest, area[biggest], area[3], area[NSITES - 1]);
    printf("label_hash %016llx\n", label_hash);
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(d_sites));
    CUDA_CHECK(cudaFree(d_label));
    CUDA_CHECK(cudaFree(d_area));
    CUDA_CHECK(cudaFree(d_bcount));
    CUDA_CHECK(cudaFree(d_boundary));
    return ok ? 0 : 1;
}
