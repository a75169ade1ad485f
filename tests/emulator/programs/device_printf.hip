#include "common.h"
__global__ void hello(int base) {
  if (threadIdx.x < 3)
    printf("block %d thread %d value %d %.2f %s\n", (int)blockIdx.x, (int)threadIdx.x, base + (int)threadIdx.x,
           0.5f * threadIdx.x, "ok");
}
int main() {
  printf("before\n");
  hello<<<2, 64>>>(100);
  CHECK(hipDeviceSynchronize());
  printf("after\n");
  return 0;
}
