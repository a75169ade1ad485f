// Shared-memory staging with several row strides (conflict-free padding vs. conflicting), chosen at launch via dynamic shared memory.
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

constexpr int TILE = 32;

// A 32x32 tile is stored in shared memory with row stride `stride` (32: bank conflicts on column
// reads, 33: padded). The kernel reads the tile column-wise and writes column sums and a rotation.
__global__ void column_work(const int* __restrict__ in, int* __restrict__ col_sums, int* __restrict__ rotated,
                            int stride) {
    extern __shared__ int tile[];
    const int tx = threadIdx.x, ty = threadIdx.y;  // 32 x 8
    const int* src = in + blockIdx.x * TILE * TILE;
    for (int r = ty; r < TILE; r += blockDim.y) tile[r * stride + tx] = src[r * TILE + tx];
    __syncthreads();
    if (ty == 0) {
        int s = 0;
        for (int r = 0; r < TILE; ++r) s += tile[r * stride + tx];  // column read: bank pattern depends on stride
        col_sums[blockIdx.x * TILE + tx] = s;
    }
    int* dst = rotated + blockIdx.x * TILE * TILE;
    for (int r = ty; r < TILE; r += blockDim.y)  // 90-degree rotation: dst[r][c] = src[TILE-1-c][r]
        dst[r * TILE + tx] = tile[(TILE - 1 - tx) * stride + r];
}

int main() {
    g_seed = 3232u;
    const int tiles = 48, n = tiles * TILE * TILE;
    std::vector<int> in(n);
    for (auto& v : in) v = (int)(next_u32() % 1000u);
    int *d_in, *d_sums, *d_rot;
    CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_sums, tiles * TILE * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_rot, n * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    const int strides[3] = {32, 33, 40};
    bool ok = true;
    for (int s = 0; s < 3; ++s) {
        const size_t shared = (size_t)TILE * strides[s] * sizeof(int);
        CUDA_CHECK(cudaMemset(d_sums, 0, tiles * TILE * sizeof(int)));
        column_work<<<tiles, dim3(TILE, 8), shared>>>(d_in, d_sums, d_rot, strides[s]);
        CUDA_CHECK(cudaGetLastError());
        std::vector<int> sums(tiles * TILE), rot(n);
        CUDA_CHECK(cudaMemcpy(sums.data(), d_sums, sums.size() * sizeof(int), cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaMemcpy(rot.data(), d_rot, n * sizeof(int), cudaMemcpyDeviceToHost));
        long long total = 0, weighted = 0;
        for (int t = 0; t < tiles; ++t)
            for (int c = 0; c < TILE; ++c) {
                int ref = 0;
                for (int r = 0; r < TILE; ++r) {
                    ref += in[t * TILE * TILE + r * TILE + c];
                    const int want = in[t * TILE * TILE + (TILE - 1 - c) * TILE + r];
                    if (rot[t * TILE * TILE + r * TILE + c] != want) ok = false;
                    weighted += (long long)rot[t * TILE * TILE + r * TILE + c] * ((r * 7 + c) % 13);
                }
                if (sums[t * TILE + c] != ref) ok = false;
                total += sums[t * TILE + c];
            }
        printf("stride %d: column_sum_total %lld rotation_weighted %lld\n", strides[s], total, weighted);
    }
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_sums));
    CUDA_CHECK(cudaFree(d_rot));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
