// Uniform compute-bound kernel for the emulator benchmark: four independent FMA chains per thread.
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstdlib>
__global__ void chain(float* out, int steps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = i * 1e-6f, b = 1.0f - a, c = 0.5f + a, d = 0.25f;
  for (int k = 0; k < steps; k++) {
    a = fmaf(a, 0.999f, 0.001f); b = fmaf(b, 0.998f, 0.002f);
    c = fmaf(c, 0.997f, 0.003f); d = fmaf(d, 0.996f, 0.004f);
  }
  out[i] = a + b + c + d;
}
int main(int argc, char** argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 1000, n = 65536;
  float* out; hipMalloc(&out, n * 4);
  chain<<<n / 256, 256>>>(out, steps);
  float* h = (float*)malloc(n * 4);
  hipMemcpy(h, out, n * 4, hipMemcpyDeviceToHost);
  double sum = 0;
  for (int i = 0; i < n; i++) sum += h[i];
  printf("fma_chain steps=%d checksum=%.6f\n", steps, sum);
  return 0;
}
