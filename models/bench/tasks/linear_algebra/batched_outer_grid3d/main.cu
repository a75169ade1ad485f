// Batched rank-1 updates on a 3D grid (batch in z), then a per-batch Frobenius norm reduction.
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

constexpr int ROWS = 64, COLS = 48, BATCH = 16, TB = 16;

__global__ void batched_rank1(const float* __restrict__ u, const float* __restrict__ v,
                              const float* __restrict__ w, float* __restrict__ C) {
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    const int b = blockIdx.z;
    if (i >= ROWS || j >= COLS) return;
    const float diag = ((i + j) % 3 == 0) ? w[b] : 0.0f;
    C[((size_t)b * ROWS + i) * COLS + j] = u[b * ROWS + i] * v[b * COLS + j] + diag;
}

__global__ void frobenius_per_batch(const float* __restrict__ C, float* __restrict__ norms) {
    __shared__ float partial[256];
    const float* mat = C + (size_t)blockIdx.x * ROWS * COLS;
    float s = 0.0f;
    for (int k = threadIdx.x; k < ROWS * COLS; k += blockDim.x) s += mat[k] * mat[k];
    partial[threadIdx.x] = s;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) norms[blockIdx.x] = sqrtf(partial[0]);
}

int main() {
    g_seed = 5150u;
    std::vector<float> u(BATCH * ROWS), v(BATCH * COLS), w(BATCH), norms(BATCH);
    std::vector<float> C((size_t)BATCH * ROWS * COLS);
    for (auto& x : u) x = next_uniform();
    for (auto& x : v) x = next_uniform();
    for (auto& x : w) x = next_uniform();
    float *du, *dv, *dw, *dC, *dn;
    CUDA_CHECK(cudaMalloc(&du, u.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dv, v.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dw, w.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dC, C.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dn, BATCH * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(du, u.data(), u.size() * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dv, v.data(), v.size() * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dw, w.data(), w.size() * sizeof(float), cudaMemcpyHostToDevice));
    dim3 block(TB, TB, 1);
    dim3 grid((COLS + TB - 1) / TB, (ROWS + TB - 1) / TB, BATCH);
    batched_rank1<<<grid, block>>>(du, dv, dw, dC);
    CUDA_CHECK(cudaGetLastError());
    frobenius_per_batch<<<BATCH, 256>>>(dC, dn);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(C.data(), dC, C.size() * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(norms.data(), dn, BATCH * sizeof(float), cudaMemcpyDeviceToHost));

    bool ok = true;
    double total = 0.0;
    for (int b = 0; b < BATCH; ++b) {
        double fro = 0.0;
        for (int i = 0; i < ROWS; ++i)
            for (int j = 0; j < COLS; ++j) {
                const float ref = u[b * ROWS + i] * v[b * COLS + j] + (((i + j) % 3 == 0) ? w[b] : 0.0f);
                const float got = C[((size_t)b * ROWS + i) * COLS + j];
                if (fabsf(ref - got) > 1e-6f) ok = false;
                fro += (double)ref * ref;
            }
        if (fabs(sqrt(fro) - norms[b]) > 1e-4 * sqrt(fro)) ok = false;
        total += norms[b];
    }
    printf("batched rank-1 batch %d %dx%d\n", BATCH, ROWS, COLS);
    for (int b = 0; b < BATCH; b += 5) printf("norm[%d] %.6e\n", b, norms[b]);
    printf("total_norm %.6e\n", total);
    CUDA_CHECK(cudaFree(du));
    CUDA_CHECK(cudaFree(dv));
    CUDA_CHECK(cudaFree(dw));
    CUDA_CHECK(cudaFree(dC));
    CUDA_CHECK(cudaFree(dn));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
