// Tensor-core instructions through PTX: mma.sync m16n8k16 (f16 inputs with f32 and f16
// accumulators, bf16 inputs), ldmatrix x1/x2/x4 with and without .trans, movmatrix .trans.
// One warp each; every fragment is built from (or written to) memory in the layouts PTX's ISA
// gives, so the printed matrices are plain products: D = C + A x B. Small integers keep every
// product and sum exact in f16, bf16 and f32. Prints every output.
#include <cstdio>
#include <cuda_fp16.h>

__device__ unsigned pack_h(float lo, float hi) {
  return (unsigned)__half_as_ushort(__float2half(lo)) | ((unsigned)__half_as_ushort(__float2half(hi)) << 16);
}
// bf16 is a float's high half: exact for these small integers (the low half is zero)
__device__ unsigned pack_bf(float lo, float hi) {
  return (__float_as_uint(lo) >> 16) | (__float_as_uint(hi) & 0xffff0000u);
}

// A is 16x16 row-major, B 16x8 row-major (B[k][n] at k*8+n), C and D 16x8 row-major
extern "C" __global__ void mma_f32(const float* A, const float* B, const float* C, float* D, int bf16) {
  int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
  unsigned a[4], b[2];
  float c[4], d[4];
  int ar[4] = {g, g + 8, g, g + 8}, ak[4] = {2 * t, 2 * t, 2 * t + 8, 2 * t + 8};
  for (int i = 0; i < 4; ++i) {
    float lo = A[ar[i] * 16 + ak[i]], hi = A[ar[i] * 16 + ak[i] + 1];
    a[i] = bf16 ? pack_bf(lo, hi) : pack_h(lo, hi);
  }
  for (int i = 0; i < 2; ++i) {
    int k = 2 * t + 8 * i;
    b[i] = bf16 ? pack_bf(B[k * 8 + g], B[(k + 1) * 8 + g]) : pack_h(B[k * 8 + g], B[(k + 1) * 8 + g]);
  }
  int cr[4] = {g, g, g + 8, g + 8}, cc[4] = {2 * t, 2 * t + 1, 2 * t, 2 * t + 1};
  for (int i = 0; i < 4; ++i) c[i] = C[cr[i] * 8 + cc[i]];
  if (bf16) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
                 "{%8,%9}, {%10,%11,%12,%13};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]),
                   "f"(c[2]), "f"(c[3]));
  } else {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
                 "{%8,%9}, {%10,%11,%12,%13};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]),
                   "f"(c[2]), "f"(c[3]));
  }
  for (int i = 0; i < 4; ++i) D[cr[i] * 8 + cc[i]] = d[i];
}

extern "C" __global__ void mma_f16(const float* A, const float* B, const float* C, float* D) {
  int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
  unsigned a[4], b[2], c[2], d[2];
  int ar[4] = {g, g + 8, g, g + 8}, ak[4] = {2 * t, 2 * t, 2 * t + 8, 2 * t + 8};
  for (int i = 0; i < 4; ++i) a[i] = pack_h(A[ar[i] * 16 + ak[i]], A[ar[i] * 16 + ak[i] + 1]);
  for (int i = 0; i < 2; ++i) {
    int k = 2 * t + 8 * i;
    b[i] = pack_h(B[k * 8 + g], B[(k + 1) * 8 + g]);
  }
  for (int i = 0; i < 2; ++i) c[i] = pack_h(C[(g + 8 * i) * 8 + 2 * t], C[(g + 8 * i) * 8 + 2 * t + 1]);
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};"
               : "=r"(d[0]), "=r"(d[1])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]));
  for (int i = 0; i < 2; ++i) {
    D[(g + 8 * i) * 8 + 2 * t] = __half2float(__ushort_as_half((unsigned short)(d[i] & 0xffff)));
    D[(g + 8 * i) * 8 + 2 * t + 1] = __half2float(__ushort_as_half((unsigned short)(d[i] >> 16)));
  }
}

// four 8x8 matrices of 16-bit words in shared memory, M_i[r][c] = 1000 * i + 10 * r + c, each
// 16-byte row (ldmatrix's alignment) followed by 16 bytes of padding (rows need not be contiguous);
// out[lane * 4 + i] is register i of the lane after ldmatrix x4 (mode 0), x2 (1), x1 (2), x4.trans (3)
extern "C" __global__ void load_matrices(unsigned* out, int mode) {
  __shared__ __align__(16) unsigned short tile[4 * 8 * 16];
  int lane = threadIdx.x;
  for (int k = lane; k < 4 * 8 * 16; k += 32) {
    int i = k / 128, r = (k % 128) / 16, c = k % 16;
    tile[k] = (unsigned short)(c < 8 ? 1000 * i + 10 * r + c : 60000);
  }
  __syncwarp();
  unsigned addr;  // the row's shared-window address (what __cvta_generic_to_shared gives)
  asm("{ .reg .u64 a; cvta.to.shared.u64 a, %1; cvt.u32.u64 %0, a; }"
      : "=r"(addr) : "l"(&tile[(lane / 8) * 128 + (lane % 8) * 16]));
  unsigned r[4] = {0, 0, 0, 0};
  if (mode == 0)
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
  else if (mode == 1)
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(addr));
  else if (mode == 2)
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(addr));
  else
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
  for (int i = 0; i < 4; ++i) out[lane * 4 + i] = r[i];
}

// lane holds M[g][2t], M[g][2t+1] of M[r][c] = 10 * r + c; out[lane] after movmatrix .trans
extern "C" __global__ void transpose_matrix(unsigned* out) {
  int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
  unsigned v = (unsigned)(10 * g + 2 * t) | ((unsigned)(10 * g + 2 * t + 1) << 16), r;
  asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(r) : "r"(v));
  out[lane] = r;
}

int main() {
  float hA[256], hB[128], hC[128], hD[128];
  for (int i = 0; i < 256; ++i) hA[i] = (float)((i * 5 + 3) % 7 - 3);
  for (int i = 0; i < 128; ++i) hB[i] = (float)((i * 5 + 1) % 9 - 4);
  for (int i = 0; i < 128; ++i) hC[i] = (float)((i * 3) % 11 - 5);
  float *A, *B, *C, *D;
  unsigned *U, hU[128];
  cudaMalloc(&A, sizeof(hA));
  cudaMalloc(&B, sizeof(hB));
  cudaMalloc(&C, sizeof(hC));
  cudaMalloc(&D, sizeof(hD));
  cudaMalloc(&U, sizeof(hU));
  cudaMemcpy(A, hA, sizeof(hA), cudaMemcpyHostToDevice);
  cudaMemcpy(B, hB, sizeof(hB), cudaMemcpyHostToDevice);
  cudaMemcpy(C, hC, sizeof(hC), cudaMemcpyHostToDevice);
  const char* names[3] = {"mma_f32", "mma_bf16", "mma_f16"};
  for (int kind = 0; kind < 3; ++kind) {
    if (kind < 2)
      mma_f32<<<1, 32>>>(A, B, C, D, kind);
    else
      mma_f16<<<1, 32>>>(A, B, C, D);
    if (cudaMemcpy(hD, D, sizeof(hD), cudaMemcpyDeviceToHost) != cudaSuccess) return 1;
    printf("%s", names[kind]);
    for (int i = 0; i < 128; ++i) printf(" %g", hD[i]);
    printf("\n");
  }
  const char* modes[4] = {"ldmatrix_x4", "ldmatrix_x2", "ldmatrix_x1", "ldmatrix_x4_trans"};
  for (int mode = 0; mode < 4; ++mode) {
    load_matrices<<<1, 32>>>(U, mode);
    if (cudaMemcpy(hU, U, sizeof(hU), cudaMemcpyDeviceToHost) != cudaSuccess) return 1;
    printf("%s", modes[mode]);
    for (int i = 0; i < 128; ++i) printf(" %u", hU[i]);
    printf("\n");
  }
  transpose_matrix<<<1, 32>>>(U);
  if (cudaMemcpy(hU, U, 32 * sizeof(unsigned), cudaMemcpyDeviceToHost) != cudaSuccess) return 1;
  printf("movmatrix");
  for (int i = 0; i < 32; ++i) printf(" %u", hU[i]);
  printf("\n");
  return 0;
}
