// Host program for sync_kernels.cu: the kernels' device code comes from the lifted SASS, so they
// are declared here with empty bodies (hipcc --cuda-host-only only registers them by name).
#include <hip/hip_runtime.h>
#include <cstdio>

extern "C" __global__ void named(const int*, int*) {}
extern "C" __global__ void reductions(const int*, int*) {}
extern "C" __global__ void pipelined(const int*, int*, int) {}
extern "C" __global__ void barriered(const int*, int*) {}
extern "C" __global__ void phases(int*) {}

static void show(const char* name, const int* d, int n) {
  int* h = new int[n];
  hipMemcpy(h, d, n * sizeof(int), hipMemcpyDeviceToHost);
  printf("%s", name);
  for (int i = 0; i < n; ++i) printf(" %d", h[i]);
  printf("\n");
  fflush(stdout);
  delete[] h;
}

int main() {
  const int n = 1024;
  int in[n];
  for (int i = 0; i < n; ++i) in[i] = (i * 37 + 11) % 101 - (i % 9 == 0 ? 5 : 0);
  int *din, *dout;
  hipMalloc(&din, sizeof(in));
  hipMalloc(&dout, 2048 * sizeof(int));
  hipMemcpy(din, in, sizeof(in), hipMemcpyHostToDevice);
  named<<<2, 128>>>(din, dout);
  show("named", dout, 256);
  reductions<<<4, 128>>>(din, dout);
  show("reductions", dout, 12);
  pipelined<<<1, 128>>>(din, dout, 6);
  show("pipelined", dout, 128);
  barriered<<<2, 128>>>(din, dout);
  show("barriered", dout, 256);
  phases<<<2, 128>>>(dout);
  show("phases", dout, 1024);
  return 0;
}
