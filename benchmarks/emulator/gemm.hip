// Tiled single-precision GEMM (16x16 shared-memory tiles) for the emulator benchmark.
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstdlib>
#define TILE 16
__global__ void gemm(const float* a, const float* b, float* c, int n) {
  __shared__ float ta[TILE][TILE], tb[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < n; t += TILE) {
    ta[threadIdx.y][threadIdx.x] = a[row * n + t + threadIdx.x];
    tb[threadIdx.y][threadIdx.x] = b[(t + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; k++) acc += ta[threadIdx.y][k] * tb[k][threadIdx.x];
    __syncthreads();
  }
  c[row * n + col] = acc;
}
int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : 256;
  size_t bytes = (size_t)n * n * 4;
  float *ha = (float*)malloc(bytes), *hb = (float*)malloc(bytes), *hc = (float*)malloc(bytes);
  for (int i = 0; i < n * n; i++) { ha[i] = (i % 7) * 0.25f; hb[i] = (i % 5) * 0.5f; }
  float *a, *b, *c;
  hipMalloc(&a, bytes); hipMalloc(&b, bytes); hipMalloc(&c, bytes);
  hipMemcpy(a, ha, bytes, hipMemcpyHostToDevice);
  hipMemcpy(b, hb, bytes, hipMemcpyHostToDevice);
  gemm<<<dim3(n / TILE, n / TILE), dim3(TILE, TILE)>>>(a, b, c, n);
  hipMemcpy(hc, c, bytes, hipMemcpyDeviceToHost);
  int bad = 0;
  for (int r = 0; r < n; r += 37) for (int col = 0; col < n; col += 41) {
    float e = 0; for (int k = 0; k < n; k++) e += ha[r * n + k] * hb[k * n + col];
    if (e != hc[r * n + col]) bad++;
  }
  printf("gemm n=%d bad=%d\n", n, bad);
  return bad != 0;
}
