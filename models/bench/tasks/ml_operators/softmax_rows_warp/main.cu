// Row softmax with one warp per row: shuffle max and sum, fast-math __expf, numerically stable.
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

constexpr int COLS = 256;
constexpr int PER_LANE = COLS / 32;

__inline__ __device__ float warp_max(float v) {
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}
__inline__ __device__ float warp_sum(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

__global__ void softmax_rows(const float* __restrict__ logits, float* __restrict__ probs, int rows,
                             float inv_temperature) {
    const int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const int lane = threadIdx.x & 31;
    if (row >= rows) return;
    const float* x = logits + (size_t)row * COLS;
    float v[PER_LANE];
    float m = -INFINITY;
#pragma unroll
    for (int k = 0; k < PER_LANE; ++k) {
        v[k] = x[lane + 32 * k] * inv_temperature;
        m = fmaxf(m, v[k]);
    }
    m = warp_max(m);
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < PER_LANE; ++k) {
        v[k] = __expf(v[k] - m);
        s += v[k];
    }
    const float inv = __fdividef(1.0f, warp_sum(s));
#pragma unroll
    for (int k = 0; k < PER_LANE; ++k) probs[(size_t)row * COLS + lane + 32 * k] = v[k] * inv;
}

int main() {
    g_seed = 1984u;
    const int rows = 512;
    const float inv_t = 1.0f / 0.7f;
    std::vector<float> x((size_t)rows * COLS), p(x.size());
    for (auto& v : x) v = 4.0f * next_uniform();
    float *dx, *dp;
    CUDA_CHECK(cudaMalloc(&dx, x.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dp, p.size() * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dx, x.data(), x.size() * sizeof(float), cudaMemcpyHostToDevice));
    softmax_rows<<<rows * 32 / 128, 128>>>(dx, dp, rows, inv_t);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(p.data(), dp, p.size() * sizeof(float), cudaMemcpyDeviceToHost));

    double max_err = 0.0, entropy = 0.0, top_mass = 0.0;
    for (int r = 0; r < rows; ++r) {
        double m = -1e30, s = 0.0, top = 0.0;
        for (int c = 0; c < COLS; ++c) m = fmax(m, (double)x[r * COLS + c] * inv_t);
        for (int c = 0; c < COLS; ++c) s += exp((double)x[r * COLS + c] * inv_t - m);
        for (int c = 0; c < COLS; ++c) {
            const double ref = exp((double)x[r * COLS + c] * inv_t - m) / s;
            const double got = p[r * COLS + c];
            max_err = fmax(max_err, fabs(got - ref) / ref);
            entropy -= got * log(got);
            top = fmax(top, got);
        }
        top_mass += top;
    }
    printf("softmax rows %d cols %d\n", rows, COLS);
    printf("mean_entropy %.6e mean_top_prob %.6e\n", entropy / rows, top_mass / rows);
    printf("p[0][0] %.6e p[%d][%d] %.6e\n", p[0], rows - 1, COLS - 1, p[p.size() - 1]);
    const bool ok = max_err < 1e-4;
    CUDA_CHECK(cudaFree(dx));
    CUDA_CHECK(cudaFree(dp));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
