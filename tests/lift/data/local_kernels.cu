// A large per-thread array indexed by data (local memory with computed offsets: STL/LDL from R1
// plus a register), as Viterbi path tables and small per-thread histograms use it.
#include <cstdio>

extern "C" __global__ void local_table(const int* in, int* out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  int table[384];
  for (int k = 0; k < 384; ++k) table[k] = k * t;
  unsigned s = t * 2654435761u + 1;
  for (int k = 0; k < 500; ++k) {
    s = s * 1103515245u + 12345u;
    int i = (s >> 8) % 384, j = (in[(t + k) % n] + k) % 384;
    table[i] += table[j] ^ k;
  }
  int acc = 0;
  for (int k = 0; k < 384; k += 7) acc += table[k];
  out[t] = acc;
}

int main() {
  const int n = 64;
  int in[n], out[n];
  for (int i = 0; i < n; ++i) in[i] = (i * 131) % 997;
  int *din, *dout;
  cudaMalloc(&din, sizeof(in));
  cudaMalloc(&dout, sizeof(out));
  cudaMemcpy(din, in, sizeof(in), cudaMemcpyHostToDevice);
  local_table<<<2, 32>>>(din, dout, n);
  cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) printf("%d\n", out[i]);
  return 0;
}
