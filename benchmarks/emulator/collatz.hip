// Divergent integer loop for the emulator benchmark: Collatz sequence lengths.
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstdlib>
__global__ void collatz(int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned long long v = i + 1;
  int steps = 0;
  while (v != 1) { v = (v & 1) ? 3 * v + 1 : v >> 1; steps++; }
  out[i] = steps;
}
int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : 65536;
  int* out; hipMalloc(&out, n * 4);
  collatz<<<(n + 255) / 256, 256>>>(out, n);
  int* h = (int*)malloc(n * 4);
  hipMemcpy(h, out, n * 4, hipMemcpyDeviceToHost);
  long total = 0;
  for (int i = 0; i < n; i++) total += h[i];
  printf("collatz n=%d steps=%ld\n", n, total);
  return 0;
}
