// Fused bias + GELU (tanh approximation) on half2 vectors, with a half-precision row-sum reduction.
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

#include <cuda_fp16.h>

__device__ __forceinline__ float gelu_tanh(float x) {
    const float k0 = 0.7978845608f, k1 = 0.044715f;
    return 0.5f * x * (1.0f + tanhf(k0 * (x + k1 * x * x * x)));
}

// Each thread handles one __half2 (two adjacent columns) of a row-major [rows x cols] activation.
__global__ void bias_gelu_half2(const __half2* __restrict__ x, const __half2* __restrict__ bias,
                                __half2* __restrict__ y, int rows, int cols2) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= rows * cols2) return;
    const __half2 v = __hadd2(x[i], bias[i % cols2]);
    const float2 f = __half22float2(v);
    y[i] = __floats2half2_rn(gelu_tanh(f.x), gelu_tanh(f.y));
}

// Row sums accumulated in float from half inputs, one warp per row.
__global__ void row_sums(const __half2* __restrict__ y, float* __restrict__ sums, int rows, int cols2) {
    const int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
    if (row >= rows) return;
    float s = 0.0f;
    for (int c = lane; c < cols2; c += 32) {
        const float2 f = __half22float2(y[row * cols2 + c]);
        s += f.x + f.y;
    }
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
    if (lane == 0) sums[row] = s;
}

int main() {
    g_seed = 2048u;
    const int rows = 256, cols = 256, cols2 = cols / 2;
    std::vector<__half> x(rows * cols), bias(cols), y(rows * cols);
    for (auto& v : x) v = __float2half(3.0f * next_uniform());
    for (auto& v : bias) v = __float2half(0.5f * next_uniform());
    __half *dx, *db, *dy;
    float* ds;
    CUDA_CHECK(cudaMalloc(&dx, x.size() * sizeof(__half)));
    CUDA_CHECK(cudaMalloc(&db, bias.size() * sizeof(__half)));
    CUDA_CHECK(cudaMalloc(&dy, y.size() * sizeof(__half)));
    CUDA_CHECK(cudaMalloc(&ds, rows * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dx, x.data(), x.size() * sizeof(__half), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(db, bias.data(), bias.size() * sizeof(__half), cudaMemcpyHostToDevice));
    bias_gelu_half2<<<(rows * cols2 + 255) / 256, 256>>>(reinterpret_cast<const __half2*>(dx),
                                                         reinterpret_cast<const __half2*>(db),
                                                         reinterpret_cast<__half2*>(dy), rows, cols2);
    CUDA_CHECK(cudaGetLastError());
    row_sums<<<rows * 32 / 128, 128>>>(reinterpret_cast<const __half2*>(dy), ds, rows, cols2);
    CUDA_CHECK(cudaGetLastError());
    std::vector<float> sums(rows);
    CUDA_CHECK(cudaMemcpy(y.data(), dy, y.size() * sizeof(__half), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(sums.data(), ds, rows * sizeof(float), cudaMemcpyDeviceToHost));

    double max_err = 0.0, total = 0.0, sum_err = 0.0;
    for (int r = 0; r < rows; ++r) {
        double row_ref = 0.0;
        for (int c = 0; c < cols; ++c) {
            const float in = __half2float(__float2half(__half2float(x[r * cols + c]) + __half2float(bias[c])));
            const double ref = 0.5 * in * (1.0 + tanh(0.7978845608 * (in + 0.044715 * in * in * in)));
            const double got = __half2float(y[r * cols + c]);
            max_err = fmax(max_err, fabs(got - ref) / (1.0 + fabs(ref)));
            row_ref += got;
        }
        sum_err = fmax(sum_err, fabs(row_ref - sums[r]) / (1.0 + fabs(row_ref)));
        total += sums[r];
    }
    printf("bias+gelu half2 %dx%d\n", rows, cols);
    printf("total %.4e row0 %.4e row%d %.4e\n", total, sums[0], rows - 1, sums[rows - 1]);
    printf("y[0] %.4e y[1] %.4e\n", __half2float(y[0]), __half2float(y[1]));
    const bool ok = max_err < 4e-3 && sum_err < 1e-4;
    CUDA_CHECK(cudaFree(dx));
    CUDA_CHECK(cudaFree(db));
    CUDA_CHECK(cudaFree(dy));
    CUDA_CHECK(cudaFree(ds));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
