#include "common.h"
__global__ void scale(float* x, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= s;
}
int main() {
  const int n = 4096;
  float* h; CHECK(hipHostMalloc((void**)&h, n * 4, 0));
  for (int i = 0; i < n; i++) h[i] = i;
  float* d; CHECK(hipMalloc(&d, n * 4));
  hipStream_t s1, s2; CHECK(hipStreamCreate(&s1)); CHECK(hipStreamCreate(&s2));
  hipEvent_t start, stop; CHECK(hipEventCreate(&start)); CHECK(hipEventCreate(&stop));
  CHECK(hipEventRecord(start, s1));
  CHECK(hipMemcpyAsync(d, h, n * 4, hipMemcpyHostToDevice, s1));
  scale<<<n / 256, 256, 0, s1>>>(d, 2.0f, n);
  CHECK(hipStreamSynchronize(s1));
  scale<<<n / 256, 256, 0, s2>>>(d, 3.0f, n);
  CHECK(hipMemcpyAsync(h, d, n * 4, hipMemcpyDeviceToHost, s2));
  CHECK(hipEventRecord(stop, s2));
  CHECK(hipEventSynchronize(stop));
  float ms = -1; CHECK(hipEventElapsedTime(&ms, start, stop));
  int bad = 0;
  for (int i = 0; i < n; i++) bad += h[i] != 6.0f * i;
  bad += !(ms > 0);
  printf("elapsed>0: %d\n", ms > 0);
  CHECK(hipStreamDestroy(s1)); CHECK(hipStreamDestroy(s2));
  CHECK(hipEventDestroy(start)); CHECK(hipEventDestroy(stop));
  CHECK(hipHostFree(h));
  return report("streams_events", bad);
}
