// Indirect branches: a dense switch in a loop (ptxas: jump tables in the literal pool read by
// LDC c[0x2][Rx] + BRX), a PTX brx.idx computed jump, and brx.idx on a kernel parameter (a
// uniform index: ULDC c[0x2][URx] + BRXU). Prints every output.
#include <cstdio>

extern "C" __global__ void interp(const int* code, int* out, int n, int steps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int acc = i;
  for (int s = 0; s < steps; ++s) {
    switch (code[(i + s) % 64]) {
      case 0: acc = acc * 3 + 1; break;
      case 1: acc ^= 0x55; break;
      case 2: acc -= 77; break;
      case 3: acc <<= 3; break;
      case 4: acc = acc / 7; break;
      case 5: acc = ~acc; break;
      case 6: acc = acc * acc; break;
      case 7: acc += 1000; break;
      case 8: acc >>= 2; break;
      case 9: acc |= 0x100; break;
      case 10: acc &= 0xffff; break;
      case 11: acc = acc % 13; break;
      case 12: acc = acc + s; break;
      case 13: acc = acc - i; break;
      case 14: acc = acc * 5 - s; break;
      case 15: acc = (acc << 1) | ((acc >> 31) & 1); break;
      default: acc = -acc; break;
    }
  }
  out[i] = acc;
}

extern "C" __global__ void computed(const int* sel, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned k = (unsigned)sel[i] % 5u;
  int r;
  asm volatile(
      "{\n\t"
      ".reg .u32 %%k;\n\t"
      "mov.u32 %%k, %1;\n\t"
      "ts: .branchtargets L0, L1, L2, L3, L4;\n\t"
      "brx.idx %%k, ts;\n\t"
      "L0: mov.u32 %0, 11; bra.uni Ldone;\n\t"
      "L1: mul.lo.u32 %0, %1, 7; bra.uni Ldone;\n\t"
      "L2: add.u32 %0, %1, 100; bra.uni Ldone;\n\t"
      "L3: xor.b32 %0, %1, 0xff; bra.uni Ldone;\n\t"
      "L4: mov.u32 %0, 4242;\n\t"
      "Ldone:\n\t"
      "}\n"
      : "=r"(r)
      : "r"(k));
  out[i] = r + i;
}

extern "C" __global__ void uniform_computed(int* out, int n, unsigned k) {  // k < 5
  int r;  // chosen before any thread leaves: the branch stays uniform
  asm volatile(
      "{\n\t"
      "ts: .branchtargets L0, L1, L2, L3, L4;\n\t"
      "brx.idx.uni %1, ts;\n\t"
      "L0: mov.u32 %0, 11; bra.uni Ldone;\n\t"
      "L1: mul.lo.u32 %0, %1, 7; bra.uni Ldone;\n\t"
      "L2: add.u32 %0, %1, 100; bra.uni Ldone;\n\t"
      "L3: xor.b32 %0, %1, 0xff; bra.uni Ldone;\n\t"
      "L4: mov.u32 %0, 4242;\n\t"
      "Ldone:\n\t"
      "}\n"
      : "=r"(r)
      : "r"(k));
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = r * 2 + i;
}

int main() {
  const int n = 96, steps = 40;
  int code[64], sel[n], out[n];
  for (int i = 0; i < 64; ++i) code[i] = (i * 7 + 3) % 18;
  for (int i = 0; i < n; ++i) sel[i] = i * 13 + 5;
  int *dcode, *dsel, *dout;
  cudaMalloc(&dcode, sizeof(code));
  cudaMalloc(&dsel, sizeof(sel));
  cudaMalloc(&dout, sizeof(out));
  cudaMemcpy(dcode, code, sizeof(code), cudaMemcpyHostToDevice);
  cudaMemcpy(dsel, sel, sizeof(sel), cudaMemcpyHostToDevice);
  interp<<<3, 32>>>(dcode, dout, n, steps);
  cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost);
  printf("interp");
  for (int i = 0; i < n; ++i) printf(" %d", out[i]);
  printf("\n");
  computed<<<3, 32>>>(dsel, dout, n);
  cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost);
  printf("computed");
  for (int i = 0; i < n; ++i) printf(" %d", out[i]);
  printf("\n");
  for (unsigned k = 0; k < 6; ++k) {
    uniform_computed<<<3, 32>>>(dout, n, (k * 3 + 1) % 5);
    cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost);
    printf("uniform %u", (k * 3 + 1) % 5);
    for (int i = 0; i < n; i += 19) printf(" %d", out[i]);
    printf("\n");
  }
  return 0;
}
