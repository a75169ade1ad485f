// JPEG-style 8x8 block DCT-II (orthonormal) of a 256x256 image followed by
// coefficient truncation and the inverse transform. One 8x8 thread block per
// image block; the cosine basis lives in constant memory and the block size is
// a template parameter. Both passes are separable matrix products in shared
// memory.
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

#define B 8
static const int kSize = 256;
static const int kKeep = 4;    // keep the kKeep x kKeep low-frequency coefficients
static const double kPi = 3.14159265358979323846;

__constant__ float cBasis[B * B];    // cBasis[u * B + x] = c(u) cos((2x+1) u pi / 2B)

// forward: Y = C X C^T ; inverse: X = C^T Y C
template <int N, bool INVERSE>
__global__ void blockTransform(const float* in, float* out, int width, int keep) {
    __shared__ float tile[N][N];
    __shared__ float tmp[N][N];
    int tx = threadIdx.x, ty = threadIdx.y;
    int gx = blockIdx.x * N + tx, gy = blockIdx.y * N + ty;
    float v = in[gy * width + gx];
    if (INVERSE && (tx >= keep || ty >= keep)) v = 0.0f;   // drop high frequencies
    tile[ty][tx] = v;
    __syncthreads();
    float acc = 0.0f;
    for (int k = 0; k < N; ++k)   // columns: tmp[ty][tx] = sum_k A[ty][k] * tile[k][tx]
        acc += (INVERSE ? cBasis[k * N + ty] : cBasis[ty * N + k]) * tile[k][tx];
    tmp[ty][tx] = acc;
    __syncthreads();
    acc = 0.0f;
    for (int k = 0; k < N; ++k)   // rows: out[ty][tx] = sum_k tmp[ty][k] * A[tx][k]
        acc += tmp[ty][k] * (INVERSE ? cBasis[k * N + tx] : cBasis[tx * N + k]);
    out[gy * width + gx] = acc;
}

int main() {
    const int n = kSize * kSize;
    float basis[B * B];
    for (int u = 0; u < B; ++u)
        for (int x = 0; x < B; ++x)
            basis[u * B + x] = (float)((u == 0 ? sqrt(1.0 / B) : sqrt(2.0 / B)) * cos((2 * x + 1) * u * kPi / (2 * B)));
    CUDA_CHECK(cudaMemcpyToSymbol(cBasis, basis, sizeof(basis)));
    std::vector<float> img(n);
    uint32_t s = 1618033u;
    for (int y = 0; y < kSize; ++y)
        for (int x = 0; x < kSize; ++x) {
            s = s * 1664525u + 1013904223u;
            img[y * kSize + x] = (float)(128.0 + 60.0 * sin(x * 0.05) * cos(y * 0.03)) + (float)((s >> 24) % 9) - 4.0f;
        }
    float *dImg, *dCoef, *dRecon;
    CUDA_CHECK(cudaMalloc(&dImg, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dCoef, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dRecon, n * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dImg, img.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    dim3 block(B, B), grid(kSize / B, kSize / B);
    blockTransform<B, false><<<grid, block>>>(dImg, dCoef, kSize, B);
    CUDA_CHECK(cudaGetLastError());
    blockTransform<B, true><<<grid, block>>>(dCoef, dRecon, kSize, kKeep);
    CUDA_CHECK(cudaGetLastError());
    std::vector<float> coef(n), recon(n);
    CUDA_CHECK(cudaMemcpy(coef.data(), dCoef, n * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(recon.data(), dRecon, n * sizeof(float), cudaMemcpyDeviceToHost));

    // CPU reference in double precision
    double maxCoefErr = 0.0, maxReconErr = 0.0, dcSum = 0.0, acEnergy = 0.0, reconErr = 0.0;
    for (int by = 0; by < kSize; by += B)
        for (int bx = 0; bx < kSize; bx += B) {
            double Y[B][B], R[B][B];
            for (int u = 0; u < B; ++u)
                for (int v = 0; v < B; ++v) {
                    double acc = 0.0;
                    for (int y = 0; y < B; ++y)
                        for (int x = 0; x < B; ++x)
                            acc += (double)basis[u * B + y] * basis[v * B + x] * img[(by + y) * kSize + bx + x];
                    Y[u][v] = acc;
                }
            for (int y = 0; y < B; ++y)
                for (int x = 0; x < B; ++x) {
                    double acc = 0.0;
                    for (int u = 0; u < kKeep; ++u)
                        for (int v = 0; v < kKeep; ++v)
                            acc += (double)basis[u * B + y] * basis[v * B + x] * (float)Y[u][v];
                    R[y][x] = acc;
                }
            for (int u = 0; u < B; ++u)
                for (int v = 0; v < B; ++v) {
                    int idx = (by + u) * kSize + bx + v;
                    maxCoefErr = fmax(maxCoefErr, fabs(coef[idx] - Y[u][v]));
                    maxReconErr = fmax(maxReconErr, fabs(recon[idx] - R[u][v]));
                    if (u == 0 && v == 0) dcSum += coef[idx]; else acEnergy += (double)coef[idx] * coef[idx];
                    reconErr += (recon[idx] - img[idx]) * (double)(recon[idx] - img[idx]);
                }
        }
    printf("image %dx%d blocks %d keep %dx%d\n", kSize, kSize, (kSize / B) * (kSize / B), kKeep, kKeep);
    printf("dc sum %.6e ac energy %.6e\n", dcSum, acEnergy);
    printf("reconstruction rms error %.4e\n", sqrt(reconErr / n));
    printf("coef[0] %.6e coef[1] %.6e recon[1000] %.6e\n", coef[0], coef[1], recon[1000]);
    bool ok = maxCoefErr < 5e-3 && maxReconErr < 5e-3;
    printf("matches reference within 5e-3: %s\n", ok ? "yes" : "no");
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dImg)); CUDA_CHECK(cudaFree(dCoef)); CUDA_CHECK(cudaFree(dRecon));
    return ok ? 0 : 1;
}
