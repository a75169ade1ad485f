// A bit packer's carry word (Rodinia huffman's pack kernel): `dw << 32 - bit` is 0 on NVIDIA
// GPUs when bit is 0 (PTX clamps the amount) and dw on AMD GPUs (the amount taken modulo 32).
#include <cstdio>

#define LOG_WARP 5

__global__ void carry(const unsigned* in, const int* bits, unsigned* out) {
  int i = threadIdx.x;
  unsigned dw = in[i];
  int bit = bits[i];
  out[i] = dw << 32-bit;
  out[4 + i] = i << (32 - LOG_WARP);  // constants only: never the width
}

unsigned host_carry(unsigned dw, int bit) { return bit ? dw << (32 - bit) : 0; }

int main() {
  unsigned in[4] = {0xdeadbeefu, 0xdeadbeefu, 0x12345678u, 0xffffffffu};
  int bits[4] = {0, 4, 16, 31};
  unsigned out[8], *d_in, *d_out;
  int* d_bits;
  cudaMalloc(&d_in, sizeof in);
  cudaMalloc(&d_bits, sizeof bits);
  cudaMalloc(&d_out, sizeof out);
  cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice);
  cudaMemcpy(d_bits, bits, sizeof bits, cudaMemcpyHostToDevice);
  carry<<<1, 4>>>(d_in, d_bits, d_out);
  cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 4; ++i) printf("carry %d %08x host %08x\n", bits[i], out[i], host_carry(in[i], bits[i]));
  return 0;
}
