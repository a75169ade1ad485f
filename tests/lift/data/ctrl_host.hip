// ctrl_kernels.cu in HIP plus a host program; built host-only around the lifted SASS.
#include <hip/hip_runtime.h>
#include <cstdio>
typedef int (*Fn)(int);
__device__ __noinline__ int triple_plus_one(int x) { return x * 3 + 1; }
__device__ __noinline__ int flip_bits(int x) { return x ^ 0x55; }
__device__ __noinline__ int minus_77(int x) { return x - 77; }
__device__ Fn table[3] = {triple_plus_one, flip_bits, minus_77};
__device__ __noinline__ int tree(int n, int salt) {
  if (n < 2) return n + salt;
  return tree(n - 1, salt) + 2 * tree(n - 2, salt + 1) % 1000;
}
extern "C" __global__ void fnptr(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = table[in[i] % 3](in[i]);
}
extern "C" __global__ void recurse(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tree(in[i] % 11, i & 7);
}

int main() {
  const int n = 100;
  int in[n], out[n];
  for (int i = 0; i < n; ++i) in[i] = (i * 37) % 101;
  int *din, *dout;
  hipMalloc(&din, sizeof(in));
  hipMalloc(&dout, sizeof(out));
  hipMemcpy(din, in, sizeof(in), hipMemcpyHostToDevice);
  fnptr<<<2, 64>>>(din, dout, n);
  hipMemcpy(out, dout, sizeof(out), hipMemcpyDeviceToHost);
  long long h = 0;
  for (int i = 0; i < n; ++i) h = h * 31 + out[i];
  printf("fnptr %lld\n", h);
  recurse<<<2, 64>>>(din, dout, n);
  hipMemcpy(out, dout, sizeof(out), hipMemcpyDeviceToHost);
  h = 0;
  for (int i = 0; i < n; ++i) h = h * 31 + out[i];
  printf("recurse %lld\n", h);
  return 0;
}
