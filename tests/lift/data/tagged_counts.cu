// Warp-synchronous counting through shared memory (Rodinia's hybridsort, the CUDA SDK's
// histogram256): each lane writes `tag | (count + 1)` over a counter other lanes of the same
// instruction may be writing too, reads it back, and tries again until its own value stayed.
// One lane of each collision wins per round, so every lane is counted once. Prints the counts.
#include <cstdio>

__device__ unsigned add_tagged(volatile unsigned* counts, unsigned bin, unsigned tag) {
  unsigned value;
  do {
    value = counts[bin] & 0x07FFFFFFu;
    value = tag | (value + 1);
    counts[bin] = value;
  } while (counts[bin] != value);
  return (value & 0x07FFFFFFu) - 1;  // this lane's rank among the bin's entries
}

extern "C" __global__ void tagged_counts(const unsigned* bins, unsigned* counts, unsigned* ranks, int n) {
  volatile __shared__ unsigned s[16];
  const unsigned tag = threadIdx.x << 27;
  if (threadIdx.x < 16) s[threadIdx.x] = 0;
  __syncwarp();
  for (int i = threadIdx.x; i < n; i += 32) ranks[i] = add_tagged(s, bins[i], tag);
  __syncwarp();
  if (threadIdx.x < 16) counts[threadIdx.x] = s[threadIdx.x] & 0x07FFFFFFu;
}

int main() {
  const int n = 256;
  unsigned bins[n], counts[16], ranks[n];
  for (int i = 0; i < n; ++i) bins[i] = (i * 7 + i / 5) % 16 / (i % 3 == 0 ? 4 : 1);  // collisions
  unsigned *dbins, *dcounts, *dranks;
  cudaMalloc(&dbins, sizeof(bins));
  cudaMalloc(&dcounts, sizeof(counts));
  cudaMalloc(&dranks, sizeof(ranks));
  cudaMemcpy(dbins, bins, sizeof(bins), cudaMemcpyHostToDevice);
  tagged_counts<<<1, 32>>>(dbins, dcounts, dranks, n);
  if (cudaMemcpy(counts, dcounts, sizeof(counts), cudaMemcpyDeviceToHost) != cudaSuccess) return 1;
  cudaMemcpy(ranks, dranks, sizeof(ranks), cudaMemcpyDeviceToHost);
  printf("counts");
  for (int b = 0; b < 16; ++b) printf(" %u", counts[b]);
  printf("\n");
  // every rank of a bin taken exactly once: each lane was counted once
  int ok = 1;
  for (int b = 0; b < 16; ++b) {
    unsigned seen[n] = {0};
    for (int i = 0; i < n; ++i)
      if (bins[i] == (unsigned)b) ok &= ranks[i] < counts[b] && !seen[ranks[i]]++;
  }
  printf("ranks %s\n", ok ? "distinct" : "repeated");
  return 0;
}
