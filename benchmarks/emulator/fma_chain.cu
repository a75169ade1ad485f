// The FMA chain of fma_chain.hip as CUDA, for `cass verify` of a ~40 G lane-instruction kernel
// (75,000 steps) against its recorded NVIDIA output: fma_chain.cu.recorded.toml.
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
  float* out; cudaMalloc(&out, n * 4);
  chain<<<n / 256, 256>>>(out, steps);
  float* h = (float*)malloc(n * 4);
  cudaMemcpy(h, out, n * 4, cudaMemcpyDeviceToHost);
  double sum = 0;
  for (int i = 0; i < n; i++) sum += h[i];
  printf("fma_chain steps=%d checksum=%.6f\n", steps, sum);
  return 0;
}
