// Point-in-polygon by winding number for a star-shaped, self-overlapping polygon whose vertices sit in
// constant memory; orientations use exact 64-bit integer cross products, so every classification is
// exact. Points with winding 0 are outside; |winding| >= 2 marks doubly covered regions.
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

constexpr int NV = 40;
constexpr int NPTS = 1 << 15;

__constant__ int2 c_poly[NV];

__host__ __device__ inline long long orient(int2 a, int2 b, int2 p) {
    return (long long)(b.x - a.x) * (p.y - a.y) - (long long)(p.x - a.x) * (b.y - a.y);
}

__host__ __device__ inline int winding(const int2* poly, int2 p) {
    int w = 0;
    for (int i = 0; i < NV; ++i) {
        const int2 a = poly[i], b = poly[(i + 1) % NV];
        if (a.y <= p.y) {
            if (b.y > p.y && orient(a, b, p) > 0) ++w;
        } else {
            if (b.y <= p.y && orient(a, b, p) < 0) --w;
        }
    }
    return w;
}

__global__ void classify(const int2* pts, int* wind, unsigned* class_counts) {
    __shared__ unsigned local[3];
    if (threadIdx.x < 3) local[threadIdx.x] = 0u;
    __syncthreads();
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < NPTS) {
        const int w = winding(c_poly, pts[i]);
        wind[i] = w;
        atomicAdd(&local[w == 0 ? 0 : (abs(w) == 1 ? 1 : 2)], 1u);
    }
    __syncthreads();
    if (threadIdx.x < 3) atomicAdd(&class_counts[threadIdx.x], local[threadIdx.x]);
}

int main() {
    g_seed = 1234u;
    // A star polygon {40/7}-like path with jittered radii: winds around the centre several times.
    int2 poly[NV];
    for (int i = 0; i < NV; ++i) {
        const double ang = 2.0 * M_PI * (double)(i * 7 % NV) / NV;
        const double r = 9000.0 + 1500.0 * next_uniform();
        poly[i] = make_int2((int)lround(r * cos(ang)), (int)lround(r * sin(ang)));
    }
    std::vector<int2> pts(NPTS);
    for (auto& p : pts) {
        const int x = (int)(next_u32() % 24001u) - 12000;
        const int y = (int)(next_u32() % 24001u) - 12000;
        p = make_int2(x, y);
    }
    int2* d_pts;
    int* d_wind;
    unsigned* d_counts;
    CUDA_CHECK(cudaMalloc(&d_pts, NPTS * sizeof(int2)));
    CUDA_CHECK(cudaMalloc(&d_wind, NPTS * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_counts, 3 * sizeof(unsigned)));
    CUDA_CHECK(cudaMemset(d_counts, 0, 3 * sizeof(unsigned)));
    CUDA_CHECK(cudaMemcpy(d_pts, pts.data(), NPTS * sizeof(int2), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpyToSymbol(c_poly, poly, sizeof(poly)));
    classify<<<NPTS / 256, 256>>>(d_pts, d_wind, d_counts);
    CUDA_CHECK(cudaGetLastError());
    std::vector<int> wind(NPTS);
    unsigned counts[3];
    CUDA_CHECK(cudaMemcpy(wind.data(), d_wind, NPTS * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(counts, d_counts, sizeof(counts), cudaMemcpyDeviceToHost));

    bool ok = true;
    unsigned ref_counts[3] = {0, 0, 0};
    int wind_hist[9] = {0};
    long long signed_sum = 0;
    for (int i = 0; i < NPTS; ++i) {
        const int w = winding(poly, pts[i]);
        if (w != wind[i]) ok = false;
        ref_counts[w == 0 ? 0 : (abs(w) == 1 ? 1 : 2)]++;
        wind_hist[std::min(abs(wind[i]), 8)]++;
        signed_sum += wind[i];
    }
    for (int k = 0; k < 3; ++k) ok = ok && ref_counts[k] == counts[k];
    printf("polygon vertices %d points %d\n", NV, NPTS);
    printf("outside %u once %u multiply_covered %u\n", counts[0], counts[1], counts[2]);
    printf("winding_hist");
    for (int k = 0; k < 9; ++k) printf(" %d", wind_hist[k]);
    printf("\nsigned_winding_sum %lld\n", signed_sum);
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(d_pts));
    CUDA_CHECK(cudaFree(d_wind));
    CUDA_CHECK(cudaFree(d_counts));
    return ok ? 0 : 1;
}
