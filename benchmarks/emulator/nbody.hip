// Compute-bound kernel for the emulator benchmark: one all-pairs N-body acceleration step.
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstdlib>
__global__ void accel(const float4* p, float4* a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 me = p[i];
  float ax = 0, ay = 0, az = 0;
  for (int j = 0; j < n; j++) {
    float4 o = p[j];
    float dx = o.x - me.x, dy = o.y - me.y, dz = o.z - me.z;
    float r2 = dx * dx + dy * dy + dz * dz + 1e-3f;
    float inv = rsqrtf(r2);
    float s = o.w * inv * inv * inv;
    ax += dx * s; ay += dy * s; az += dz * s;
  }
  a[i] = make_float4(ax, ay, az, 0.0f);
}
int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1024;
  float4* h = (float4*)malloc(n * sizeof(float4));
  for (int i = 0; i < n; i++) h[i] = make_float4((i % 37) * 0.1f, (i % 41) * 0.1f, (i % 43) * 0.1f, 1.0f);
  float4 *p, *a;
  hipMalloc(&p, n * sizeof(float4)); hipMalloc(&a, n * sizeof(float4));
  hipMemcpy(p, h, n * sizeof(float4), hipMemcpyHostToDevice);
  accel<<<(n + 127) / 128, 128>>>(p, a, n);
  hipMemcpy(h, a, n * sizeof(float4), hipMemcpyDeviceToHost);
  double sum = 0;
  for (int i = 0; i < n; i++) sum += h[i].x + 2 * h[i].y + 3 * h[i].z;
  printf("nbody n=%d checksum=%.4f\n", n, sum);
  return 0;
}
