// 2x2/stride-2 max pooling with argmax indices and 3x3/stride-2 average pooling over a batch of feature maps.
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

constexpr int C = 16, H = 64, W = 64;

__global__ void maxpool2x2(const float* __restrict__ in, float* __restrict__ out, int* __restrict__ arg) {
    const int ox = blockIdx.x * blockDim.x + threadIdx.x, oy = blockIdx.y * blockDim.y + threadIdx.y;
    const int c = blockIdx.z;
    if (ox >= W / 2 || oy >= H / 2) return;
    const float* plane = in + (size_t)c * H * W;
    float best = -INFINITY;
    int best_i = -1;
    for (int dy = 0; dy < 2; ++dy)
        for (int dx = 0; dx < 2; ++dx) {
            const int i = (2 * oy + dy) * W + 2 * ox + dx;
            if (plane[i] > best) {  // first maximum wins on ties
                best = plane[i];
                best_i = i;
            }
        }
    out[(c * (H / 2) + oy) * (W / 2) + ox] = best;
    arg[(c * (H / 2) + oy) * (W / 2) + ox] = best_i;
}

// Average over a 3x3 window with stride 2 and padding 1; padding cells are excluded from the count.
__global__ void avgpool3x3s2(const float* __restrict__ in, float* __restrict__ out) {
    const int OH = (H + 1) / 2, OW = (W + 1) / 2;
    const int ox = blockIdx.x * blockDim.x + threadIdx.x, oy = blockIdx.y * blockDim.y + threadIdx.y;
    const int c = blockIdx.z;
    if (ox >= OW || oy >= OH) return;
    float s = 0.0f;
    int count = 0;
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
            const int y = 2 * oy + dy, x = 2 * ox + dx;
            if (y < 0 || y >= H || x < 0 || x >= W) continue;
            s += in[((size_t)c * H + y) * W + x];
            ++count;
        }
    out[(c * OH + oy) * OW + ox] = s / count;
}

int main() {
    g_seed = 6060u;
    const int OH = H / 2, OW = W / 2;
    std::vector<float> in(C * H * W), mx(C * OH * OW), avg(C * OH * OW);
    std::vector<int> arg(C * OH * OW);
    for (auto& v : in) v = (float)((int)(next_u32() % 200u) - 100) * 0.05f;  // coarse grid: ties
    float *d_in, *d_mx, *d_avg;
    int* d_arg;
    CUDA_CHECK(cudaMalloc(&d_in, in.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_mx, mx.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_avg, avg.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_arg, arg.size() * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_in, in.data(), in.size() * sizeof(float), cudaMemcpyHostToDevice));
    dim3 block(16, 16), grid(OW / 16, OH / 16, C);
    maxpool2x2<<<grid, block>>>(d_in, d_mx, d_arg);
    avgpool3x3s2<<<grid, block>>>(d_in, d_avg);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(mx.data(), d_mx, mx.size() * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(avg.data(), d_avg, avg.size() * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(arg.data(), d_arg, arg.size() * sizeof(int), cudaMemcpyDeviceToHost));

    bool ok = true;
    double max_sum = 0.0, avg_sum = 0.0;
    long long arg_sum = 0;
    for (int c = 0; c < C; ++c)
        for (int oy = 0; oy < OH; ++oy)
            for (int ox = 0; ox < OW; ++ox) {
                const int o = (c * OH + oy) * OW + ox;
                float best = -INFINITY, s = 0.0f;
                int bi = -1, count = 0;
                for (int dy = 0; dy < 2; ++dy)
                    for (int dx = 0; dx < 2; ++dx) {
                        const int i = (2 * oy + dy) * W + 2 * ox + dx;
                        if (in[c * H * W + i] > best) { best = in[c * H * W + i]; bi = i; }
                    }
                for (int dy = -1; dy <= 1; ++dy)
                    for (int dx = -1; dx <= 1; ++dx) {
                        const int y = 2 * oy + dy, x = 2 * ox + dx;
                        if (y < 0 || y >= H || x < 0 || x >= W) continue;
                        s += in[(c * H + y) * W + x];
                        ++count;
                    }
                if (mx[o] != best || arg[o] != bi || fabsf(avg[o] - s / count) > 1e-5f) ok = false;
                max_sum += mx[o];
                avg_sum += avg[o];
                arg_sum += arg[o];
            }
    printf("pooling c %d %dx%d\n", C, H, W);
    printf("max_sum %.6e avg_sum %.6e arg_sum %lld\n", max_sum, avg_sum, arg_sum);
    printf("avg[0] %.6e avg[last] %.6e\n", avg[0], avg[avg.size() - 1]);
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_mx));
    CUDA_CHECK(cudaFree(d_avg));
    CUDA_CHECK(cudaFree(d_arg));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
