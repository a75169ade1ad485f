// Chebyshev approximation: kernel 1 computes the degree-(NC-1) coefficients of f(x) = exp(sin(3x)) on
// [-1, 1] from samples at Chebyshev nodes (fast-math __expf/__sinf/__cosf); they are copied device to
// device into __constant__ memory; kernel 2 evaluates the series by Clenshaw's recurrence and tracks
// the largest deviation from f with an integer atomicMax on the float's bits.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>
#include <vector>
#include <cstring>
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

constexpr int NC = 48;        // coefficients
constexpr int NS = 96;        // sample nodes
constexpr int NPOINTS = 1 << 16;
constexpr float PI_F = 3.14159265358979f;

__constant__ float c_coef[NC];

__device__ __forceinline__ float f_fast(float x) { return __expf(__sinf(3.0f * x)); }

__global__ void chebyshev_coefficients(float* coef) {
    __shared__ float fx[NS];
    for (int j = threadIdx.x; j < NS; j += blockDim.x) fx[j] = f_fast(__cosf(PI_F * (j + 0.5f) / NS));
    __syncthreads();
    const int k = threadIdx.x;
    if (k >= NC) return;
    float s = 0.0f;
    for (int j = 0; j < NS; ++j) s += fx[j] * cosf(PI_F * k * (j + 0.5f) / NS);
    coef[k] = (k == 0 ? 1.0f : 2.0f) * s / NS;
}

__device__ float clenshaw(float x) {
    float b1 = 0.0f, b2 = 0.0f;
    for (int k = NC - 1; k >= 1; --k) {
        const float b0 = 2.0f * x * b1 - b2 + c_coef[k];
        b2 = b1;
        b1 = b0;
    }
    return x * b1 - b2 + c_coef[0];
}

__global__ void evaluate(float* y, int* max_err_bits) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= NPOINTS) return;
    const float x = -1.0f + 2.0f * (i + 0.5f) / NPOINTS;
    const float v = clenshaw(x);
    y[i] = v;
    const float err = fabsf(v - expf(sinf(3.0f * x)));
    atomicMax(max_err_bits, __float_as_int(err));  // non-negative floats order like their bit patterns
}

int main() {
    float *d_coef, *d_y;
    int* d_err;
    CUDA_CHECK(cudaMalloc(&d_coef, NC * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_y, NPOINTS * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_err, sizeof(int)));
    CUDA_CHECK(cudaMemset(d_err, 0, sizeof(int)));
    chebyshev_coefficients<<<1, 64>>>(d_coef);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpyToSymbol(c_coef, d_coef, NC * sizeof(float), 0, cudaMemcpyDeviceToDevice));
    evaluate<<<NPOINTS / 256, 256>>>(d_y, d_err);
    CUDA_CHECK(cudaGetLastError());
    std::vector<float> coef(NC), y(NPOINTS);
    int err_bits = 0;
    CUDA_CHECK(cudaMemcpy(coef.data(), d_coef, NC * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(y.data(), d_y, NPOINTS * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&err_bits, d_err, sizeof(int), cudaMemcpyDeviceToHost));
    float max_err;
    memcpy(&max_err, &err_bits, sizeof(float));

    // CPU reference in double: coefficients and evaluations.
    std::vector<double> rc(NC), fx(NS);
    for (int j = 0; j < NS; ++j) fx[j] = exp(sin(3.0 * cos(M_PI * (j + 0.5) / NS)));
    for (int k = 0; k < NC; ++k) {
        double s = 0.0;
        for (int j = 0; j < NS; ++j) s += fx[j] * cos(M_PI * k * (j + 0.5) / NS);
        rc[k] = (k == 0 ? 1.0 : 2.0) * s / NS;
    }
    bool ok = max_err < 2e-4f;
    for (int k = 0; k < NC; ++k)
        if (fabs(rc[k] - coef[k]) > 5e-5) ok = false;
    double sum = 0.0, max_dev = 0.0;
    for (int i = 0; i < NPOINTS; ++i) {
        const double x = -1.0 + 2.0 * (i + 0.5) / NPOINTS;
        max_dev = fmax(max_dev, fabs(y[i] - exp(sin(3.0 * x))));
        sum += y[i];
    }
    if (max_dev > 2e-4) ok = false;
    printf("coefficients %d samples %d points %d\n", NC, NS, NPOINTS);
    printf("c0 %.6e c1 %.6e c2 %.6e c10 %.6e\n", coef[0], coef[1], coef[2], coef[10]);
    printf("mean %.6e y[0] %.6e y[32768] %.6e\n", sum / NPOINTS, y[0], y[NPOINTS / 2]);
    printf("max_error_below_2e-4 %d\n", max_err < 2e-4f ? 1 : 0);
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(d_coef));
    CUDA_CHECK(cudaFree(d_y));
    CUDA_CHECK(cudaFree(d_err));
    return ok ? 0 : 1;
}
