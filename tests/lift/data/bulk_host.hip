// Host program for bulk_kernels.cu (the kernels' device code comes from the lifted SASS).
#include <hip/hip_runtime.h>
#include <cstdio>

extern "C" __global__ void bulk_barrier(const int*, int*) {}
extern "C" __global__ void bulk_ptx(const int*, int*, int*) {}

static void show(const char* name, const int* d, int n) {
  int* h = new int[n];
  hipMemcpy(h, d, n * sizeof(int), hipMemcpyDeviceToHost);
  printf("%s", name);
  for (int i = 0; i < n; ++i) printf(" %d", h[i]);
  printf("\n");
  fflush(stdout);
  delete[] h;
}

int main(int argc, char** argv) {
  const int n = 1024;
  int in[n];
  for (int i = 0; i < n; ++i) in[i] = (i * 37 + 11) % 101 - (i % 9 == 0 ? 5 : 0);
  int *din, *dout, *dsums;
  hipMalloc(&din, sizeof(in));
  hipMalloc(&dout, sizeof(in));
  hipMalloc(&dsums, 256 * sizeof(int));
  hipMemcpy(din, in, sizeof(in), hipMemcpyHostToDevice);
  bulk_barrier<<<2, 256>>>(din, dout);
  show("bulk_barrier", dout, n);
  if (argc > 1) {  // sm_90 only
    hipMemset(dsums, 0, 256 * sizeof(int));
    bulk_ptx<<<4, 256>>>(din, dout, dsums);
    show("bulk_copy", dout, n);
    show("bulk_sums", dsums, 256);
  }
  return 0;
}
