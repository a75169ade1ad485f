// v_cls_i32 / s_cls_i32: the position, from the MSB, of the first bit that differs from the sign
// bit (-1 when every bit is the sign bit). clang uses it to normalise a 64-bit integer converted
// to float: (float)x for |x| >= 2^62 went wrong when the count was one short. Checked on the host.
#include <hip/hip_runtime.h>
#include <cstdio>
__global__ void per_lane(const long long* in, float* f, int* c) {
  long long x = in[threadIdx.x];
  f[threadIdx.x] = (float)x;
  int r, v = (int)(x >> 32);
  asm volatile("v_cls_i32 %0, %1" : "=v"(r) : "v"(v));
  c[threadIdx.x] = r;
}
__global__ void uniform(long long x, int v, float* f, int* c) {
  int r;
  asm volatile("s_cls_i32 %0, %1" : "=s"(r) : "s"(v));
  if (threadIdx.x == 0) { f[0] = (float)x; c[0] = r; }
}
static int cls(int v) {
  unsigned u = (unsigned)(v ^ (v >> 31));
  return u == 0 ? -1 : __builtin_clz(u);
}
int main() {
  const int n = 16;
  long long h[n] = {0, -1, 1, 0x100000000LL, 0x4000000000000123LL, -0x4000000000000123LL,
                    0x7FFFFFFFFFFFFFFFLL, (long long)0x8000000000000000ULL, 0x0000000100000101LL,
                    0x7FFFFF8000000000LL, 0x40000000LL << 32, -(0x40000000LL << 32),
                    0x123456789ABCDEFLL, -0x123456789ABCDEFLL, 0xC0000000LL << 32, 5};
  long long* d; float *f, hf[n]; int *c, hc[n];
  hipMalloc(&d, sizeof(h)); hipMalloc(&f, sizeof(hf)); hipMalloc(&c, sizeof(hc));
  hipMemcpy(d, h, sizeof(h), hipMemcpyHostToDevice);
  per_lane<<<1, n>>>(d, f, c);
  hipMemcpy(hf, f, sizeof(hf), hipMemcpyDeviceToHost);
  hipMemcpy(hc, c, sizeof(hc), hipMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    int v = (int)(h[i] >> 32);
    if (hf[i] != (float)h[i] || hc[i] != cls(v)) {
      printf("lane %d: x=%llx float %a (want %a) cls %d (want %d)\n", i, h[i], hf[i], (float)h[i], hc[i], cls(v));
      ++bad;
    }
    float uf; int uc;
    uniform<<<1, 32>>>(h[i], v, f, c);
    hipMemcpy(&uf, f, sizeof(uf), hipMemcpyDeviceToHost);
    hipMemcpy(&uc, c, sizeof(uc), hipMemcpyDeviceToHost);
    if (uf != (float)h[i] || uc != cls(v)) {
      printf("uniform %d: x=%llx float %a (want %a) cls %d (want %d)\n", i, h[i], uf, (float)h[i], uc, cls(v));
      ++bad;
    }
  }
  printf("%d %d %s\n", hc[4], hc[10], bad ? "CHECK FAIL" : "CHECK PASS");
  return bad;
}
