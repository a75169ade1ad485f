#include "common.h"
#define BLOCK 256
__global__ void block_sum(const int* in, int* out, int n) {
  __shared__ int s[BLOCK];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x * 2 + t;
  int v = 0;
  if (i < n) v += in[i];
  if (i + blockDim.x < n) v += in[i + blockDim.x];
  s[t] = v;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
int main() {
  const int n = 100000;
  int* h = (int*)malloc(n * 4);
  long long expect = 0;
  for (int i = 0; i < n; i++) { h[i] = (i * 7919) % 1000 - 500; expect += h[i]; }
  int blocks = (n + 2 * BLOCK - 1) / (2 * BLOCK);
  int *in, *out;
  CHECK(hipMalloc(&in, n * 4)); CHECK(hipMalloc(&out, blocks * 4));
  CHECK(hipMemcpy(in, h, n * 4, hipMemcpyHostToDevice));
  hipLaunchKernelGGL(block_sum, dim3(blocks), dim3(BLOCK), 0, 0, in, out, n);
  int* partial = (int*)malloc(blocks * 4);
  CHECK(hipMemcpy(partial, out, blocks * 4, hipMemcpyDeviceToHost));
  long long got = 0;
  for (int b = 0; b < blocks; b++) got += partial[b];
  printf("sum=%lld expect=%lld\n", got, expect);
  return report("reduction", got != expect);
}
