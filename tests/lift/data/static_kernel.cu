// A kernel with internal linkage: nvcc's cubin names it _Z6doubleP..., clang's host side
// registers it as _ZL6doubleP... (Rodinia huffman's vlc_encode_kernel_sm64huff is declared so).
#include <cstdio>

__global__ static void twice(int* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = 2 * v[i] + 1;
}

int main() {
  int h[64], *d;
  for (int i = 0; i < 64; ++i) h[i] = i;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  twice<<<2, 32>>>(d, 64);
  cudaError_t status = cudaDeviceSynchronize();
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaFuncAttributes attr;
  cudaError_t found = cudaFuncGetAttributes(&attr, twice);
  printf("%s %d %d %s %d\n", cudaGetErrorString(status), h[0], h[63],
         cudaGetErrorString(found), attr.maxThreadsPerBlock);
  return 0;
}
