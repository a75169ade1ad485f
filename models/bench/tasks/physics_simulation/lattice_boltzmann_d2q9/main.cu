// Lattice Boltzmann D2Q9 (BGK) on a periodic 64x64 domain: fused pull-streaming
// and collision, 8 time steps. Lattice velocities and weights are constant
// memory tables; the macroscopic state is reduced on the host.
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

#define Q 9
static const int kNx = 64, kNy = 64;
static const int kSteps = 8;
static const float kOmega = 1.2f;   // 1 / relaxation time

__constant__ int cEx[Q];
__constant__ int cEy[Q];
__constant__ float cW[Q];
static const int hEx[Q] = {0, 1, 0, -1, 0, 1, -1, -1, 1};
static const int hEy[Q] = {0, 0, 1, 0, -1, 1, 1, -1, -1};
static const float hW[Q] = {4.f / 9, 1.f / 9, 1.f / 9, 1.f / 9, 1.f / 9, 1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36};

__host__ __device__ inline float equilibrium(float w, int ex, int ey, float rho, float ux, float uy) {
    float eu = ex * ux + ey * uy;
    float uu = ux * ux + uy * uy;
    return w * rho * (1.0f + 3.0f * eu + 4.5f * eu * eu - 1.5f * uu);
}

// layout: f[q * nx * ny + y * nx + x]
__global__ void streamCollide(const float* fin, float* fout, int nx, int ny, float omega) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= nx || y >= ny) return;
    int cells = nx * ny;
    float f[Q], rho = 0.0f, ux = 0.0f, uy = 0.0f;
#pragma unroll
    for (int q = 0; q < Q; ++q) {
        int sx = (x - cEx[q] + nx) % nx, sy = (y - cEy[q] + ny) % ny;   // pull from upstream
        f[q] = fin[q * cells + sy * nx + sx];
        rho += f[q]; ux += f[q] * cEx[q]; uy += f[q] * cEy[q];
    }
    ux /= rho; uy /= rho;
#pragma unroll
    for (int q = 0; q < Q; ++q)
        fout[q * cells + y * nx + x] = f[q] + omega * (equilibrium(cW[q], cEx[q], cEy[q], rho, ux, uy) - f[q]);
}

static void cpuStep(const std::vector<float>& fin, std::vector<float>& fout) {
    int cells = kNx * kNy;
    for (int y = 0; y < kNy; ++y)
        for (int x = 0; x < kNx; ++x) {
            float f[Q], rho = 0.0f, ux = 0.0f, uy = 0.0f;
            for (int q = 0; q < Q; ++q) {
                int sx = (x - hEx[q] + kNx) % kNx, sy = (y - hEy[q] + kNy) % kNy;
                f[q] = fin[q * cells + sy * kNx + sx];
                rho += f[q]; ux += f[q] * hEx[q]; uy += f[q] * hEy[q];
            }
            ux /= rho; uy /= rho;
            for (int q = 0; q < Q; ++q)
                fout[q * cells + y * kNx + x] = f[q] + kOmega * (equilibrium(hW[q], hEx[q], hEy[q], rho, ux, uy) - f[q]);
        }
}

int main() {
    CUDA_CHECK(cudaMemcpyToSymbol(cEx, hEx, sizeof(hEx)));
    CUDA_CHECK(cudaMemcpyToSymbol(cEy, hEy, sizeof(hEy)));
    CUDA_CHECK(cudaMemcpyToSymbol(cW, hW, sizeof(hW)));
    const int cells = kNx * kNy;
    std::vector<float> f(Q * cells);
    uint32_t s = 299792u;
    for (int y = 0; y < kNy; ++y)
        for (int x = 0; x < kNx; ++x) {
            s = s * 1664525u + 1013904223u;
            float dx = x - 32.0f, dy = y - 32.0f;
            float rho = 1.0f + 0.1f * expf(-(dx * dx + dy * dy) / 40.0f) + ((s >> 24) & 15) * 1e-4f;
            float ux = 0.05f * sinf(6.2831853f * y / kNy), uy = 0.0f;   // shear wave
            for (int q = 0; q < Q; ++q) f[q * cells + y * kNx + x] = equilibrium(hW[q], hEx[q], hEy[q], rho, ux, uy);
        }
    float *dA, *dB;
    size_t bytes = f.size() * sizeof(float);
    CUDA_CHECK(cudaMalloc(&dA, bytes));
    CUDA_CHECK(cudaMalloc(&dB, bytes));
    CUDA_CHECK(cudaMemcpy(dA, f.data(), bytes, cudaMemcpyHostToDevice));
    dim3 block(16, 8), grid(kNx / 16, kNy / 8);
    float *cur = dA, *nxt = dB;
    for (int t = 0; t < kSteps; ++t) {
        streamCollide<<<grid, block>>>(cur, nxt, kNx, kNy, kOmega);
        CUDA_CHECK(cudaGetLastError());
        float* tmp = cur; cur = nxt; nxt = tmp;
    }
    std::vector<float> out(f.size());
    CUDA_CHECK(cudaMemcpy(out.data(), cur, bytes, cudaMemcpyDeviceToHost));

    std::vector<float> a(f), b(f.size());
    for (int t = 0; t < kSteps; ++t) { cpuStep(a, b); a.swap(b); }
    double maxErr = 0.0, mass = 0.0, momX = 0.0, momY = 0.0;
    for (size_t i = 0; i < out.size(); ++i) maxErr = fmax(maxErr, fabs((double)out[i] - a[i]));
    for (int c = 0; c < cells; ++c)
        for (int q = 0; q < Q; ++q) {
            double v = out[q * cells + c];
            mass += v; momX += v * hEx[q]; momY += v * hEy[q];
        }
    double rhoCentre = 0.0, uxEdge = 0.0;
    for (int q = 0; q < Q; ++q) {
        rhoCentre += out[q * cells + 32 * kNx + 32];
        uxEdge += out[q * cells + 16 * kNx + 5] * hEx[q];
    }
    printf("lattice %dx%d steps %d omega %.2f\n", kNx, kNy, kSteps, kOmega);
    printf("mass %.6e x-momentum magnitude %.4e\n", mass, fabs(momX) + fabs(momY));
    printf("density at centre %.6e x-momentum density at (5,16) %.6e\n", rhoCentre, uxEdge);
    bool ok = maxErr < 1e-5;
    printf("max abs error below 1e-5: %s\n", ok ? "yes" : "no");
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dA)); CUDA_CHECK(cudaFree(dB));
    return ok ? 0 : 1;
}
