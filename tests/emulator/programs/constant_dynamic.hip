#include "common.h"
__constant__ float coeffs[4];
__device__ int counter;
__global__ void poly(const float* x, float* y, int n) {
  extern __shared__ float tile[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  float v = tile[blockDim.x - 1 - threadIdx.x];
  if (i < n) {
    y[i] = coeffs[0] + v * (coeffs[1] + v * (coeffs[2] + v * coeffs[3]));
    atomicAdd(&counter, 1);
  }
}
int main() {
  const int n = 1000, block = 128;
  float hc[4] = {1.0f, -2.0f, 0.5f, 0.25f}, hx[n], hy[n];
  for (int i = 0; i < n; i++) hx[i] = (i % 17) * 0.125f;
  CHECK(hipMemcpyToSymbol(HIP_SYMBOL(coeffs), hc, sizeof(hc)));
  int zero = 0;
  CHECK(hipMemcpyToSymbol(HIP_SYMBOL(counter), &zero, sizeof(int)));
  float *x, *y;
  CHECK(hipMalloc(&x, sizeof(hx))); CHECK(hipMalloc(&y, sizeof(hy)));
  CHECK(hipMemcpy(x, hx, sizeof(hx), hipMemcpyHostToDevice));
  int blocks = (n + block - 1) / block;
  poly<<<blocks, block, block * sizeof(float)>>>(x, y, n);
  CHECK(hipMemcpy(hy, y, sizeof(hy), hipMemcpyDeviceToHost));
  int count = 0;
  CHECK(hipMemcpyFromSymbol(&count, HIP_SYMBOL(counter), sizeof(int)));
  int bad = count != n;
  for (int i = 0; i < n; i++) {
    int b = i / block, t = i % block, src = b * block + (block - 1 - t);
    float v = src < n ? hx[src] : 0.0f;
    float e = hc[0] + v * (hc[1] + v * (hc[2] + v * hc[3]));
    if (fabsf(hy[i] - e) > 1e-6f) bad++;
  }
  printf("count=%d\n", count);
  return report("constant_dynamic", bad);
}
