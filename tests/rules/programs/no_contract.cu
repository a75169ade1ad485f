#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>
__global__ void rounded(const float *f, const double *d, float *fo, double *dout) {
  fo[0] = __fmul_rn(f[0], f[1]) + f[2];
  fo[1] = __fadd_rn(f[0] * f[1], f[2]);
  fo[2] = __fsub_rn(f[0] * f[1], f[3]);
  dout[0] = __dmul_rn(d[0], d[1]) + d[2];
  dout[1] = __dadd_rn(d[0] * d[1], d[2]);
  dout[2] = __dsub_rn(d[0] * d[1], d[3]);
}
int main() {
  float hf[4] = {1.0f + 0x1p-12f, 1.0f + 0x1p-12f, -(1.0f + 0x1p-11f), 1.0f + 0x1p-11f};
  double hd[4] = {1.0 + 0x1p-27, 1.0 + 0x1p-27, -(1.0 + 0x1p-26), 1.0 + 0x1p-26};
  float *f, *fo; double *d, *dout;
  cudaMalloc(&f, sizeof hf); cudaMalloc(&d, sizeof hd);
  cudaMalloc(&fo, 3 * sizeof(float)); cudaMalloc(&dout, 3 * sizeof(double));
  cudaMemcpy(f, hf, sizeof hf, cudaMemcpyHostToDevice);
  cudaMemcpy(d, hd, sizeof hd, cudaMemcpyHostToDevice);
  rounded<<<1, 1>>>(f, d, fo, dout);
  float rf[3]; double rd[3];
  cudaMemcpy(rf, fo, sizeof rf, cudaMemcpyDeviceToHost);
  cudaMemcpy(rd, dout, sizeof rd, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 3; ++i) { unsigned u; memcpy(&u, &rf[i], 4); printf("f%d %08x\n", i, u); }
  for (int i = 0; i < 3; ++i) { unsigned long long u; memcpy(&u, &rd[i], 8); printf("d%d %016llx\n", i, u); }
  return 0;
}
