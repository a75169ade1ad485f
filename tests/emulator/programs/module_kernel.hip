// Device-only code object loaded at run time by module_managed.hip (hipModuleLoad).
#include <hip/hip_runtime.h>
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
