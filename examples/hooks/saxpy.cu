// saxpy: y = a*x + y on the GPU; prints two elements and the sum (deterministic).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void saxpy(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

int main() {
  const int n = 1000;
  static float hx[n], hy[n];
  for (int i = 0; i < n; ++i) {
    hx[i] = i * 0.5f;
    hy[i] = 2.0f;
  }
  float *dx, *dy;
  cudaMalloc(&dx, n * sizeof(float));
  cudaMalloc(&dy, n * sizeof(float));
  cudaMemcpy(dx, hx, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, hy, n * sizeof(float), cudaMemcpyHostToDevice);
  saxpy<<<(n + 255) / 256, 256>>>(n, 3.0f, dx, dy);
  cudaMemcpy(hy, dy, n * sizeof(float), cudaMemcpyDeviceToHost);
  double sum = 0.0;
  for (int i = 0; i < n; ++i) sum += hy[i];
  printf("y[0]=%g y[999]=%g sum=%.1f\n", hy[0], hy[n - 1], sum);
  cudaFree(dx);
  cudaFree(dy);
  return 0;
}
