#include "common.h"
// Multi-kernel iterative solver: Jacobi iterations for a 1-D Poisson problem plus a residual
// reduction kernel each sweep, until convergence.
__global__ void sweep(const float* u, float* v, const float* f, int n, float h2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1) v[i] = 0.5f * (u[i - 1] + u[i + 1] + h2 * f[i]);
  else if (i < n) v[i] = 0.0f;
}
__global__ void residual(const float* u, const float* v, float* r, int n) {
  __shared__ float s[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float d = i < n ? fabsf(u[i] - v[i]) : 0.0f;
  s[threadIdx.x] = d;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k) s[threadIdx.x] = fmaxf(s[threadIdx.x], s[threadIdx.x + k]);
    __syncthreads();
  }
  if (threadIdx.x == 0) r[blockIdx.x] = s[0];
}
int main() {
  const int n = 16, blocks = (n + 127) / 128;
  const float h2 = 1.0f / ((n - 1) * (n - 1));
  float hf[n], hu[n];
  for (int i = 0; i < n; i++) hf[i] = 1.0f;
  float *u, *v, *f, *r;
  CHECK(hipMalloc(&u, n * 4)); CHECK(hipMalloc(&v, n * 4));
  CHECK(hipMalloc(&f, n * 4)); CHECK(hipMalloc(&r, blocks * 4));
  CHECK(hipMemset(u, 0, n * 4));
  CHECK(hipMemcpy(f, hf, n * 4, hipMemcpyHostToDevice));
  int it = 0; float res = 1;
  for (; it < 20000 && res > 1e-6f; it++) {
    sweep<<<blocks, 128>>>(u, v, f, n, h2);
    residual<<<blocks, 128>>>(u, v, r, n);
    float* t = u; u = v; v = t;
    if (it % 50 == 0) CHECK(hipMemcpy(&res, r, 4, hipMemcpyDeviceToHost));
  }
  CHECK(hipMemcpy(hu, u, n * 4, hipMemcpyDeviceToHost));
  // exact solution of -u'' = 1, u(0)=u(1)=0: x(1-x)/2
  int bad = 0;
  for (int i = 0; i < n; i++) {
    float x = (float)i / (n - 1), e = 0.5f * x * (1 - x);
    if (fabsf(hu[i] - e) > 2e-3f) bad++;
  }
  printf("iterations=%d residual<=1e-6: %d\n", it, res <= 1e-6f);
  return report("jacobi", bad);
}
