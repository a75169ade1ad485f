// A 16-bit VOP3 result written to the high half (op_sel:[0,0,1] on a two-source instruction:
// the last flag is the destination's), the low half kept. Checked on the host.
#include <hip/hip_runtime.h>
#include <cstdio>
__global__ void k(const unsigned* in, unsigned* out) {
  unsigned v = in[threadIdx.x], r;
  // v_add_nc_u16 with the result in the high half: op_sel:[0,0,1]
  asm volatile("v_mov_b32 %0, %1\n v_add_nc_u16 %0, %1, %1 op_sel:[0,0,1]" : "=&v"(r) : "v"(v));
  out[threadIdx.x] = r;
}
int main() {
  unsigned h[32], *d, *o, got[32];
  for (int i = 0; i < 32; ++i) h[i] = 0x00010000u * i + (unsigned)(i + 3);
  hipMalloc(&d, sizeof(h)); hipMalloc(&o, sizeof(h));
  hipMemcpy(d, h, sizeof(h), hipMemcpyHostToDevice);
  k<<<1, 32>>>(d, o);
  hipMemcpy(got, o, sizeof(got), hipMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < 32; ++i) bad += got[i] != (((unsigned)(2 * (i + 3)) << 16) | (h[i] & 0xFFFF));
  printf("%08x %08x %s\n", got[1], got[5], bad ? "CHECK FAIL" : "CHECK PASS");
  return bad;
}
