// Float and double families for the SASS lifter: IEEE arithmetic and its directed roundings
// (FADD/FMUL/FFMA.RZ/RM/RP, DADD/DMUL/DFMA rounding modes), the division / square-root / reciprocal
// subroutines (MUFU.RCP, MUFU.RCP64H/RSQ64H + Newton steps, immediates printed as doubles),
// min/max, FRND, conversions between every float and integer width (I2F/F2I/F2F with roundings
// and saturation), compares. Inputs are edge values: ±0, denormals, ±inf, NaN, FLT_MAX, halves.
// main() prints every result's bits in hex; the test computes each result exactly in Python.
#include <cstdio>
#include <cstdint>
#include <cstring>
#if __has_include(<cuda_bf16.h>)  // used on the device side only; absent from the HIP host build
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#endif

#define NT 64
#define KF 40
#define KD 34

// Kernel bodies are device-only: the host port is compiled host-only around the lifted code.
__global__ void float_ops(const float* pa, const float* pb, const float* pc, uint32_t* out) {
#ifdef __CUDA_ARCH__
  int t = threadIdx.x;
  float a = pa[t], b = pb[t], c = pc[t];
  uint32_t* o = out + t * KF;
  long long ll = __float2ll_rz(a);
  o[0] = __float_as_uint(a + b);
  o[1] = __float_as_uint(a * b);
  o[2] = __float_as_uint(fmaf(a, b, c));
  o[3] = __float_as_uint(a / b);
  o[4] = __float_as_uint(sqrtf(a));
  o[5] = __float_as_uint(__fadd_rz(a, b));
  o[6] = __float_as_uint(__fmul_ru(a, b));
  o[7] = __float_as_uint(__fmaf_rd(a, b, c));
  o[8] = __float_as_uint(__fdiv_rz(a, b));
  o[9] = __float_as_uint(__frcp_rn(a));
  o[10] = __float_as_uint(__fsqrt_rd(a));
  o[11] = __float_as_uint(fminf(a, b) + 0.0f);
  o[12] = __float_as_uint(fmaxf(a, b) + 0.0f);
  o[13] = __float_as_uint(floorf(a));
  o[14] = __float_as_uint(ceilf(a));
  o[15] = __float_as_uint(truncf(a));
  o[16] = __float_as_uint(rintf(a));
  o[17] = __float_as_uint(roundf(a));
  o[18] = __float_as_uint(copysignf(a, b));
  o[19] = __float_as_uint(__saturatef(isnan(a) ? 2.0f : a) + 0.0f);  // emulator: clamp keeps NaN
  o[20] = __float_as_uint(__int2float_rz(__float_as_int(c)));
  o[21] = __float_as_uint(__uint2float_ru(__float_as_uint(c)));
  o[22] = __float_as_uint(__ll2float_rd(((long long)__float_as_int(a) << 20) ^ __float_as_int(b)));
  o[23] = __float_as_uint((float)((double)a * (double)b));
  o[24] = __float_as_uint(__double2float_rz((double)a + (double)b));
  o[25] = __float_as_uint(a < b ? 1.0f : 0.0f);
  o[26] = (a < b) | (a <= b) << 1 | (a == b) << 2 | (a != b) << 3 | (a > b) << 4 | (a >= b) << 5 |
          isnan(a) << 6 | isinf(a) << 7 | signbit(a) << 8 | isfinite(b) << 9 | !(a < b) << 10;
  o[27] = (uint32_t)(int)a;
  o[28] = (uint32_t)__float2int_rn(a);
  o[29] = (uint32_t)__float2int_rd(a);
  o[30] = (uint32_t)__float2int_ru(a);
  o[31] = __float2uint_rz(a);
  o[32] = isnan(a) ? 0u : (uint32_t)ll;
  o[33] = isnan(a) ? 0u : (uint32_t)((unsigned long long)ll >> 32);
  o[34] = isnan(a) ? 0u : (uint32_t)__float2ull_rn(a);
  o[35] = __half_as_ushort(__float2half_rn(a));
  o[36] = __float_as_uint(__half2float(__float2half_rz(a)));
  o[37] = __bfloat16_as_ushort(__float2bfloat16(a));
  o[38] = __float_as_uint(ldexpf(a, 10));
  o[39] = __float_as_uint(__fsub_rn(a, b) * 0.5f);
#endif
}

__global__ void double_ops(const double* pa, const double* pb, const double* pc, uint64_t* out) {
#ifdef __CUDA_ARCH__
  int t = threadIdx.x;
  double a = pa[t], b = pb[t], c = pc[t];
  uint64_t* o = out + t * KD;
  long long bits = __double_as_longlong(a);
  o[0] = __double_as_longlong(a + b);
  o[1] = __double_as_longlong(a * b);
  o[2] = __double_as_longlong(fma(a, b, c));
  o[3] = __double_as_longlong(a / b);
  o[4] = __double_as_longlong(sqrt(a));
  o[5] = __double_as_longlong(__dadd_rz(a, b));
  o[6] = __double_as_longlong(__dmul_ru(a, b));
  o[7] = __double_as_longlong(__fma_rd(a, b, c));
  o[8] = __double_as_longlong(__ddiv_rz(a, b));
  o[9] = __double_as_longlong(__drcp_rn(a));
  o[10] = __double_as_longlong(__dsqrt_ru(a));
  o[11] = __double_as_longlong(fmin(a, b) + 0.0);
  o[12] = __double_as_longlong(fmax(a, b) + 0.0);
  o[13] = __double_as_longlong(floor(a));
  o[14] = __double_as_longlong(ceil(a));
  o[15] = __double_as_longlong(trunc(a));
  o[16] = __double_as_longlong(rint(a));
  o[17] = __double_as_longlong(round(a));
  o[18] = __double_as_longlong((double)(float)a);
  o[19] = __double_as_longlong((double)__double2float_rz(a));
  o[20] = __double_as_longlong(__ll2double_rn(bits));
  o[21] = __double_as_longlong(__ll2double_rz(bits ^ (bits >> 7)));
  o[22] = __double_as_longlong(__ull2double_ru((unsigned long long)bits));
  o[23] = (uint64_t)(uint32_t)__double2int_rz(a) | (uint64_t)(uint32_t)__double2int_rd(a) << 32;
  o[24] = isnan(a) ? 0 : (uint64_t)__double2ll_ru(a);
  o[25] = isnan(a) ? 0 : __double2ull_rn(a);
  o[26] = (uint64_t)__double2uint_rd(a) | (uint64_t)(uint32_t)__double2int_ru(a) << 32;
  o[27] = (a < b) | (a <= b) << 1 | (a == b) << 2 | (a != b) << 3 | (a > b) << 4 | (a >= b) << 5 |
          isnan(a) << 6 | isinf(a) << 7 | signbit(a) << 8 | isfinite(b) << 9 | !(a < b) << 10;
  o[28] = __double_as_longlong(a / 249.0);
  o[29] = __double_as_longlong(fma(a, 0.1, b));
  o[30] = __double_as_longlong(__hiloint2double(__double2hiint(a), __double2loint(b)));
  o[31] = __double_as_longlong(copysign(a, b));
  o[32] = __double_as_longlong(__int2double_rn((int)(bits >> 12)) + __uint2double_rn((unsigned)bits));
  o[33] = __double_as_longlong(rsqrt(a) * 0.0 + __dsub_rn(a, c));
#endif
}

static const uint32_t kEdgeF[] = {
    0x00000000u, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x3f000000u, 0x3fc00000u, 0x40200000u, 0xc0200000u,
    0x00000001u, 0x807fffffu, 0x00800000u, 0x7f7fffffu, 0xff7fffffu, 0x7f800000u, 0xff800000u, 0x7fc00000u,
    0x4f32d05eu, 0xcf32d05eu, 0x501502f9u, 0x4b800001u, 0x40490fdbu, 0x3eaaaaabu, 0x4b3fffffu, 0xbeffffffu,
    0x5f000000u, 0x477fe000u, 0x33800001u, 0x38800000u};
static const uint64_t kEdgeD[] = {
    0x0000000000000000ull, 0x8000000000000000ull, 0x3ff0000000000000ull, 0xbff0000000000000ull,
    0x3fe0000000000000ull, 0x4004000000000000ull, 0xc004000000000000ull, 0x0000000000000001ull,
    0x800fffffffffffffull, 0x0010000000000000ull, 0x7fefffffffffffffull, 0x7ff0000000000000ull,
    0xfff0000000000000ull, 0x7ff8000000000000ull, 0x41e0000000000000ull, 0xc1e0000000200000ull,
    0x43e0000000000000ull, 0x400921fb54442d18ull, 0x3fd5555555555555ull, 0x4330000000000001ull,
    0x47efffffe0000000ull, 0x36a0000000000000ull, 0x406f200000000000ull, 0xc3f0000000000000ull};

static uint64_t state = 0x13198a2e03707344ull;
static uint64_t next() {
  state = state * 6364136223846793005ull + 1442695040888963407ull;
  return state ^ (state >> 31);
}

int main() {
  const int nf = sizeof(kEdgeF) / sizeof(kEdgeF[0]), nd = sizeof(kEdgeD) / sizeof(kEdgeD[0]);
  static uint32_t hf[3][NT];
  static uint64_t hd[3][NT];
  for (int t = 0; t < NT; ++t)
    for (int k = 0; k < 3; ++k) {
      uint64_t r = next();
      uint32_t rf = (uint32_t)(r >> 32) & 0xbfffffffu;  // finite, magnitude below 2
      uint64_t rd = (r & 0x000fffffffffffffull) | (uint64_t)(0x3c0 + (r >> 56) % 0x80) << 52 | (r & 1ull << 63);
      hf[k][t] = (t + k) % 3 == 0 ? rf : kEdgeF[(t * (k + 1) + 3 * k) % nf];
      hd[k][t] = (t + k) % 3 == 0 ? rd : kEdgeD[(t * (k + 1) + 3 * k) % nd];
    }
  float* df;
  double* dd;
  uint32_t* of;
  uint64_t* od;
  cudaMalloc(&df, sizeof(hf));
  cudaMalloc(&dd, sizeof(hd));
  cudaMalloc(&of, NT * KF * 4);
  cudaMalloc(&od, NT * KD * 8);
  cudaMemcpy(df, hf, sizeof(hf), cudaMemcpyHostToDevice);
  cudaMemcpy(dd, hd, sizeof(hd), cudaMemcpyHostToDevice);
  float_ops<<<1, NT>>>(df, df + NT, df + 2 * NT, of);
  double_ops<<<1, NT>>>(dd, dd + NT, dd + 2 * NT, od);
  static uint32_t rf[NT * KF];
  static uint64_t rd[NT * KD];
  cudaMemcpy(rf, of, sizeof(rf), cudaMemcpyDeviceToHost);
  cudaMemcpy(rd, od, sizeof(rd), cudaMemcpyDeviceToHost);
  for (int t = 0; t < NT; ++t) {
    printf("f32 %d %08x %08x %08x", t, hf[0][t], hf[1][t], hf[2][t]);
    for (int k = 0; k < KF; ++k) printf(" %08x", rf[t * KF + k]);
    printf("\n");
  }
  for (int t = 0; t < NT; ++t) {
    printf("f64 %d %016llx %016llx %016llx", t, (unsigned long long)hd[0][t], (unsigned long long)hd[1][t],
           (unsigned long long)hd[2][t]);
    for (int k = 0; k < KD; ++k) printf(" %016llx", (unsigned long long)rd[t * KD + k]);
    printf("\n");
  }
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
