// clang-16 defects for gfx1100 that the emulator build avoids (runner/emulator/build.py,
// CODEGEN_FIXES, O0_REGALLOC_FIX, native/device_lib_overrides.h): at -O0 blockDim.y read back as 0,
// at -O3 a Newton loop around an inner loop skipped the inner loop from its second trip on, and
// at -O0 __syncthreads_or/and/count did not compile (ockl's gfx9 DPP branch).
#include "common.h"

__global__ void block_dims(int* out) {
  const int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  out[t] = blockDim.x + 100 * blockDim.y + 10000 * blockDim.z;
}

__host__ __device__ inline void legendre(int n, double x, double& p, double& dp) {
  double p0 = 1.0, p1 = x;
  for (int k = 2; k <= n; ++k) {
    const double p2 = ((2.0 * k - 1.0) * x * p1 - (k - 1.0) * p0) / k;
    p0 = p1;
    p1 = p2;
  }
  p = p1;
  dp = n * (x * p1 - p0) / (x * x - 1.0);
}

__global__ void legendre_roots(double* roots, double* weights, int n) {
  const int i = threadIdx.x;
  if (i >= n) return;
  double x = cos(3.14159265358979323846 * (i + 0.75) / (n + 0.5)), p, dp;
  for (int it = 0; it < 100; ++it) {
    legendre(n, x, p, dp);
    const double dx = p / dp;
    x -= dx;
    if (fabs(dx) < 1e-15) break;
  }
  legendre(n, x, p, dp);
  roots[i] = x;
  weights[i] = 2.0 / ((1.0 - x * x) * dp * dp);
}

__global__ void block_votes(int* out) {
  const int t = threadIdx.x;
  for (int round = 0; round < 3; ++round) {  // reuses the reduction's LDS word
    const int count = __syncthreads_count(t % 3 == round);
    const int all = __syncthreads_and(t < 1000 - round), any = __syncthreads_or(t == 77 + round);
    if (t == 0) out[round] = count * 100 + all * 10 + any;
  }
}

int main() {
  int bad = 0;
  int *d_votes, votes[3];
  CHECK(hipMalloc(&d_votes, sizeof votes));
  hipLaunchKernelGGL(block_votes, dim3(1), dim3(96), 0, 0, d_votes);
  CHECK(hipMemcpy(votes, d_votes, sizeof votes, hipMemcpyDeviceToHost));
  for (int v : votes) bad += v != 32 * 100 + 10 + 1;
  int *d_dims, dims[4 * 3 * 2];
  CHECK(hipMalloc(&d_dims, sizeof dims));
  hipLaunchKernelGGL(block_dims, dim3(1), dim3(4, 3, 2), 0, 0, d_dims);
  CHECK(hipMemcpy(dims, d_dims, sizeof dims, hipMemcpyDeviceToHost));
  for (int v : dims) bad += v != 4 + 300 + 20000;

  const int n = 5;
  double *d_roots, *d_weights, roots[n], weights[n], sum = 0.0;
  CHECK(hipMalloc(&d_roots, sizeof roots));
  CHECK(hipMalloc(&d_weights, sizeof weights));
  hipLaunchKernelGGL(legendre_roots, dim3(1), dim3(64), 0, 0, d_roots, d_weights, n);
  CHECK(hipMemcpy(roots, d_roots, sizeof roots, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(weights, d_weights, sizeof weights, hipMemcpyDeviceToHost));
  for (double w : weights) sum += w;
  bad += fabs(sum - 2.0) > 1e-12;  // Gauss-Legendre weights sum to the length of [-1, 1]
  for (int i = 0; i < n; ++i) {  // roots of P_5: 0, +-sqrt(5 -+ 2 sqrt(10/7)) / 3
    double p, dp;
    legendre(n, roots[i], p, dp);
    bad += fabs(p) > 1e-12 || fabs(roots[i] - roots[n - 1 - i] * -1.0) > 1e-12;
  }
  bad += fabs(roots[0] - sqrt(5.0 + 2.0 * sqrt(10.0 / 7.0)) / 3.0) > 1e-12;
  return report("codegen_defects", bad);
}
