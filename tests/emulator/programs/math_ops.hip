#include "common.h"
#include <hip/hip_fp16.h>
// Integer division/modulo (32/64-bit, signed/unsigned), bit operations, float and half math,
// each checked against the host's result.
__global__ void ints(const int* a, const int* b, long long* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = a[i], y = b[i];
  unsigned ux = (unsigned)x, uy = (unsigned)y;
  long long lx = (long long)x * 1000003LL, ly = y;
  long long* o = out + 10 * i;
  o[0] = x / y; o[1] = x % y; o[2] = ux / uy; o[3] = ux % uy;
  o[4] = lx / ly; o[5] = lx % ly; o[6] = __popc(ux); o[7] = __clz(x);
  o[8] = __ffs(x); o[9] = __brev(ux) ^ __mulhi(x, y) ^ __umulhi(ux, uy);
}
__global__ void floats(const float* a, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = a[i];
  float* o = out + 12 * i;
  o[0] = sinf(x); o[1] = cosf(x); o[2] = expf(x * 0.1f); o[3] = logf(x + 2.0f);
  o[4] = powf(x + 2.0f, 1.5f); o[5] = sqrtf(x + 2.0f); o[6] = tanhf(x * 0.3f);
  o[7] = atan2f(x, 1.5f); o[8] = x / 7.0f; o[9] = rsqrtf(x + 3.0f);
  __half h = __float2half(x);
  o[10] = __half2float(__hmul(h, __float2half(0.5f)));
  o[11] = fmaf(x, x, -1.0f);
}
int main() {
  const int n = 200;
  int ha[n], hb[n];
  float hf[n];
  for (int i = 0; i < n; i++) {
    ha[i] = (i * 7919) % 20001 - 10000;
    hb[i] = (i % 13) - 6; if (hb[i] == 0) hb[i] = 7;
    hf[i] = (i - 100) * 0.173f;
  }
  int *a, *b; long long* oi; float *f, *of;
  CHECK(hipMalloc(&a, sizeof(ha))); CHECK(hipMalloc(&b, sizeof(hb)));
  CHECK(hipMalloc(&oi, n * 10 * 8)); CHECK(hipMalloc(&f, sizeof(hf)));
  CHECK(hipMalloc(&of, n * 12 * 4));
  CHECK(hipMemcpy(a, ha, sizeof(ha), hipMemcpyHostToDevice));
  CHECK(hipMemcpy(b, hb, sizeof(hb), hipMemcpyHostToDevice));
  CHECK(hipMemcpy(f, hf, sizeof(hf), hipMemcpyHostToDevice));
  ints<<<(n + 63) / 64, 64>>>(a, b, oi, n);
  floats<<<(n + 63) / 64, 64>>>(f, of, n);
  long long gi[n * 10]; float gf[n * 12];
  CHECK(hipMemcpy(gi, oi, sizeof(gi), hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(gf, of, sizeof(gf), hipMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; i++) {
    int x = ha[i], y = hb[i];
    unsigned ux = x, uy = y;
    long long lx = (long long)x * 1000003LL, ly = y;
    int clz = x == 0 ? 32 : __builtin_clz((unsigned)x);
    int ffs = __builtin_ffs(x);
    unsigned brev = 0; for (int k = 0; k < 32; k++) if (ux >> k & 1) brev |= 1u << (31 - k);
    int mulhi = (int)(((long long)x * y) >> 32);
    unsigned umulhi = (unsigned)(((unsigned long long)ux * uy) >> 32);
    long long e[10] = {x / y, x % y, ux / uy, ux % uy, lx / ly, lx % ly,
                       __builtin_popcount(ux), clz, ffs, (long long)(brev ^ mulhi ^ umulhi)};
    for (int k = 0; k < 10; k++) {
      long long g = gi[10 * i + k];
      bool ok = k == 9 ? (unsigned)g == (unsigned)e[k] : g == e[k];
      if (!ok) { if (bad < 8) printf("int i=%d k=%d got %lld expect %lld\n", i, k, g, e[k]); bad++; }
    }
    float v = hf[i];
    float ef[12] = {sinf(v), cosf(v), expf(v * 0.1f), logf(v + 2.0f), powf(v + 2.0f, 1.5f),
                    sqrtf(v + 2.0f), tanhf(v * 0.3f), atan2f(v, 1.5f), v / 7.0f,
                    1.0f / sqrtf(v + 3.0f), (float)(__half)(v) * 0.5f, fmaf(v, v, -1.0f)};
    for (int k = 0; k < 12; k++) {
      float g = gf[12 * i + k], x2 = ef[k];
      bool both_nan = std::isnan(g) && std::isnan(x2);
      float tol = k == 10 ? 2e-3f * fabsf(x2) + 1e-3f : 4e-6f * fabsf(x2) + 1e-6f;
      if (!both_nan && !(fabsf(g - x2) <= tol)) {
        if (bad < 8) printf("float i=%d k=%d got %.9g expect %.9g\n", i, k, g, x2);
        bad++;
      }
    }
  }
  return report("math_ops", bad);
}
