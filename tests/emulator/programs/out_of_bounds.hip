#include "common.h"
__global__ void overrun(int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i + n] = i;  // every thread writes past the end of the allocation
}
int main() {
  int* d;
  CHECK(hipMalloc(&d, 64 * sizeof(int)));
  overrun<<<1, 64>>>(d, 64);
  hipError_t err = hipDeviceSynchronize();
  printf("not reached: %s\n", hipGetErrorString(err));
  return 0;
}
