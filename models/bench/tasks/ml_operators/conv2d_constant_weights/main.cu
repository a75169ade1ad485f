// Direct 3x3 NCHW convolution with padding: weights and bias in __constant__ memory, a 3D grid over (x, y, n*cout), fused ReLU.
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

constexpr int N = 2, CIN = 3, COUT = 8, H = 32, W = 32, KS = 3, PAD = 1;
__constant__ float c_weight[COUT * CIN * KS * KS];
__constant__ float c_bias[COUT];

struct Shape4 {
    int n, c, h, w;
    __host__ __device__ int index(int in, int ic, int ih, int iw) const {
        return ((in * c + ic) * h + ih) * w + iw;
    }
};

__global__ void conv3x3_relu(const float* __restrict__ input, float* __restrict__ output, Shape4 is,
                             Shape4 os) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    const int n = blockIdx.z / COUT, oc = blockIdx.z % COUT;
    if (x >= W || y >= H) return;
    float acc = c_bias[oc];
    for (int ic = 0; ic < CIN; ++ic)
        for (int ky = 0; ky < KS; ++ky) {
            const int iy = y + ky - PAD;
            if (iy < 0 || iy >= H) continue;
            for (int kx = 0; kx < KS; ++kx) {
                const int ix = x + kx - PAD;
                if (ix < 0 || ix >= W) continue;
                acc += input[is.index(n, ic, iy, ix)] * c_weight[((oc * CIN + ic) * KS + ky) * KS + kx];
            }
        }
    output[os.index(n, oc, y, x)] = fmaxf(acc, 0.0f);
}

int main() {
    g_seed = 3030u;
    const Shape4 is{N, CIN, H, W}, os{N, COUT, H, W};
    std::vector<float> in(N * CIN * H * W), out(N * COUT * H * W);
    std::vector<float> w(COUT * CIN * KS * KS), b(COUT);
    for (auto& v : in) v = next_uniform();
    for (auto& v : w) v = 0.4f * next_uniform();
    for (auto& v : b) v = 0.1f * next_uniform();
    CUDA_CHECK(cudaMemcpyToSymbol(c_weight, w.data(), w.size() * sizeof(float)));
    CUDA_CHECK(cudaMemcpyToSymbol(c_bias, b.data(), b.size() * sizeof(float)));
    float *d_in, *d_out;
    CUDA_CHECK(cudaMalloc(&d_in, in.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, out.size() * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_in, in.data(), in.size() * sizeof(float), cudaMemcpyHostToDevice));
    dim3 block(16, 8, 1), grid(W / 16, H / 8, N * COUT);
    conv3x3_relu<<<grid, block>>>(d_in, d_out, is, os);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(float), cudaMemcpyDeviceToHost));

    double max_err = 0.0, sum = 0.0;
    int active = 0;
    for (int n = 0; n < N; ++n)
        for (int oc = 0; oc < COUT; ++oc)
            for (int y = 0; y < H; ++y)
                for (int x = 0; x < W; ++x) {
                    double acc = b[oc];
                    for (int ic = 0; ic < CIN; ++ic)
                        for (int ky = 0; ky < KS; ++ky)
                            for (int kx = 0; kx < KS; ++kx) {
                                const int iy = y + ky - PAD, ix = x + kx - PAD;
                                if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue;
                                acc += (double)in[is.index(n, ic, iy, ix)] * w[((oc * CIN + ic) * KS + ky) * KS + kx];
                            }
                    const double ref = acc > 0.0 ? acc : 0.0;
                    const float got = out[os.index(n, oc, y, x)];
                    max_err = fmax(max_err, fabs(ref - got));
                    sum += got;
                    active += got > 1e-3f ? 1 : 0;
                }
    printf("conv3x3 n %d cin %d cout %d %dx%d\n", N, CIN, COUT, H, W);
    printf("sum %.6e\n", sum);
    printf("out[0] %.6e out[last] %.6e\n", out[0], out[out.size() - 1]);
    const bool ok = max_err < 1e-5;
    printf("max_err_ok %d active_above_1e-3 %d\n", ok ? 1 : 0, active);
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
