// Explicit 2D heat diffusion (5-point stencil, Dirichlet borders) on a
// 128x128 plate, 14 ping-pong steps, followed by a single-block max-residual
// reduction that reports through device printf.
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

static const int kN = 128;
static const int kSteps = 14;
static const float kAlpha = 0.2f;   // diffusion number, stable below 0.25

__host__ __device__ inline float stencil(const float* u, int x, int y, int n, float alpha) {
    float c = u[y * n + x];
    if (x == 0 || y == 0 || x == n - 1 || y == n - 1) return c;   // fixed boundary
    float lap = u[y * n + x - 1] + u[y * n + x + 1] + u[(y - 1) * n + x] + u[(y + 1) * n + x] - 4.0f * c;
    return c + alpha * lap;
}

__global__ void heatStep(const float* u, float* v, int n, float alpha) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < n && y < n) v[y * n + x] = stencil(u, x, y, n, alpha);
}

__global__ void reportResidual(const float* a, const float* b, int count, int step) {
    __shared__ float best[256];
    float m = 0.0f;
    for (int i = threadIdx.x; i < count; i += blockDim.x) m = fmaxf(m, fabsf(a[i] - b[i]));
    best[threadIdx.x] = m;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) best[threadIdx.x] = fmaxf(best[threadIdx.x], best[threadIdx.x + stride]);
        __syncthreads();
    }
    if (threadIdx.x == 0) printf("device: residual after step %d = %.4e\n", step, best[0]);
}

int main() {
    const int cells = kN * kN;
    std::vector<float> u(cells);
    uint32_t s = 27182u;
    for (int y = 0; y < kN; ++y)
        for (int x = 0; x < kN; ++x) {
            s = s * 1664525u + 1013904223u;
            float v = 20.0f + (float)((s >> 24) & 7) * 0.1f;
            if ((x - 40) * (x - 40) + (y - 64) * (y - 64) < 100) v = 100.0f;   // hot spot
            if (y == 0) v = 0.0f;                                               // cold edge
            u[y * kN + x] = v;
        }
    float *dU, *dV;
    CUDA_CHECK(cudaMalloc(&dU, cells * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dV, cells * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dU, u.data(), cells * sizeof(float), cudaMemcpyHostToDevice));
    dim3 block(16, 16), grid(kN / 16, kN / 16);
    float *cur = dU, *nxt = dV;
    for (int step = 0; step < kSteps; ++step) {
        heatStep<<<grid, block>>>(cur, nxt, kN, kAlpha);
        CUDA_CHECK(cudaGetLastError());
        float* t = cur; cur = nxt; nxt = t;
    }
    fflush(stdout);
    reportResidual<<<1, 256>>>(cur, nxt, cells, kSteps);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    fflush(stdout);
    std::vector<float> out(cells);
    CUDA_CHECK(cudaMemcpy(out.data(), cur, cells * sizeof(float), cudaMemcpyDeviceToHost));

    std::vector<float> a(u), b(cells);
    for (int step = 0; step < kSteps; ++step) {
        for (int y = 0; y < kN; ++y)
            for (int x = 0; x < kN; ++x) b[y * kN + x] = stencil(a.data(), x, y, kN, kAlpha);
        a.swap(b);
    }
    double maxErr = 0.0, heat = 0.0;
    for (int i = 0; i < cells; ++i) {
        maxErr = fmax(maxErr, fabs((double)out[i] - a[i]));
        heat += out[i];
    }
    printf("grid %dx%d steps %d alpha %.2f\n", kN, kN, kSteps, kAlpha);
    printf("total heat %.6e centre of hot spot %.6e\n", heat, out[64 * kN + 40]);
    printf("u[1,64] %.6e u[64,100] %.6e\n", out[1 * kN + 64], out[64 * kN + 100]);
    bool ok = maxErr < 1e-3;
    printf("max abs error below 1e-3: %s\n", ok ? "yes" : "no");
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dU)); CUDA_CHECK(cudaFree(dV));
    return ok ? 0 : 1;
}
