// Two waves of one workgroup race through global memory (heartwall's shape: a pass that writes a
// buffer, then one that reads it, with no barrier between): each thread stores its value, then
// thread 0 sums all 64 without waiting. Waves in lock-step (a GPU's warps, the interpreter) have
// all stored first: 2080; a wave run up to its next barrier alone (translated code) sums before
// the second wave stored: 528.
#include <hip/hip_runtime.h>
#include <cstdio>

__global__ void sum_unsynced(int* buf, int* out) {
  int t = threadIdx.x;
  buf[t] = t + 1;
  if (t == 0) {
    int sum = 0;
    for (int i = 0; i < 64; ++i) sum += buf[i];
    *out = sum;
  }
}

int main() {
  int *buf, *out, sum = 0;
  hipMalloc(&buf, 64 * sizeof(int));
  hipMalloc(&out, sizeof(int));
  hipMemset(buf, 0, 64 * sizeof(int));
  sum_unsynced<<<1, 64>>>(buf, out);
  hipMemcpy(&sum, out, sizeof(int), hipMemcpyDeviceToHost);
  printf("sum %d\n", sum);
  return 0;
}
