#include "../../tests/emulator/programs/common.h"
__global__ void vadd(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : 10000;
  float *ha = (float*)malloc(n * 4), *hb = (float*)malloc(n * 4), *hc = (float*)malloc(n * 4);
  for (int i = 0; i < n; i++) { ha[i] = i * 0.5f; hb[i] = 1.0f / (i + 1); }
  float *a, *b, *c;
  CHECK(hipMalloc(&a, n * 4)); CHECK(hipMalloc(&b, n * 4)); CHECK(hipMalloc(&c, n * 4));
  CHECK(hipMemcpy(a, ha, n * 4, hipMemcpyHostToDevice));
  CHECK(hipMemcpy(b, hb, n * 4, hipMemcpyHostToDevice));
  vadd<<<(n + 255) / 256, 256>>>(a, b, c, n);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(hc, c, n * 4, hipMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; i++) if (hc[i] != ha[i] + hb[i]) bad++;
  CHECK(hipFree(a)); CHECK(hipFree(b)); CHECK(hipFree(c));
  return report("vector_add", bad);
}
