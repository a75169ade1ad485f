// gfx11 WMMA through clang's builtins, checked against a CPU matrix product. Lane layout (RDNA3
// ISA): A row / B column = lane % 16 with all 16 K values; C/D VGPR v of lane l = [2v + l/16][l%16].
#include "common.h"

typedef _Float16 half16 __attribute__((ext_vector_type(16)));
typedef _Float16 half16v __attribute__((ext_vector_type(16)));
typedef short short16 __attribute__((ext_vector_type(16)));
typedef float float8 __attribute__((ext_vector_type(8)));
typedef int int8v __attribute__((ext_vector_type(8)));
typedef int int4v __attribute__((ext_vector_type(4)));
typedef int int2v __attribute__((ext_vector_type(2)));

constexpr int N = 16;

__global__ void wmma_f32_f16(const _Float16* a, const _Float16* b, const float* c, float* d) {
  const int l = threadIdx.x, r = l % 16;
  half16 fa, fb;
  float8 acc;
  for (int k = 0; k < N; ++k) {
    fa[k] = a[r * N + k];  // A[r][k]
    fb[k] = b[k * N + r];  // B[k][r]
  }
  for (int v = 0; v < 8; ++v) acc[v] = c[(2 * v + l / 16) * N + r];
  acc = __builtin_amdgcn_wmma_f32_16x16x16_f16_w32(fa, fb, acc);
  for (int v = 0; v < 8; ++v) d[(2 * v + l / 16) * N + r] = acc[v];
}

__global__ void wmma_f16_f16(const _Float16* a, const _Float16* b, _Float16* d) {
  const int l = threadIdx.x, r = l % 16;
  half16 fa, fb, acc = {};
  for (int k = 0; k < N; ++k) {
    fa[k] = a[r * N + k];
    fb[k] = b[k * N + r];
  }
  acc = __builtin_amdgcn_wmma_f16_16x16x16_f16_w32(fa, fb, acc, false);
  for (int v = 0; v < 8; ++v) d[(2 * v + l / 16) * N + r] = acc[2 * v];
}

__global__ void wmma_i32_iu8(const signed char* a, const signed char* b, int* d) {
  const int l = threadIdx.x, r = l % 16;
  int4v fa, fb;
  int8v acc = {};
  for (int w = 0; w < 4; ++w) {
    unsigned pa = 0, pb = 0;
    for (int j = 0; j < 4; ++j) {
      pa |= (unsigned)(unsigned char)a[r * N + 4 * w + j] << (8 * j);
      pb |= (unsigned)(unsigned char)b[(4 * w + j) * N + r] << (8 * j);
    }
    fa[w] = pa;
    fb[w] = pb;
  }
  acc = __builtin_amdgcn_wmma_i32_16x16x16_iu8_w32(true, fa, true, fb, acc, false);
  for (int v = 0; v < 8; ++v) d[(2 * v + l / 16) * N + r] = acc[v];
}

int main() {
  _Float16 ha[N * N], hb[N * N], hd16[N * N];
  float hc[N * N], hd[N * N];
  signed char ia[N * N], ib[N * N];
  int id[N * N];
  for (int i = 0; i < N * N; ++i) {
    ha[i] = (_Float16)((i * 7 % 11) - 5) * (_Float16)0.5f;
    hb[i] = (_Float16)((i * 5 % 13) - 6);
    hc[i] = (float)(i % 9) - 4.0f;
    ia[i] = (signed char)((i * 37 % 255) - 127);
    ib[i] = (signed char)((i * 91 % 255) - 127);
  }
  _Float16 *da, *db, *dd16;
  float *dc, *dd;
  signed char *dia, *dib;
  int* did;
  CHECK(hipMalloc(&da, sizeof ha));
  CHECK(hipMalloc(&db, sizeof hb));
  CHECK(hipMalloc(&dd16, sizeof hd16));
  CHECK(hipMalloc(&dc, sizeof hc));
  CHECK(hipMalloc(&dd, sizeof hd));
  CHECK(hipMalloc(&dia, sizeof ia));
  CHECK(hipMalloc(&dib, sizeof ib));
  CHECK(hipMalloc(&did, sizeof id));
  CHECK(hipMemcpy(da, ha, sizeof ha, hipMemcpyHostToDevice));
  CHECK(hipMemcpy(db, hb, sizeof hb, hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dc, hc, sizeof hc, hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dia, ia, sizeof ia, hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dib, ib, sizeof ib, hipMemcpyHostToDevice));
  hipLaunchKernelGGL(wmma_f32_f16, dim3(1), dim3(32), 0, 0, da, db, dc, dd);
  hipLaunchKernelGGL(wmma_f16_f16, dim3(1), dim3(32), 0, 0, da, db, dd16);
  hipLaunchKernelGGL(wmma_i32_iu8, dim3(1), dim3(32), 0, 0, dia, dib, did);
  CHECK(hipMemcpy(hd, dd, sizeof hd, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(hd16, dd16, sizeof hd16, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(id, did, sizeof id, hipMemcpyDeviceToHost));
  int bad = 0;
  for (int m = 0; m < N; ++m)
    for (int n = 0; n < N; ++n) {
      double s = 0.0;
      long si = 0;
      for (int k = 0; k < N; ++k) {
        s += (double)ha[m * N + k] * (double)hb[k * N + n];
        si += (long)ia[m * N + k] * ib[k * N + n];
      }
      bad += hd[m * N + n] != (float)(s + hc[m * N + n]);  // small integers/halves: exact
      bad += (double)hd16[m * N + n] != (double)(_Float16)s;
      bad += id[m * N + n] != (int)si;
    }
  return report("wmma", bad);
}
