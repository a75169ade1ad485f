// Shared-memory tree reduction over many elements for the emulator benchmark.
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstdlib>
__global__ void reduce(const float* in, float* out, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * 256 + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int k = 128; k > 0; k >>= 1) {
    if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : (1 << 20);
  int blocks = (n + 255) / 256;
  float* h = (float*)malloc(n * 4);
  for (int i = 0; i < n; i++) h[i] = (i % 3) - 1.0f;
  float *in, *out;
  hipMalloc(&in, n * 4); hipMalloc(&out, blocks * 4);
  hipMemcpy(in, h, n * 4, hipMemcpyHostToDevice);
  reduce<<<blocks, 256>>>(in, out, n);
  float* p = (float*)malloc(blocks * 4);
  hipMemcpy(p, out, blocks * 4, hipMemcpyDeviceToHost);
  double got = 0, e = 0;
  for (int b = 0; b < blocks; b++) got += p[b];
  for (int i = 0; i < n; i++) e += h[i];
  printf("reduce n=%d sum=%.0f expect=%.0f\n", n, got, e);
  return got != e;
}
