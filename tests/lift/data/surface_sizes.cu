// Surface elements of 1, 2 and 8 bytes (SULD/SUST .U8, .U16, .64): unsigned char, short and float2
// arrays read and written in place; surface_sizes_host.hip runs them.
#include <cuda_runtime.h>

extern "C" __global__ void bytes(cudaSurfaceObject_t s) {
  int x = threadIdx.x, y = blockIdx.x;
  unsigned char v;
  surf2Dread(&v, s, x, y);
  surf2Dwrite((unsigned char)(v * 2 + 1), s, x, y);
}
extern "C" __global__ void shorts(cudaSurfaceObject_t s) {
  int x = threadIdx.x, y = blockIdx.x;
  short v;
  surf2Dread(&v, s, x * 2, y);
  surf2Dwrite((short)(-v - 3), s, x * 2, y);
}
extern "C" __global__ void pairs(cudaSurfaceObject_t s) {
  int x = threadIdx.x, y = blockIdx.x;
  float2 v;
  surf2Dread(&v, s, x * 8, y);
  surf2Dwrite(make_float2(v.y, v.x * 2.0f), s, x * 8, y);
}
