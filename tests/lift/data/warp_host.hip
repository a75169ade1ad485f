// Host program for warp_kernels.cu: built host-only around the lifted SASS, so the kernel body here
// is only a declaration (the device code is the translation).
#include <hip/hip_runtime.h>
#include <cstdio>
extern "C" __global__ void warp_mix(const int* in, int* out) {}

int main() {
  const int n = 256;
  int in[n], out[n + 1] = {0};
  for (int i = 0; i < n; ++i) in[i] = (i * 37) % 101;
  int *din, *dout;
  hipMalloc(&din, sizeof(in));
  hipMalloc(&dout, sizeof(out));
  hipMemcpy(din, in, sizeof(in), hipMemcpyHostToDevice);
  hipMemcpy(dout, out, sizeof(out), hipMemcpyHostToDevice);
  warp_mix<<<2, 128>>>(din, dout);
  hipMemcpy(out, dout, sizeof(out), hipMemcpyDeviceToHost);
  for (int i = 0; i < n; i += 8)
    printf("%d %d %d %d %d %d %d %d\n", out[i], out[i + 1], out[i + 2], out[i + 3], out[i + 4], out[i + 5], out[i + 6], out[i + 7]);
  printf("atomic %d\n", out[n]);
  return 0;
}
