// Memory-bound kernel for the emulator benchmark: a 5-point stencil over a 2-D grid.
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstdlib>
__global__ void stencil(const float* in, float* out, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < 1 || y < 1 || x >= n - 1 || y >= n - 1) return;
  int i = y * n + x;
  out[i] = 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - n] + in[i + n]);
}
int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1024;
  float* h = (float*)malloc((size_t)n * n * 4);
  for (int i = 0; i < n * n; i++) h[i] = (i % 101) * 0.01f;
  float *in, *out;
  hipMalloc(&in, (size_t)n * n * 4); hipMalloc(&out, (size_t)n * n * 4);
  hipMemcpy(in, h, (size_t)n * n * 4, hipMemcpyHostToDevice);
  hipMemset(out, 0, (size_t)n * n * 4);
  stencil<<<dim3((n + 255) / 256, n), 256>>>(in, out, n);
  hipMemcpy(h, out, (size_t)n * n * 4, hipMemcpyDeviceToHost);
  double sum = 0;
  for (int i = 0; i < n * n; i++) sum += h[i];
  printf("stencil n=%d checksum=%.4f\n", n, sum);
  return 0;
}
