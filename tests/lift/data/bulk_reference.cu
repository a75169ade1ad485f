// The CUDA host that recorded bulk_kernels.h200.txt on an H200 (nvcc -O3 -arch=sm_90
// bulk_reference.cu): the same launches and printing as bulk_host.hip.
#include "bulk_kernels.cu"
#include <cstdio>
static void show(const char* name, const int* d, int n) {
  int* h = new int[n];
  cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
  printf("%s", name);
  for (int i = 0; i < n; ++i) printf(" %d", h[i]);
  printf("\n");
  delete[] h;
}
int main() {
  const int n = 1024;
  int in[n];
  for (int i = 0; i < n; ++i) in[i] = (i * 37 + 11) % 101 - (i % 9 == 0 ? 5 : 0);
  int *din, *dout, *dsums;
  cudaMalloc(&din, sizeof(in)); cudaMalloc(&dout, sizeof(in)); cudaMalloc(&dsums, 256 * sizeof(int));
  cudaMemcpy(din, in, sizeof(in), cudaMemcpyHostToDevice);
  bulk_barrier<<<2, 256>>>(din, dout);
  show("bulk_barrier", dout, n);
  cudaMemset(dsums, 0, 256 * sizeof(int));
  bulk_ptx<<<4, 256>>>(din, dout, dsums);
  show("bulk_copy", dout, n);
  show("bulk_sums", dsums, 256);
  printf("status %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
}
