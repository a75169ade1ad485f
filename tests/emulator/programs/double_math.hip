#include "common.h"
__global__ void dmath(const double* x, double* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    double v = x[i];
    out[4 * i + 0] = v / (v + 3.0);
    out[4 * i + 1] = sqrt(v) + fma(v, 2.5, -1.0);
    out[4 * i + 2] = exp(-v) + log(v + 1.0);
    out[4 * i + 3] = sin(v) * cos(v) + floor(v * 1.7);
  }
}
int main() {
  const int n = 300;
  double h[n], got[4 * n];
  for (int i = 0; i < n; i++) h[i] = i * 0.37 + 0.01;
  double *x, *out;
  CHECK(hipMalloc(&x, sizeof(h))); CHECK(hipMalloc(&out, sizeof(got)));
  CHECK(hipMemcpy(x, h, sizeof(h), hipMemcpyHostToDevice));
  dmath<<<(n + 127) / 128, 128>>>(x, out, n);
  CHECK(hipMemcpy(got, out, sizeof(got), hipMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; i++) {
    double v = h[i];
    double e[4] = {v / (v + 3.0), sqrt(v) + fma(v, 2.5, -1.0), exp(-v) + log(v + 1.0),
                   sin(v) * cos(v) + floor(v * 1.7)};
    for (int k = 0; k < 4; k++)
      if (fabs(got[4 * i + k] - e[k]) > 1e-12 * fmax(1.0, fabs(e[k]))) {
        if (bad < 5) printf("i=%d k=%d got %.17g expect %.17g\n", i, k, got[4 * i + k], e[k]);
        bad++;
      }
  }
  return report("double_math", bad);
}
