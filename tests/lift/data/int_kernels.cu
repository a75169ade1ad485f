// Integer families for the SASS lifter: carries (IADD3 with two carry-outs, IADD3.X, IMAD.X,
// LEA.HI.X), wide and high multiplies, 32/64-bit shifts and funnel shifts by every amount,
// bit counts, byte permutes, dot products (IDP), min/max/abs, division subroutines.
// main() prints the inputs and every result in hex; the test computes each result in Python.
#include <cstdio>
#include <cstdint>
#include <cuda_runtime.h>

#define NT 64   // threads: one (x, y, z) triple of edge values each
#define K32 48  // results per thread, 32-bit kernel
#define K64 25  // results per thread, 64-bit kernel

// Kernel bodies are device-only (#ifdef __CUDA_ARCH__): the host port is compiled host-only around
// the lifted code object, and HIP lacks some of these intrinsics (__dp2a_lo).
__global__ void int32_ops(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* out) {
#ifdef __CUDA_ARCH__
  int t = threadIdx.x;
  uint32_t x = a[t], y = b[t], z = c[t];
  int32_t sx = (int32_t)x, sy = (int32_t)y, sz = (int32_t)z;
  uint32_t* o = out + t * K32;
  unsigned n = t;  // shift amounts 0..63
  o[0] = x + y + z;
  o[1] = x - y - z;
  o[2] = x * y + z;
  o[3] = __umulhi(x, y);
  o[4] = (uint32_t)__mulhi(sx, sy);
  o[5] = x << (y & 31);
  o[6] = x >> (y & 31);
  o[7] = (uint32_t)(sx >> (y & 31));
  o[8] = __funnelshift_l(x, y, n);
  o[9] = __funnelshift_r(x, y, n);
  o[10] = __funnelshift_lc(x, y, n);
  o[11] = __funnelshift_rc(x, y, n);
  o[12] = __popc(x);
  o[13] = __clz(x);
  o[14] = __ffs(x);
  o[15] = __brev(x);
  o[16] = __byte_perm(x, y, z);
  o[17] = __byte_perm(x, y, 0x0123);
  o[18] = __byte_perm(x, y, 0x7531);
  o[19] = (uint32_t)min(sx, sy);
  o[20] = (uint32_t)max(sx, sy);
  o[21] = min(x, y);
  o[22] = max(x, y);
  o[23] = (uint32_t)abs(sx);
  o[24] = y ? x / y : 0u;
  o[25] = y ? x % y : 0u;
  o[26] = (sy && !(sx == INT32_MIN && sy == -1)) ? (uint32_t)(sx / sy) : 0u;
  o[27] = (sy && !(sx == INT32_MIN && sy == -1)) ? (uint32_t)(sx % sy) : 0u;
  o[28] = __sad(sx, sy, z);
  o[29] = __usad(x, y, z);
  o[30] = (uint32_t)__hadd(sx, sy);
  o[31] = (uint32_t)__rhadd(sx, sy);
  o[32] = __uhadd(x, y);
  o[33] = __urhadd(x, y);
  o[34] = (uint32_t)__dp4a(sx, sy, sz);
  o[35] = __dp4a(x, y, z);
  o[36] = (uint32_t)__dp2a_lo(sx, sy, sz);
  o[37] = __dp2a_hi(x, y, z);
  o[38] = (uint32_t)__mul24(sx, sy);
  o[39] = __umul24(x, y);
  o[40] = (uint32_t)((int32_t)(x << 24) >> 24) + (uint32_t)(int16_t)y;
  o[41] = (x >> (n & 15)) & ((1u << (y & 15)) - 1u);
  o[42] = (uint32_t)(sx < sy) | (uint32_t)(x < y) << 1 | (uint32_t)(sx == sy) << 2 | (uint32_t)(sx >= sz) << 3 |
          (uint32_t)(x <= z) << 4;
  o[43] = (uint32_t)__ffsll((long long)x << 32 | y);
  o[44] = __popc(x) + __popc(y) + __popc(z);
  o[45] = (x & y) | (~x & z);
  o[46] = (x ^ y ^ z) | (x & ~z);
  o[47] = (uint32_t)(sx * 13 - sy * 7) + (x << 5) - (y >> 3);
#endif
}

__global__ void int64_ops(const uint64_t* a, const uint64_t* b, const uint64_t* c, uint64_t* out) {
#ifdef __CUDA_ARCH__
  int t = threadIdx.x;
  uint64_t x = a[t], y = b[t], z = c[t];
  int64_t sx = (int64_t)x, sy = (int64_t)y;
  uint64_t* o = out + t * K64;
  unsigned n = t;  // 0..63
  o[0] = x + y + z;
  o[1] = x + y + z + (x >> 1) + (y >> 2);
  o[2] = x - y - z;
  o[3] = x * y;
  o[4] = x * y + z;
  o[5] = __umul64hi(x, y);
  o[6] = (uint64_t)__mul64hi(sx, sy);
  o[7] = (uint64_t)(uint32_t)x * (uint32_t)y + z;
  o[8] = (uint64_t)((int64_t)(int32_t)x * (int32_t)y);
  o[9] = x << n;
  o[10] = x >> n;
  o[11] = (uint64_t)(sx >> n);
  o[12] = (x >> n) | (x << ((64 - n) & 63));
  o[13] = y ? x / y : 0;
  o[14] = y ? x % y : 0;
  o[15] = (sy && !(sx == INT64_MIN && sy == -1)) ? (uint64_t)(sx / sy) : 0;
  o[16] = (sy && !(sx == INT64_MIN && sy == -1)) ? (uint64_t)(sx % sy) : 0;
  o[17] = (uint64_t)__popcll(x) | (uint64_t)__clzll(x) << 8 | (uint64_t)__ffsll((long long)x) << 16;
  o[18] = __brevll(x);
  o[19] = (uint64_t)min(sx, sy) ^ max(x, y);
  o[20] = (uint64_t)(sx < sy) | (uint64_t)(x < y) << 1 | (uint64_t)(x == y) << 2 | (uint64_t)(sx >= (int64_t)z) << 3;
  o[21] = (uint64_t)llabs(sx);
  o[22] = x * 0x9E3779B97F4A7C15ull + (y << 17);
  o[23] = (x + (y << 3)) + (uint64_t)(int32_t)z;
  int ax = (int)x, ay = (int)(x >> 32), bx = (int)y, by = (int)(y >> 32), cx = (int)z, cy = (int)(z >> 32);
  o[24] = (uint64_t)((long long)(bx - ax) * (cy - ay) - (long long)(by - ay) * (cx - ax));
#endif
}

// The sign of a 2-D cross product (segment_intersections_tiled): IMAD.WIDE d, a, b, -pair.
__global__ void orient(const int* v, int* out) {
#ifdef __CUDA_ARCH__
  const int* p = v + threadIdx.x * 6;
  long long cross = (long long)(p[2] - p[0]) * (p[5] - p[1]) - (long long)(p[3] - p[1]) * (p[4] - p[0]);
  out[threadIdx.x] = (cross > 0) - (cross < 0);
#endif
}

static const uint32_t kEdge32[] = {0u, 1u, 2u, 3u, 7u, 31u, 32u, 33u, 63u, 64u, 0xffu, 0x100u, 0x7fffffffu,
                                   0x80000000u, 0x80000001u, 0xfffffffeu, 0xffffffffu, 0x12345678u, 0xdeadbeefu,
                                   0x0f0f0f0fu, 0x55555555u, 0xaaaaaaaau, 0x00010000u, 0xffff0000u};
static const uint64_t kEdge64[] = {0ull, 1ull, 2ull, 63ull, 64ull, 0xffffffffull, 0x100000000ull,
                                   0x7fffffffffffffffull, 0x8000000000000000ull, 0xffffffffffffffffull,
                                   0xfffffffffffffffeull, 0x123456789abcdef0ull, 0xdeadbeefcafebabeull,
                                   0x00000001ffffffffull, 0x8000000000000001ull, 0x0000000080000000ull};

static uint64_t state = 0x243f6a8885a308d3ull;
static uint64_t next() {
  state = state * 6364136223846793005ull + 1442695040888963407ull;
  return state ^ (state >> 29);
}

int main() {
  const int n32 = sizeof(kEdge32) / sizeof(kEdge32[0]), n64 = sizeof(kEdge64) / sizeof(kEdge64[0]);
  uint32_t h32[3][NT];
  uint64_t h64[3][NT];
  for (int t = 0; t < NT; ++t)
    for (int k = 0; k < 3; ++k) {
      uint64_t r = next();
      h32[k][t] = (t + k) % 3 == 0 ? (uint32_t)r : kEdge32[(t * (k + 1) + k) % n32];
      h64[k][t] = (t + k) % 3 == 0 ? r : kEdge64[(t * (k + 2) + k) % n64];
    }
  uint32_t *d32, *o32;
  uint64_t *d64, *o64;
  cudaMalloc(&d32, sizeof(h32));
  cudaMalloc(&d64, sizeof(h64));
  cudaMalloc(&o32, NT * K32 * 4);
  cudaMalloc(&o64, NT * K64 * 8);
  cudaMemcpy(d32, h32, sizeof(h32), cudaMemcpyHostToDevice);
  cudaMemcpy(d64, h64, sizeof(h64), cudaMemcpyHostToDevice);
  int32_ops<<<1, NT>>>(d32, d32 + NT, d32 + 2 * NT, o32);
  orient<<<1, NT / 2>>>((const int*)d32, (int*)o64);  // o64 is overwritten by int64_ops below
  int signs[NT / 2];
  cudaMemcpy(signs, o64, sizeof(signs), cudaMemcpyDeviceToHost);
  int64_ops<<<1, NT>>>(d64, d64 + NT, d64 + 2 * NT, o64);
  static uint32_t r32[NT * K32];
  static uint64_t r64[NT * K64];
  cudaMemcpy(r32, o32, sizeof(r32), cudaMemcpyDeviceToHost);
  cudaMemcpy(r64, o64, sizeof(r64), cudaMemcpyDeviceToHost);
  for (int t = 0; t < NT; ++t) {
    printf("i32 %d %08x %08x %08x", t, h32[0][t], h32[1][t], h32[2][t]);
    for (int k = 0; k < K32; ++k) printf(" %08x", r32[t * K32 + k]);
    printf("\n");
  }
  for (int t = 0; t < NT / 2; ++t) printf("orient %d %d\n", t, signs[t]);
  for (int t = 0; t < NT; ++t) {
    printf("i64 %d %016llx %016llx %016llx", t, (unsigned long long)h64[0][t], (unsigned long long)h64[1][t],
           (unsigned long long)h64[2][t]);
    for (int k = 0; k < K64; ++k) printf(" %016llx", (unsigned long long)r64[t * K64 + k]);
    printf("\n");
  }
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
