// Explicit 3D heat diffusion (7-point stencil) in a 32^3 box with fixed
// boundary temperatures, launched on a 3D grid of 8x8x4 thread blocks for
// 10 ping-pong steps; the final field is reduced on the host.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>
#include <vector>
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

static const int kN = 32;
static const int kSteps = 10;
static const float kAlpha = 0.15f;     // stable below 1/6

__host__ __device__ inline int idx3(int x, int y, int z) { return (z * kN + y) * kN + x; }

__host__ __device__ inline float update(const float* u, int x, int y, int z) {
    float c = u[idx3(x, y, z)];
    if (x == 0 || y == 0 || z == 0 || x == kN - 1 || y == kN - 1 || z == kN - 1) return c;
    float lap = u[idx3(x - 1, y, z)] + u[idx3(x + 1, y, z)] + u[idx3(x, y - 1, z)] + u[idx3(x, y + 1, z)] +
                u[idx3(x, y, z - 1)] + u[idx3(x, y, z + 1)] - 6.0f * c;
    return c + kAlpha * lap;
}

__global__ void heatStep3d(const float* u, float* v) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x < kN && y < kN && z < kN) v[idx3(x, y, z)] = update(u, x, y, z);
}

int main() {
    const int cells = kN * kN * kN;
    std::vector<float> u(cells);
    uint32_t s = 3141u;
    for (int z = 0; z < kN; ++z)
        for (int y = 0; y < kN; ++y)
            for (int x = 0; x < kN; ++x) {
                s = s * 1664525u + 1013904223u;
                float v = 10.0f + ((s >> 24) & 15) * 0.05f;
                if (z == 0) v = 100.0f;                                  // hot floor
                if (z == kN - 1) v = 0.0f;                               // cold lid
                if ((x - 20) * (x - 20) + (y - 12) * (y - 12) + (z - 16) * (z - 16) < 16) v = 60.0f;   // warm ball
                u[idx3(x, y, z)] = v;
            }
    float *dA, *dB;
    CUDA_CHECK(cudaMalloc(&dA, cells * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dB, cells * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dA, u.data(), cells * sizeof(float), cudaMemcpyHostToDevice));
    dim3 block(8, 8, 4), grid(kN / 8, kN / 8, kN / 4);
    float *cur = dA, *nxt = dB;
    for (int t = 0; t < kSteps; ++t) {
        heatStep3d<<<grid, block>>>(cur, nxt);
        CUDA_CHECK(cudaGetLastError());
        float* tmp = cur; cur = nxt; nxt = tmp;
    }
    std::vector<float> out(cells);
    CUDA_CHECK(cudaMemcpy(out.data(), cur, cells * sizeof(float), cudaMemcpyDeviceToHost));

    std::vector<float> a(u), b(cells);
    for (int t = 0; t < kSteps; ++t) {
        for (int z = 0; z < kN; ++z)
            for (int y = 0; y < kN; ++y)
                for (int x = 0; x < kN; ++x) b[idx3(x, y, z)] = update(a.data(), x, y, z);
        a.swap(b);
    }
    double maxErr = 0.0, total = 0.0, layer1 = 0.0;
    for (int i = 0; i < cells; ++i) { maxErr = fmax(maxErr, fabs((double)out[i] - a[i])); total += out[i]; }
    for (int y = 1; y < kN - 1; ++y)
        for (int x = 1; x < kN - 1; ++x) layer1 += out[idx3(x, y, 1)];
    printf("box %d^3 steps %d alpha %.2f\n", kN, kSteps, kAlpha);
    printf("total heat %.6e mean of first interior layer %.6e\n", total, layer1 / ((kN - 2) * (kN - 2)));
    printf("ball centre %.6e u(16,16,16) %.6e\n", out[idx3(20, 12, 16)], out[idx3(16, 16, 16)]);
    bool ok = maxErr < 1e-3;
    printf("max abs error below 1e-3: %s\n", ok ? "yes" : "no");
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dA)); CUDA_CHECK(cudaFree(dB));
    return ok ? 0 : 1;
}
