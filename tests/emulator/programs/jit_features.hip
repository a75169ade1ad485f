// Kernels for what the emulator's translated code (JIT) handles beyond plain ALU and memory:
// barriers, private (scratch) arrays, cross-lane shuffles, 16-bit and packed half arithmetic.
// Run under CASS_EMULATOR_ENGINE=both, every launch must be identical on both engines.
#include <hip/hip_fp16.h>
#include "common.h"
#define BLOCK 256

__global__ void tree_sum(const int* in, int* out) {  // 8 waves per block, a barrier per level
  __shared__ int s[BLOCK];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * BLOCK + t];
  __syncthreads();
  for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

__global__ void private_histogram(const int* in, int* out, int n) {  // a scratch array
  int bins[48];
  for (int b = 0; b < 48; b++) bins[b] = 0;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 16; k++) bins[(in[(i * 16 + k) % n] & 0x7FFFFFFF) % 48] += k + 1;
  int acc = 0;
  for (int b = 0; b < 48; b++) acc = acc * 31 + bins[b];
  out[i] = acc;
}

__global__ void shuffles(const int* in, int* out) {  // DPP, swizzles and permutes
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  int r = v;
  for (int m = 1; m < 32; m <<= 1) r += __shfl_xor(r, m);
  int d = __shfl_down(v, 3) * 3 + __shfl_up(v, 5);
  int any = __shfl(v, (threadIdx.x * 7 + 3) & 31);
  out[i] = r ^ (d * 17) ^ (any << 3);
}

__global__ void halves(const float* in, float* out, unsigned short* u16) {  // f16 and packed
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __half a = __float2half(in[i]), b = __float2half(in[i] * 0.37f - 1.5f);
  __half c = __hfma(a, b, __hmul(a, a));
  __half2 p = __halves2half2(a, b), q = __halves2half2(c, a);
  __half2 r = __hfma2(p, q, __hadd2(p, q));
  r = __hmul2(r, __hsub2(q, p));
  out[2 * i] = __half2float(c) + __low2float(r);
  out[2 * i + 1] = __high2float(r) + __half2float(__hdiv(a, __hadd(b, __float2half(4.0f))));
  unsigned short x = (unsigned short)(i * 2654435761u >> 7);
  x = (unsigned short)((x >> 3) | (x << 13)) ^ (unsigned short)(x * 40503u);
  u16[i] = (unsigned short)(x + (x >> 5)) > 30000 ? x : (unsigned short)~x;
}

int main() {
  const int blocks = 64, n = blocks * BLOCK;
  int *h = (int*)malloc(n * 4), *got = (int*)malloc(n * 4);
  float* f = (float*)malloc(n * 4);
  for (int i = 0; i < n; i++) {
    h[i] = (int)((i * 2654435761u) >> 5) - 50000000;
    f[i] = (float)((i * 37) % 2001 - 1000) / 97.0f;
  }
  int *in, *out;
  float *fin, *fout;
  unsigned short* u16;
  CHECK(hipMalloc(&in, n * 4)); CHECK(hipMalloc(&out, n * 4));
  CHECK(hipMalloc(&fin, n * 4)); CHECK(hipMalloc(&fout, 2 * n * 4)); CHECK(hipMalloc(&u16, n * 2));
  CHECK(hipMemcpy(in, h, n * 4, hipMemcpyHostToDevice));
  CHECK(hipMemcpy(fin, f, n * 4, hipMemcpyHostToDevice));
  int bad = 0;
  hipLaunchKernelGGL(tree_sum, dim3(blocks), dim3(BLOCK), 0, 0, in, out);
  CHECK(hipMemcpy(got, out, blocks * 4, hipMemcpyDeviceToHost));
  for (int b = 0; b < blocks; b++) {
    int want = 0;
    for (int t = 0; t < BLOCK; t++) want += h[b * BLOCK + t];
    bad += got[b] != want;
  }
  hipLaunchKernelGGL(private_histogram, dim3(blocks), dim3(BLOCK), 0, 0, in, out, n);
  CHECK(hipMemcpy(got, out, n * 4, hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i += 97) {
    int bins[48] = {0}, acc = 0;
    for (int k = 0; k < 16; k++) bins[(h[(i * 16 + k) % n] & 0x7FFFFFFF) % 48] += k + 1;
    for (int b = 0; b < 48; b++) acc = acc * 31 + bins[b];
    bad += got[i] != acc;
  }
  hipLaunchKernelGGL(shuffles, dim3(blocks), dim3(BLOCK), 0, 0, in, out);
  CHECK(hipMemcpy(got, out, n * 4, hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    int base = i & ~31, l = i & 31, r = 0;
    for (int k = 0; k < 32; k++) r += h[base + k];
    int d = h[base + (l + 3 < 32 ? l + 3 : l)] * 3 + h[base + (l >= 5 ? l - 5 : l)];
    int any = h[base + ((l * 7 + 3) & 31)];
    bad += got[i] != (r ^ (d * 17) ^ (any << 3));
  }
  hipLaunchKernelGGL(halves, dim3(blocks), dim3(BLOCK), 0, 0, fin, fout, u16);
  CHECK(hipDeviceSynchronize());
  printf("jit_features: %d mismatches\n", bad);
  return report("jit_features", bad);
}
