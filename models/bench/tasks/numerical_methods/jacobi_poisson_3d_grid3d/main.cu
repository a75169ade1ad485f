// Weighted Jacobi iteration for -laplace(u) = f on a 32^3 grid with zero Dirichlet boundary: each sweep is
// one launch over a 3D grid of 8x8x4 thread blocks (ping-pong buffers); the final residual norm is summed
// per block in shared memory and accumulated with a float atomicAdd.
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

constexpr int NX = 32, NY = 32, NZ = 32;
constexpr int SWEEPS = 12;
constexpr float OMEGA = 6.0f / 7.0f;

template <typename T>
__host__ __device__ inline T at(const T* u, int x, int y, int z) {
    if (x < 0 || y < 0 || z < 0 || x >= NX || y >= NY || z >= NZ) return T(0);
    return u[(z * NY + y) * NX + x];
}

template <typename T>
__global__ void jacobi_sweep(const T* __restrict__ u, const T* __restrict__ f, T* __restrict__ out, T h2) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    const int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x >= NX || y >= NY || z >= NZ) return;
    const T nb = at(u, x - 1, y, z) + at(u, x + 1, y, z) + at(u, x, y - 1, z) + at(u, x, y + 1, z) +
                 at(u, x, y, z - 1) + at(u, x, y, z + 1);
    const int i = (z * NY + y) * NX + x;
    const T jac = (nb + h2 * f[i]) / T(6);
    out[i] = (T(1) - T(OMEGA)) * u[i] + T(OMEGA) * jac;
}

template <typename T>
__global__ void residual_norm2(const T* __restrict__ u, const T* __restrict__ f, T inv_h2, float* norm2) {
    __shared__ float partial[256];
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    const int z = blockIdx.z * blockDim.z + threadIdx.z;
    const int tid = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    float r2 = 0.0f;
    if (x < NX && y < NY && z < NZ) {
        const T lap = at(u, x - 1, y, z) + at(u, x + 1, y, z) + at(u, x, y - 1, z) + at(u, x, y + 1, z) +
                      at(u, x, y, z - 1) + at(u, x, y, z + 1) - T(6) * at(u, x, y, z);
        const float r = (float)(f[(z * NY + y) * NX + x] + lap * inv_h2);
        r2 = r * r;
    }
    partial[tid] = r2;
    __syncthreads();
    for (int s = 128; s > 0; s >>= 1) {
        if (tid < s) partial[tid] += partial[tid + s];
        __syncthreads();
    }
    if (tid == 0) atomicAdd(norm2, partial[0]);
}

int main() {
    g_seed = 3003u;
    const int n = NX * NY * NZ;
    const float h = 1.0f / (NX + 1), h2 = h * h;
    std::vector<float> f(n);
    for (int z = 0; z < NZ; ++z)
        for (int y = 0; y < NY; ++y)
            for (int x = 0; x < NX; ++x)
                f[(z * NY + y) * NX + x] = 1.0f + 0.25f * next_uniform();  // noisy uniform source
    float *d_u0, *d_u1, *d_f, *d_norm;
    CUDA_CHECK(cudaMalloc(&d_u0, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_u1, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_f, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_norm, sizeof(float)));
    CUDA_CHECK(cudaMemset(d_u0, 0, n * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_norm, 0, sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_f, f.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    const dim3 block(8, 8, 4), grid(NX / 8, NY / 8, NZ / 4);
    for (int s = 0; s < SWEEPS; ++s) {
        jacobi_sweep<float><<<grid, block>>>(d_u0, d_f, d_u1, h2);
        CUDA_CHECK(cudaGetLastError());
        std::swap(d_u0, d_u1);
    }
    residual_norm2<float><<<grid, block>>>(d_u0, d_f, 1.0f / h2, d_norm);
    CUDA_CHECK(cudaGetLastError());
    std::vector<float> u(n);
    float norm2 = 0.0f;
    CUDA_CHECK(cudaMemcpy(u.data(), d_u0, n * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&norm2, d_norm, sizeof(float), cudaMemcpyDeviceToHost));

    std::vector<float> a(n, 0.0f), b(n);
    for (int s = 0; s < SWEEPS; ++s) {
        for (int z = 0; z < NZ; ++z)
            for (int y = 0; y < NY; ++y)
                for (int x = 0; x < NX; ++x) {
                    const float nb = at(a.data(), x - 1, y, z) + at(a.data(), x + 1, y, z) + at(a.data(), x, y - 1, z) +
                                     at(a.data(), x, y + 1, z) + at(a.data(), x, y, z - 1) + at(a.data(), x, y, z + 1);
                    const int i = (z * NY + y) * NX + x;
                    b[i] = (1.0f - OMEGA) * a[i] + OMEGA * ((nb + h2 * f[i]) / 6.0f);
                }
        std::swap(a, b);
    }
    bool ok = true;
    double usum = 0.0, umax = 0.0, rnorm = 0.0;
    for (int z = 0; z < NZ; ++z)
        for (int y = 0; y < NY; ++y)
            for (int x = 0; x < NX; ++x) {
                const int i = (z * NY + y) * NX + x;
                if (fabs(a[i] - u[i]) > 1e-5 * (fabs(a[i]) + 1e-6)) ok = false;
                usum += u[i];
                umax = fmax(umax, u[i]);
                const double lap = (double)at(u.data(), x - 1, y, z) + at(u.data(), x + 1, y, z) + at(u.data(), x, y - 1, z) +
                                   at(u.data(), x, y + 1, z) + at(u.data(), x, y, z - 1) + at(u.data(), x, y, z + 1) - 6.0 * u[i];
                const double r = f[i] + lap / h2;
                rnorm += r * r;
            }
    if (fabs(rnorm - norm2) > 1e-3 * rnorm) ok = false;
    printf("grid %dx%dx%d sweeps %d\n", NX, NY, NZ, SWEEPS);
    printf("u_sum %.6e u_max %.6e u_center %.6e\n", usum, umax, u[(16 * NY + 16) * NX + 16]);
    printf("residual_norm %.6e\n", sqrt(rnorm));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(d_u0));
    CUDA_CHECK(cudaFree(d_u1));
    CUDA_CHECK(cudaFree(d_f));
    CUDA_CHECK(cudaFree(d_norm));
    return ok ? 0 : 1;
}
