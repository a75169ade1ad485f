#include "common.h"
// hipModuleLoad + hipModuleLaunchKernel (kernelParams and the `extra` buffer), managed memory
// (hipMallocManaged and a __managed__ variable), hipMemcpy2D and device properties.
__managed__ int total;
__global__ void accumulate(const int* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&total, v[i]);
}
int main(int argc, char** argv) {
  if (argc < 2) { fprintf(stderr, "usage: module_managed CODE_OBJECT\n"); return 2; }
  const int n = 1000;
  hipDeviceProp_t prop;
  CHECK(hipGetDeviceProperties(&prop, 0));
  int bad = prop.warpSize != 32 || prop.sharedMemPerBlock != 65536;
  printf("device %s warp %d\n", prop.gcnArchName, prop.warpSize);
  float *x, *y;
  CHECK(hipMallocManaged(&x, n * 4)); CHECK(hipMallocManaged(&y, n * 4));
  for (int i = 0; i < n; i++) { x[i] = i; y[i] = 1.0f; }
  hipModule_t module; hipFunction_t fn;
  CHECK(hipModuleLoad(&module, argv[1]));
  CHECK(hipModuleGetFunction(&fn, module, "saxpy"));
  float a = 2.0f; int count = n;
  void* params[] = {&a, &x, &y, &count};
  CHECK(hipModuleLaunchKernel(fn, (n + 127) / 128, 1, 1, 128, 1, 1, 0, 0, params, nullptr));
  struct { float a; int pad; const float* x; float* y; int n; } packed = {3.0f, 0, x, y, n};
  size_t size = sizeof(packed);
  void* extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &packed, HIP_LAUNCH_PARAM_BUFFER_SIZE, &size,
                   HIP_LAUNCH_PARAM_END};
  CHECK(hipModuleLaunchKernel(fn, (n + 127) / 128, 1, 1, 128, 1, 1, 0, 0, nullptr, extra));
  CHECK(hipDeviceSynchronize());
  for (int i = 0; i < n; i++) bad += y[i] != 1.0f + 5.0f * i;
  int* v; CHECK(hipMallocManaged(&v, n * 4));
  for (int i = 0; i < n; i++) v[i] = i % 10;
  total = 5;
  accumulate<<<(n + 255) / 256, 256>>>(v, n);
  CHECK(hipDeviceSynchronize());
  bad += total != 5 + 4500;
  float src[4][5], dst[4][5] = {{0}};
  for (int r = 0; r < 4; r++) for (int c = 0; c < 5; c++) src[r][c] = r * 10 + c;
  float* pitched; size_t pitch;
  CHECK(hipMallocPitch((void**)&pitched, &pitch, 5 * 4, 4));
  CHECK(hipMemcpy2D(pitched, pitch, src, 5 * 4, 5 * 4, 4, hipMemcpyHostToDevice));
  CHECK(hipMemcpy2D(dst, 5 * 4, pitched, pitch, 5 * 4, 4, hipMemcpyDeviceToHost));
  for (int r = 0; r < 4; r++) for (int c = 0; c < 5; c++) bad += dst[r][c] != src[r][c];
  CHECK(hipModuleUnload(module));
  printf("total=%d\n", total);
  return report("module_managed", bad);
}
