// Separable Gaussian blur: a horizontal and a vertical pass, each staging a
// tile plus halo in shared memory. Filter taps live in constant memory and the
// radius is a template parameter. Borders clamp to the edge.
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

#define RADIUS 4
#define TILE_X 32
#define TILE_Y 8
static const int kWidth = 256;
static const int kHeight = 256;

__constant__ float cTaps[2 * RADIUS + 1];

__host__ __device__ inline int clampi(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

template <int R>
__global__ void blurRows(const float* in, float* out, int width, int height) {
    __shared__ float tile[TILE_Y][TILE_X + 2 * R];
    int x = blockIdx.x * TILE_X + threadIdx.x;
    int y = blockIdx.y * TILE_Y + threadIdx.y;
    int row = clampi(y, 0, height - 1);
    for (int i = threadIdx.x; i < TILE_X + 2 * R; i += TILE_X) {
        int gx = clampi(blockIdx.x * TILE_X + i - R, 0, width - 1);
        tile[threadIdx.y][i] = in[row * width + gx];
    }
    __syncthreads();
    if (x >= width || y >= height) return;
    float acc = 0.0f;
#pragma unroll
    for (int k = -R; k <= R; ++k) acc += cTaps[k + R] * tile[threadIdx.y][threadIdx.x + R + k];
    out[y * width + x] = acc;
}

template <int R>
__global__ void blurCols(const float* in, float* out, int width, int height) {
    __shared__ float tile[TILE_Y + 2 * R][TILE_X];
    int x = blockIdx.x * TILE_X + threadIdx.x;
    int y = blockIdx.y * TILE_Y + threadIdx.y;
    int col = clampi(x, 0, width - 1);
    for (int j = threadIdx.y; j < TILE_Y + 2 * R; j += TILE_Y) {
        int gy = clampi(blockIdx.y * TILE_Y + j - R, 0, height - 1);
        tile[j][threadIdx.x] = in[gy * width + col];
    }
    __syncthreads();
    if (x >= width || y >= height) return;
    float acc = 0.0f;
#pragma unroll
    for (int k = -R; k <= R; ++k) acc += cTaps[k + R] * tile[threadIdx.y + R + k][threadIdx.x];
    out[y * width + x] = acc;
}

int main() {
    const int n = kWidth * kHeight;
    std::vector<float> img(n), out(n);
    uint32_t s = 8675309u;
    for (int y = 0; y < kHeight; ++y)
        for (int x = 0; x < kWidth; ++x) {
            s ^= s << 13; s ^= s >> 17; s ^= s << 5;
            float base = ((x / 32 + y / 32) & 1) ? 200.0f : 40.0f;   // checkerboard
            img[y * kWidth + x] = base + (float)(s % 41) - 20.0f;     // plus noise
        }
    float taps[2 * RADIUS + 1];
    double norm = 0.0;
    for (int k = -RADIUS; k <= RADIUS; ++k) norm += exp(-(k * k) / (2.0 * 2.0 * 2.0));
    for (int k = -RADIUS; k <= RADIUS; ++k) taps[k + RADIUS] = (float)(exp(-(k * k) / 8.0) / norm);
    CUDA_CHECK(cudaMemcpyToSymbol(cTaps, taps, sizeof(taps)));

    float *dIn, *dTmp, *dOut;
    CUDA_CHECK(cudaMalloc(&dIn, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dTmp, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dOut, n * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dIn, img.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    dim3 block(TILE_X, TILE_Y);
    dim3 grid((kWidth + TILE_X - 1) / TILE_X, (kHeight + TILE_Y - 1) / TILE_Y);
    blurRows<RADIUS><<<grid, block>>>(dIn, dTmp, kWidth, kHeight);
    CUDA_CHECK(cudaGetLastError());
    blurCols<RADIUS><<<grid, block>>>(dTmp, dOut, kWidth, kHeight);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(out.data(), dOut, n * sizeof(float), cudaMemcpyDeviceToHost));

    std::vector<float> tmp(n), ref(n);
    for (int y = 0; y < kHeight; ++y)
        for (int x = 0; x < kWidth; ++x) {
            float acc = 0.0f;
            for (int k = -RADIUS; k <= RADIUS; ++k) acc += taps[k + RADIUS] * img[y * kWidth + clampi(x + k, 0, kWidth - 1)];
            tmp[y * kWidth + x] = acc;
        }
    for (int y = 0; y < kHeight; ++y)
        for (int x = 0; x < kWidth; ++x) {
            float acc = 0.0f;
            for (int k = -RADIUS; k <= RADIUS; ++k) acc += taps[k + RADIUS] * tmp[clampi(y + k, 0, kHeight - 1) * kWidth + x];
            ref[y * kWidth + x] = acc;
        }
    double sum = 0.0, maxErr = 0.0;
    for (int i = 0; i < n; ++i) {
        sum += out[i];
        maxErr = fmax(maxErr, fabs((double)out[i] - ref[i]));
    }
    printf("image %dx%d radius %d\n", kWidth, kHeight, RADIUS);
    printf("blurred sum %.6e\n", sum);
    printf("out[0,0] %.6e out[128,31] %.6e out[200,100] %.6e\n", out[0], out[128 * kWidth + 31], out[200 * kWidth + 100]);
    bool ok = maxErr < 1e-3;
    printf("max abs error below 1e-3: %s\n", ok ? "yes" : "no");
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dIn)); CUDA_CHECK(cudaFree(dTmp)); CUDA_CHECK(cudaFree(dOut));
    return ok ? 0 : 1;
}
