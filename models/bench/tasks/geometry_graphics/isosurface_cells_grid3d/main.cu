// The classification stage of marching cubes: a 3D grid of 8x8x4 blocks evaluates a field of three blobs
// (parameters in constant memory) at grid points; each cell builds its 8-bit case code from its corners
// (bit i set when corner i is inside), active cells and case popcounts are counted (shared-memory
// histogram of inside-corner counts), and crossings on the x-directed edges are interpolated.
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

constexpr int G = 48;            // points per axis; cells per axis = G - 1
constexpr int NBLOB = 3;

struct Blob {
    float cx, cy, cz, r2;
};
__constant__ Blob c_blobs[NBLOB];
__constant__ float c_iso;

__host__ __device__ inline float field(const Blob* blobs, int x, int y, int z) {
    const float px = x / (float)(G - 1), py = y / (float)(G - 1), pz = z / (float)(G - 1);
    float f = 0.0f;
    for (int b = 0; b < NBLOB; ++b) {
        const float dx = px - blobs[b].cx, dy = py - blobs[b].cy, dz = pz - blobs[b].cz;
        f += blobs[b].r2 / (dx * dx + dy * dy + dz * dz + 1e-3f);
    }
    return f;
}

__global__ void sample(float* values) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    const int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x < G && y < G && z < G) values[(z * G + y) * G + x] = field(c_blobs, x, y, z);
}

__global__ void classify(const float* v, unsigned* inside_hist, unsigned* active, float* crossing_sum, unsigned* crossings) {
    __shared__ unsigned hist[9];
    const int tid = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    if (tid < 9) hist[tid] = 0u;
    __syncthreads();
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    const int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x < G - 1 && y < G - 1 && z < G - 1) {
        unsigned code = 0u;
        for (int c = 0; c < 8; ++c) {
            const int cx = x + (c & 1), cy = y + ((c >> 1) & 1), cz = z + (c >> 2);
            code |= (v[(cz * G + cy) * G + cx] > c_iso ? 1u : 0u) << c;
        }
        atomicAdd(&hist[__popc(code)], 1u);
        if (code != 0u && code != 0xFFu) atomicAdd(active, 1u);
        // x-directed edge from (x,y,z) to (x+1,y,z): bits 0 and 1 of the code differ when it crosses.
        if (((code ^ (code >> 1)) & 1u) != 0u) {
            const float a = v[(z * G + y) * G + x], b = v[(z * G + y) * G + x + 1];
            const float t = (c_iso - a) / (b - a);
            atomicAdd(crossing_sum, (x + t) / (G - 1));
            atomicAdd(crossings, 1u);
        }
    }
    __syncthreads();
    if (tid < 9 && hist[tid]) atomicAdd(&inside_hist[tid], hist[tid]);
}

int main() {
    g_seed = 1984u;
    Blob blobs[NBLOB];
    for (int b = 0; b < NBLOB; ++b) {
        const float cx = 0.5f + 0.25f * next_uniform(), cy = 0.5f + 0.25f * next_uniform(), cz = 0.5f + 0.25f * next_uniform();
        blobs[b] = Blob{cx, cy, cz, 0.01f + 0.005f * next_uniform()};
    }
    const float iso = 1.0f;
    CUDA_CHECK(cudaMemcpyToSymbol(c_blobs, blobs, sizeof(blobs)));
    CUDA_CHECK(cudaMemcpyToSymbol(c_iso, &iso, sizeof(iso)));
    float *d_v, *d_sum;
    unsigned *d_hist, *d_active, *d_cross;
    CUDA_CHECK(cudaMalloc(&d_v, G * G * G * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_sum, sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_hist, 9 * sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&d_active, sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&d_cross, sizeof(unsigned)));
    CUDA_CHECK(cudaMemset(d_sum, 0, sizeof(float)));
    CUDA_CHECK(cudaMemset(d_hist, 0, 9 * sizeof(unsigned)));
    CUDA_CHECK(cudaMemset(d_active, 0, sizeof(unsigned)));
    CUDA_CHECK(cudaMemset(d_cross, 0, sizeof(unsigned)));
    const dim3 block(8, 8, 4), grid((G + 7) / 8, (G + 7) / 8, (G + 3) / 4);
    sample<<<grid, block>>>(d_v);
    CUDA_CHECK(cudaGetLastError());
    classify<<<grid, block>>>(d_v, d_hist, d_active, d_sum, d_cross);
    CUDA_CHECK(cudaGetLastError());
    std::vector<float> v(G * G * G);
    unsigned hist[9], active, cross;
    float csum;
    CUDA_CHECK(cudaMemcpy(v.data(), d_v, v.size() * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(hist, d_hist, sizeof(hist), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&active, d_active, sizeof(active), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&cross, d_cross, sizeof(cross), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&csum, d_sum, sizeof(csum), cudaMemcpyDeviceToHost));

    // CPU reference on the device's samples (classification is then exact), plus a check of the samples.
    bool ok = true;
    double max_rel = 0.0;
    for (int z = 0; z < G; ++z)
        for (int y = 0; y < G; ++y)
            for (int x = 0; x < G; ++x) {
                const float ref = field(blobs, x, y, z);
                max_rel = fmax(max_rel, fabs(ref - v[(z * G + y) * G + x]) / ref);
            }
    if (max_rel > 1e-5) ok = false;
    unsigned rh[9] = {0}, ractive = 0, rcross = 0;
    double rsum = 0.0;
    for (int z = 0; z < G - 1; ++z)
        for (int y = 0; y < G - 1; ++y)
            for (int x = 0; x < G - 1; ++x) {
                unsigned code = 0u;
                for (int c = 0; c < 8; ++c)
                    code |= (v[((z + (c >> 2)) * G + y + ((c >> 1) & 1)) * G + x + (c & 1)] > iso ? 1u : 0u) << c;
                rh[__builtin_popcount(code)]++;
                ractive += code != 0u && code != 0xFFu;
                if ((code ^ (code >> 1)) & 1u) {
                    const float a = v[(z * G + y) * G + x], b = v[(z * G + y) * G + x + 1];
                    rsum += (x + (iso - a) / (b - a)) / (G - 1);
                    ++rcross;
                }
            }
    for (int k = 0; k < 9; ++k) ok = ok && rh[k] == hist[k];
    ok = ok && ractive == active && rcross == cross && fabs(rsum - csum) < 1e-4 * rsum;
    printf("grid %d^3 active_cells %u x_edge_crossings %u\n", G, active, cross);
    printf("inside_corner_hist");
    for (int k = 0; k < 9; ++k) printf(" %u", hist[k]);
    printf("\ncrossing_x_sum %.5e\n", csum);
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(d_v)); CUDA_CHECK(cudaFree(d_sum)); CUDA_CHECK(cudaFree(d_hist));
    CUDA_CHECK(cudaFree(d_active)); CUDA_CHECK(cudaFree(d_cross));
    return ok ? 0 : 1;
}
