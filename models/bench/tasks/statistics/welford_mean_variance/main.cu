// Per-column mean/variance with Welford accumulators merged by Chan's formula in a shared-memory tree (double).
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

struct Welford {
    double count, mean, m2;
    __host__ __device__ void push(double x) {
        count += 1.0;
        const double d = x - mean;
        mean += d / count;
        m2 += d * (x - mean);
    }
    __host__ __device__ static Welford merge(const Welford& a, const Welford& b) {
        if (a.count == 0.0) return b;
        if (b.count == 0.0) return a;
        Welford r;
        r.count = a.count + b.count;
        const double d = b.mean - a.mean;
        r.mean = a.mean + d * b.count / r.count;
        r.m2 = a.m2 + b.m2 + d * d * a.count * b.count / r.count;
        return r;
    }
};

constexpr int THREADS = 128;

// One block per column of a row-major [rows x cols] table.
__global__ void column_stats(const float* __restrict__ x, int rows, int cols, Welford* __restrict__ out) {
    __shared__ Welford acc[THREADS];
    const int col = blockIdx.x;
    Welford w{0.0, 0.0, 0.0};
    for (int r = threadIdx.x; r < rows; r += THREADS) w.push((double)x[(size_t)r * cols + col]);
    acc[threadIdx.x] = w;
    __syncthreads();
    for (int stride = THREADS / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride) acc[threadIdx.x] = Welford::merge(acc[threadIdx.x], acc[threadIdx.x + stride]);
        __syncthreads();
    }
    if (threadIdx.x == 0) out[col] = acc[0];
}

int main() {
    g_seed = 6174u;
    const int rows = 6000, cols = 24;
    std::vector<float> x((size_t)rows * cols);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)  // large offsets make the naive formula lose digits
            x[(size_t)r * cols + c] = 1000.0f * (c + 1) + (0.5f + 0.1f * c) * next_uniform();
    float* dx;
    Welford* dout;
    CUDA_CHECK(cudaMalloc(&dx, x.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dout, cols * sizeof(Welford)));
    CUDA_CHECK(cudaMemcpy(dx, x.data(), x.size() * sizeof(float), cudaMemcpyHostToDevice));
    column_stats<<<cols, THREADS>>>(dx, rows, cols, dout);
    CUDA_CHECK(cudaGetLastError());
    std::vector<Welford> out(cols);
    CUDA_CHECK(cudaMemcpy(out.data(), dout, cols * sizeof(Welford), cudaMemcpyDeviceToHost));

    bool ok = true;
    for (int c = 0; c < cols; ++c) {
        double mean = 0.0, m2 = 0.0;
        for (int r = 0; r < rows; ++r) mean += x[(size_t)r * cols + c];
        mean /= rows;
        for (int r = 0; r < rows; ++r) m2 += pow(x[(size_t)r * cols + c] - mean, 2);
        const double var = m2 / (rows - 1), got_var = out[c].m2 / (out[c].count - 1);
        if (out[c].count != rows || fabs(out[c].mean - mean) > 1e-9 * fabs(mean) ||
            fabs(got_var - var) > 1e-8 * var)
            ok = false;
        if (c % 8 == 0 || c == cols - 1)
            printf("col %2d mean %.10e sample_var %.8e\n", c, out[c].mean, got_var);
    }
    CUDA_CHECK(cudaFree(dx));
    CUDA_CHECK(cudaFree(dout));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
