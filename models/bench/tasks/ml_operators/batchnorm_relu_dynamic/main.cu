// Training-mode batch normalisation: per-channel statistics with dynamic shared memory, then normalise + ReLU.
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

constexpr int N = 8, C = 16, H = 16, W = 16;

// One block per channel; the reduction buffer size is chosen at launch (dynamic shared memory).
__global__ void channel_stats(const float* __restrict__ x, float* __restrict__ mean,
                              float* __restrict__ inv_std, float eps) {
    extern __shared__ float smem[];  // 2 * blockDim.x floats: sums, then sums of squares
    float* s1 = smem;
    float* s2 = smem + blockDim.x;
    const int c = blockIdx.x;
    float a = 0.0f, b = 0.0f;
    for (int i = threadIdx.x; i < N * H * W; i += blockDim.x) {
        const int n = i / (H * W), hw = i % (H * W);
        const float v = x[(n * C + c) * H * W + hw];
        a += v;
        b += v * v;
    }
    s1[threadIdx.x] = a;
    s2[threadIdx.x] = b;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride) {
            s1[threadIdx.x] += s1[threadIdx.x + stride];
            s2[threadIdx.x] += s2[threadIdx.x + stride];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        const float count = (float)(N * H * W);
        const float m = s1[0] / count;
        const float var = fmaxf(s2[0] / count - m * m, 0.0f);
        mean[c] = m;
        inv_std[c] = 1.0f / sqrtf(var + eps);
    }
}

__global__ void normalize_relu(const float* __restrict__ x, const float* __restrict__ mean,
                               const float* __restrict__ inv_std, const float* __restrict__ gamma,
                               const float* __restrict__ beta, float* __restrict__ y, int total) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= total) return;
    const int c = (i / (H * W)) % C;
    const float v = (x[i] - mean[c]) * inv_std[c] * gamma[c] + beta[c];
    y[i] = v > 0.0f ? v : 0.0f;
}

int main() {
    g_seed = 5555u;
    const int total = N * C * H * W;
    std::vector<float> x(total), y(total), gamma(C), beta(C), mean(C), istd(C);
    for (int n = 0; n < N; ++n)
        for (int c = 0; c < C; ++c)
            for (int k = 0; k < H * W; ++k)
                x[(n * C + c) * H * W + k] = 0.2f * c + (1.0f + 0.1f * c) * next_uniform();
    for (int c = 0; c < C; ++c) {
        gamma[c] = 1.0f + 0.2f * next_uniform();
        beta[c] = 0.3f * next_uniform();
    }
    float *dx, *dy, *dg, *db, *dm, *ds;
    CUDA_CHECK(cudaMalloc(&dx, total * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dy, total * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dg, C * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&db, C * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dm, C * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&ds, C * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dx, x.data(), total * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dg, gamma.data(), C * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(db, beta.data(), C * sizeof(float), cudaMemcpyHostToDevice));
    const int threads = 256;
    channel_stats<<<C, threads, 2 * threads * sizeof(float)>>>(dx, dm, ds, 1e-5f);
    CUDA_CHECK(cudaGetLastError());
    normalize_relu<<<(total + 255) / 256, 256>>>(dx, dm, ds, dg, db, dy, total);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(y.data(), dy, total * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(mean.data(), dm, C * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(istd.data(), ds, C * sizeof(float), cudaMemcpyDeviceToHost));

    double max_err = 0.0, sum = 0.0;
    for (int c = 0; c < C; ++c) {
        double m = 0.0, v = 0.0;
        for (int n = 0; n < N; ++n)
            for (int k = 0; k < H * W; ++k) m += x[(n * C + c) * H * W + k];
        m /= N * H * W;
        for (int n = 0; n < N; ++n)
            for (int k = 0; k < H * W; ++k) v += pow(x[(n * C + c) * H * W + k] - m, 2);
        const double is = 1.0 / sqrt(v / (N * H * W) + 1e-5);
        for (int n = 0; n < N; ++n)
            for (int k = 0; k < H * W; ++k) {
                const int i = (n * C + c) * H * W + k;
                const double ref = fmax((x[i] - m) * is * gamma[c] + beta[c], 0.0);
                max_err = fmax(max_err, fabs(ref - y[i]));
                sum += y[i];
            }
    }
    printf("batchnorm n %d c %d %dx%d\n", N, C, H, W);
    printf("mean[0] %.6e mean[15] %.6e inv_std[0] %.6e inv_std[15] %.6e\n", mean[0], mean[15], istd[0], istd[15]);
    printf("relu_sum %.6e\n", sum);
    const bool ok = max_err < 2e-4;
    CUDA_CHECK(cudaFree(dx));
    CUDA_CHECK(cudaFree(dy));
    CUDA_CHECK(cudaFree(dg));
    CUDA_CHECK(cudaFree(db));
    CUDA_CHECK(cudaFree(dm));
    CUDA_CHECK(cudaFree(ds));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
