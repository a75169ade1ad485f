// Device malloc/free: per-thread blocks, memory that outlives its kernel, a NULL for a request
// larger than the heap, and reuse after free; checked against values computed on the host.
#include "common.h"

__global__ void build(int** lists, int n) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  int* p = (int*)malloc((t % 7 + 1) * sizeof(int));
  if (p)
    for (int i = 0; i <= t % 7; ++i) p[i] = t * 10 + i;
  lists[t] = p;
}

__global__ void consume(int** lists, long long* sums, unsigned long long* huge) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  long long s = -1;
  if (int* p = lists[t]) {
    s = 0;
    for (int i = 0; i <= t % 7; ++i) s += p[i];
    free(p);
  }
  sums[t] = s;
  if (t == 0) huge[0] = (unsigned long long)malloc(1ull << 40);  // larger than any heap
}

int main() {
  const int n = 128;
  int** lists;
  long long *sums, host[n];
  unsigned long long* huge;
  CHECK(hipMalloc(&lists, n * sizeof(int*)));
  CHECK(hipMalloc(&sums, sizeof host));
  CHECK(hipMalloc(&huge, sizeof(unsigned long long)));
  int bad = 0;
  for (int round = 0; round < 2; ++round) {  // the second round reuses freed memory
    hipLaunchKernelGGL(build, dim3(n / 64), dim3(64), 0, 0, lists, n);
    hipLaunchKernelGGL(consume, dim3(n / 64), dim3(64), 0, 0, lists, sums, huge);
    CHECK(hipMemcpy(host, sums, sizeof host, hipMemcpyDeviceToHost));
    for (int t = 0; t < n; ++t) {
      long long want = 0;
      for (int i = 0; i <= t % 7; ++i) want += t * 10 + i;
      bad += host[t] != want;
    }
    unsigned long long h = 1;
    CHECK(hipMemcpy(&h, huge, sizeof h, hipMemcpyDeviceToHost));
    bad += h != 0;
  }
  return report("device_malloc", bad);
}
