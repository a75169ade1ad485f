#include <hip/hip_runtime.h>
#include <cstdio>
extern "C" __global__ void gauss_nodes(const int* in, int* out) {}
int main() {
  const int n = 64; const int nt = 64;
  int in[n], out[n * 8] = {0};
  for (int i = 0; i < n; ++i) in[i] = (i * 37) % 101;
  int *din, *dout;
  hipMalloc(&din, sizeof(in)); hipMalloc(&dout, sizeof(out));
  hipMemcpy(din, in, sizeof(in), hipMemcpyHostToDevice);
  hipMemcpy(dout, out, sizeof(out), hipMemcpyHostToDevice);
  gauss_nodes<<<dim3(1, 8), 8>>>(din, dout);
  hipMemcpy(out, dout, sizeof(out), hipMemcpyDeviceToHost);
  for (int i = 0; i < nt; ++i) { double* d = (double*)out; printf("%d %d %.17e %.17e\n", (int)d[i*4], i % 8, d[i*4+1], d[i*4+2]); }
  return 0;
}
